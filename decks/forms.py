"""Forms of the deck pages."""

from django import forms
from django.utils.translation import gettext_lazy as _

from catalog.models import Team
from decks.formats.text import MAX_FILE_BYTES, MAX_TEXT_CHARS
from decks.models import Deck
from decks.names import deck_name_problem

MAX_UPLOAD_BYTES = MAX_FILE_BYTES


def clean_deck_name(value: str) -> str:
    problem = deck_name_problem(value)
    if problem:
        raise forms.ValidationError(_("The name %(problem)s.") % {"problem": problem})
    return value


class DeckDetailsForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    description = forms.CharField(
        label=_("Description"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Deck.Visibility.choices)

    def clean_name(self):
        return clean_deck_name(self.cleaned_data["name"])


class DeckImportForm(forms.Form):
    text = forms.CharField(
        label=_("Deck text"),
        required=False,
        max_length=MAX_TEXT_CHARS,
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false", "class": "mono"}),
    )
    file = forms.FileField(label=_("…or upload a text file"), required=False)
    name = forms.CharField(
        label=_("Name (when the text has no name: line)"), max_length=100, required=False
    )
    visibility = forms.ChoiceField(
        label=_("Visibility"), choices=Deck.Visibility.choices, initial=Deck.Visibility.PRIVATE
    )

    def clean_name(self):
        name = self.cleaned_data["name"]
        return clean_deck_name(name) if name else name

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > MAX_UPLOAD_BYTES:
                raise forms.ValidationError(_("The file is larger than 200 kB."))
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        if not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Paste a deck text or choose a file."))
        return data


class DeckSearchForm(forms.Form):
    name = forms.CharField(label=_("Name"), required=False, max_length=100)
    card = forms.CharField(label=_("Contains card (id or name)"), required=False, max_length=100)
    owner = forms.CharField(label=_("Owner"), required=False, max_length=150)
    team = forms.ModelChoiceField(
        label=_("Holds cards of team"),
        queryset=Team.objects.order_by("name"),
        required=False,
        to_field_name="pk",
    )
    legal = forms.BooleanField(label=_("Legal decks only"), required=False)
    sort = forms.ChoiceField(
        label=_("Sort by"),
        required=False,
        choices=[
            ("newest", _("Newest")),
            ("name", _("Name")),
            ("owner", _("Owner")),
            ("legal", _("Legal first")),
            ("stars", _("Most stars")),
        ],
    )
