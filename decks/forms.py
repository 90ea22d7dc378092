"""Forms of the deck pages and the sign-up page."""

import unicodedata

from confusable_homoglyphs import categories, confusables
from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from catalog.models import Team
from decks.login_throttle import login_blocked, login_failed, login_succeeded
from decks.models import Deck
from decks.names import deck_name_problem
from decks.text_format import MAX_FILE_BYTES, MAX_TEXT_CHARS

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


# Japanese writes one name in several scripts; every other mix is refused.
_JAPANESE = {"HAN", "HIRAGANA", "KATAKANA"}


def username_problem(username: str) -> str | None:
    """Return why a user name could pass for another one (a homoglyph), or None.

    Refused: letters of two scripts in one name ("аlice" with a Cyrillic а beside Latin
    letters), and a name in another script made only of letters that look Latin ("асе" in
    Cyrillic looks like "ace"). Names in one script (or Japanese kana and kanji) are fine.
    """
    name = unicodedata.normalize("NFKC", username)
    scripts = categories.unique_aliases(name) - {"COMMON"}
    if len(scripts) > 1 and not scripts <= _JAPANESE:
        return _(
            "A user name cannot mix letters of different scripts (%(scripts)s): it could "
            "pass for another user's name."
        ) % {"scripts": ", ".join(sorted(s.title() for s in scripts))}
    if scripts and not scripts & ({"LATIN"} | _JAPANESE):
        letters = [ch for ch in name if categories.alias(ch) != "COMMON"]
        lookalikes = {
            c["character"]
            for c in confusables.is_confusable(name, preferred_aliases=["latin"], greedy=True) or []
        }
        if letters and all(ch in lookalikes for ch in letters):
            return _(
                "This user name is made only of letters that look like Latin letters: it "
                "could pass for another user's name."
            )
    return None


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail (optional, for password reset)"), required=False, max_length=254
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self):
        username = super().clean_username()
        problem = username_problem(username) if username else None
        if problem:
            raise forms.ValidationError(problem, code="confusable")
        return username


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing an account or address with too many failed logins."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "throttled": _(
            "Too many failed logins for this account or from this address. Wait 15 minutes "
            "and try again, or reset your password."
        ),
    }

    def clean(self):
        username = self.data.get("username", "") or ""
        address = self.request.META.get("REMOTE_ADDR", "") if self.request else ""
        if login_blocked(username=username, address=address):
            self.throttled = True
            raise forms.ValidationError(self.error_messages["throttled"], code="throttled")
        try:
            data = super().clean()
        except forms.ValidationError:
            login_failed(username=username, address=address)
            raise
        login_succeeded(username=username)
        return data
