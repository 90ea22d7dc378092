"""The proposal form: every field of the card file format, a source and optional scans.

Its check is `catalog.contributions.services.proposal_check`, the same `validate_card` that
`import_cards` runs, so the form and the importer accept and refuse the same cards.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from cardsite.web.numbers import NotAWholeNumber, parse_whole_number
from catalog.card_format import PROPOSAL_FIELDS
from catalog.contributions.notes import note_check
from catalog.contributions.services import ProposalError, proposal_check
from catalog.importer import card_row
from catalog.models import Card, CardSet, Team
from catalog.scans import ScanError, scan_probe


class ProposalForm(forms.Form):
    set = forms.ChoiceField(label=_("Set"))
    number = forms.CharField(label=_("Number"), max_length=10)
    name = forms.CharField(label=_("Name (English)"), required=False, max_length=300)
    name_ja = forms.CharField(label=_("Name (Japanese)"), required=False, max_length=300)
    name_kana = forms.CharField(
        label=_("Reading (kana)"),
        required=False,
        max_length=300,
        help_text=_("The Japanese name's reading in hiragana or katakana (searchable)."),
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=Card.Kind.choices)
    position = forms.ChoiceField(
        label=_("Position"),
        required=False,
        choices=[("", "—"), ("FW", "FW"), ("MF", "MF"), ("DF", "DF"), ("GK", "GK")],
    )
    person = forms.CharField(label=_("Person"), required=False, max_length=300)
    team = forms.ChoiceField(label=_("Team"), required=False)
    shoot = forms.CharField(label=_("Shoot"), required=False, max_length=10)
    keep = forms.CharField(label=_("Keep"), required=False, max_length=10)
    defense = forms.CharField(label=_("Defense"), required=False, max_length=10)
    effect = forms.CharField(
        label=_("Effect"),
        required=False,
        max_length=400,
        help_text=_(
            "Clauses separated by ';': draw:N, keep:+N, shoot:+N, defense:+N, "
            "opp_keep:-N, opp_shoot:-N, opp_defense:-N"
        ),
    )
    rarity = forms.CharField(label=_("Rarity"), required=False, max_length=30)
    source = forms.CharField(
        label=_("Source"),
        max_length=400,
        help_text=_('Where the data comes from: "my own card", "starter deck booklet", a URL.'),
    )
    note = forms.CharField(
        label=_("Note for the editors"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=4000,
    )
    front = forms.FileField(label=_("Scan of the front"), required=False)
    back = forms.FileField(label=_("Scan of the back"), required=False)
    # The card's printing the scans show (its code), offered when the card has more than one.
    scan_printing = forms.CharField(
        label=_("The scans show"), required=False, max_length=20, strip=True
    )
    apply_now = forms.BooleanField(label=_("Apply at once (trusted editor)"), required=False)

    def __init__(self, *args, trusted: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["set"].choices = [
            (s.code, f"{s.code} {s.display_name}") for s in CardSet.objects.all()
        ]
        self.fields["team"].choices = [("", "—")] + [
            (t.code, t.display_name) for t in Team.objects.all()
        ]
        if not trusted:
            del self.fields["apply_now"]
        self.scans = {}

    def _clean_scan(self, side: str):
        # The header only (format, pixel size, byte size): the pixels are decoded by the
        # control worker (catalog.tasks.scan_process), never on the request thread.
        upload = self.cleaned_data.get(side)
        if upload:
            try:
                scan_probe(upload)
            except ScanError as exc:
                raise forms.ValidationError(str(exc)) from None
            self.scans[side] = upload
        return upload

    def clean_front(self):
        return self._clean_scan("front")

    def clean_back(self):
        return self._clean_scan("back")

    def clean(self):
        data = super().clean()
        raw = {name: self.data.get(name, "") for name in PROPOSAL_FIELDS}
        try:
            proposal_check(raw)
        except ProposalError as exc:
            for problem in exc.problems:
                field = problem.field if problem.field in self.fields else None
                if field is None or field not in self.errors:
                    self.add_error(field, problem.message)
        self.card_data = raw
        return data

    @staticmethod
    def initial_for(card: Card | None, *, set_code: str = "", number: int | None = None) -> dict:
        """Return the form's starting values: what the catalogue knows, never a blank form.

        A real card starts as it is (a correction). A sample placeholder starts from its own
        values (team, position, stats ...), as the set grid does, so a field the proposer does
        not retype keeps a value instead of silently becoming empty; the page says the values
        are the placeholder's. Only a set number the catalogue has no card for starts blank.
        """
        if card is None:
            return {"set": set_code, "number": number or "", "kind": "player"}
        row = card_row(card)
        return {name: row[name] for name in PROPOSAL_FIELDS}


# A field of the card format the form does not spell out is a plain text box, so a field added
# to the format (catalog/card_format.py) is never missing from proposals.
for _name in PROPOSAL_FIELDS:
    ProposalForm.base_fields.setdefault(
        _name, forms.CharField(label=_name.replace("_", " ").capitalize(), required=False)
    )
ProposalForm.base_fields = {
    **{name: ProposalForm.base_fields[name] for name in PROPOSAL_FIELDS},
    **ProposalForm.base_fields,
}


class ReviewForm(forms.Form):
    action = forms.ChoiceField(
        choices=[
            ("accept", _("Accept")),
            ("reject", _("Reject")),
            ("changes", _("Ask for changes")),
        ]
    )
    reason = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}), max_length=2000
    )
    # The version of the proposal the page showed: a review of an older one is refused (409).
    version = forms.CharField(widget=forms.HiddenInput, max_length=12)

    def clean_version(self) -> int:
        try:
            return parse_whole_number(self.cleaned_data["version"], field="version", low=1)
        except NotAWholeNumber as exc:
            raise forms.ValidationError(str(exc)) from None


class NoteForm(forms.Form):
    """An erratum (printed and current text) or a ruling (text and date), with a source.

    Its check is `catalog.contributions.notes.note_check`, the one the service runs again, so
    each problem is shown at the field it names.
    """

    printed_text = forms.CharField(
        label=_("Printed text"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("The text as printed on the card."),
    )
    current_text = forms.CharField(
        label=_("Current text"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("The text as it reads now, after the erratum."),
    )
    text = forms.CharField(
        label=_("Ruling"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("What the ruling says about the card."),
    )
    ruling_date = forms.CharField(
        label=_("Date of the ruling"),
        required=False,
        strip=False,
        help_text=_("YYYY-MM-DD"),
        widget=forms.TextInput(attrs={"placeholder": "2002-04-01", "inputmode": "numeric"}),
    )
    source = forms.CharField(
        label=_("Source"),
        required=False,
        strip=False,
        help_text=_("Where it comes from: the publisher's FAQ, a judge's answer, a URL."),
    )
    note = forms.CharField(
        label=_("Note for the editors"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, kind: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.kind = kind
        other = ("text", "ruling_date") if kind == "erratum" else ("printed_text", "current_text")
        for name in other:
            del self.fields[name]

    def clean(self):
        data = super().clean()
        self.note_data = {}
        try:
            self.note_data = note_check(
                self.kind, {name: data.get(name, "") for name in self.fields}
            )
        except ProposalError as exc:
            for problem in exc.problems:
                field = problem.field if problem.field in self.fields else None
                self.add_error(field, problem.message)
        return data
