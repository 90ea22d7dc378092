"""The Simulate form: kind, opponent deck, bots (strongest first), rule options, runs, seed,
and for swap suggestions where the cards come from and which to take out."""

import json

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from decks.selectors import decks_listed_for
from play.simulations import kinds
from play.simulations.bots import BOTS, RULE_CHOICES, bot_choices, bot_label
from play.simulations.kinds.base import BatchKind

POLICY_LABELS = {name: bot_label(name) for name in BOTS}  # lazy: the solo form reads them too
# Fields one kind reads, each group in a fieldset shown only for its kind (site.js).
KIND_FIELDS = {
    "swaps": ("swap_source", "swap_out"),
    "matrix": ("matrix_set", "matrix_decks"),
}
MATRIX_SETS = [
    ("prebuilt", _("Every prebuilt deck")),
    ("mine", _("My legal decks")),
    ("list", _("A list of decks (links or share slugs below, one a line)")),
]
SWAP_SOURCES = [
    ("catalogue", _("The whole catalogue")),
    ("collection", _("My collection (cards I own beyond this deck's copies)")),
]


def deck_kind_choices() -> list[tuple[str, str]]:
    """Return the kinds a deck's Simulate form offers: those that play decks."""
    return [(kind.key, kind.label) for kind in kinds.all_kinds() if kind.uses_decks]


class SimulationForm(forms.Form):
    kind = forms.ChoiceField(choices=deck_kind_choices, initial="goldfish", label=_("Kind"))
    deck_b = forms.ModelChoiceField(queryset=None, required=False, label=_("Opponent deck"))
    policy_a = forms.ChoiceField(choices=bot_choices, initial="greedy", label=_("Your policy"))
    policy_b = forms.ChoiceField(choices=bot_choices, initial="greedy", label=_("Opponent policy"))
    empty_timing = forms.ChoiceField(  # R-PLAY-4
        label=RULE_CHOICES["empty_timing"][0],
        choices=list(RULE_CHOICES["empty_timing"][1].items()),
        initial="passes",
        required=False,
    )
    deck_out = forms.ChoiceField(  # R-DRAW-2
        label=RULE_CHOICES["deck_out"][0],
        choices=list(RULE_CHOICES["deck_out"][1].items()),
        initial="draw_phase",
        required=False,
    )
    runs = forms.IntegerField(min_value=1, initial=BatchKind.default_runs, label=_("Runs"))
    seed = forms.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, label=_("Seed (optional)")
    )

    swap_source = forms.ChoiceField(
        choices=SWAP_SOURCES,
        initial="catalogue",
        required=False,
        widget=forms.RadioSelect,
        label=_("Cards to bring in"),
    )
    swap_out = forms.MultipleChoiceField(
        choices=(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Cards to take out"),
        help_text=_(
            "None ticked: every card of the deck. Each card taken out tries every legal card "
            "coming in (about 150 from the catalogue), so a few cards make a quicker search."
        ),
    )

    matrix_set = forms.ChoiceField(
        choices=MATRIX_SETS,
        initial="prebuilt",
        required=False,
        widget=forms.RadioSelect,
        label=_("Decks in the matrix (with this one)"),
    )
    matrix_decks = forms.CharField(
        required=False,
        max_length=8000,
        widget=forms.Textarea(
            attrs={
                "rows": 4,
                "placeholder": "https://…/decks/abc123/",
                "aria-labelledby": "id_matrix_decks-legend",
            }
        ),
        label=_("The list of decks"),
        help_text=_("For a list: a deck's link or share slug a line; decks you can open."),
    )

    def __init__(self, *args, user=None, deck=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["swap_out"].choices = self._deck_cards(deck)
        limit = settings.SIMULATION_MAX_RUNS
        chosen = self._chosen_kind()
        self.fields["runs"] = forms.IntegerField(
            min_value=1,
            max_value=limit,
            initial=chosen.default_runs if chosen is not None else BatchKind.default_runs,
            label=_("Runs"),
            help_text=_("Up to %(n)s.") % {"n": f"{limit:,}"},
        )
        self.fields["deck_b"].queryset = (
            decks_listed_for(user).filter(is_legal=True).order_by("-is_sample", "name")
        )
        self._word_the_empty_opponent()
        self._default_the_runs()

    @staticmethod
    def _deck_cards(deck) -> list[tuple[str, str]]:
        """Return (card id, "id name ×copies") for each card of the deck's latest version."""
        if deck is None:
            return []
        from catalog.models import Card
        from decks.selectors import latest_version

        version = latest_version(deck)
        counts = (version.content.get("deck") or {}) if version else {}
        cards = Card.objects.in_bulk(list(counts))
        return [
            (card_id, f"{card_id} {cards[card_id].display_name} ×{n}")
            for card_id, n in sorted(counts.items())
            if card_id in cards
        ]

    def main_fields(self):
        """The fields every kind reads (a kind's own fields have their own fieldset)."""
        own = {name for names in KIND_FIELDS.values() for name in names}
        return [field for field in self if field.name not in own]

    def kind_groups(self):
        """Return (kind key, kind label, its fields) for each kind with fields of its own."""
        return [
            (key, kinds.get(key).label, [self[name] for name in names])
            for key, names in KIND_FIELDS.items()
        ]

    def study(self) -> dict | None:
        """Return the batch's study for the chosen kind: the swap suggestions' source and the
        cards to take out (none ticked: every card), the matrix's set of decks, or None."""
        data = self.cleaned_data
        if data.get("kind") == "swaps":
            study = {"source": data.get("swap_source") or "catalogue"}
            if data.get("swap_out"):
                study["out"] = list(data["swap_out"])
            return study
        if data.get("kind") == "matrix":
            study = {"set": data.get("matrix_set") or "prebuilt"}
            if study["set"] == "list":
                study["decks"] = (data.get("matrix_decks") or "").splitlines()
            return study
        return None

    def _chosen_kind(self):
        """Return the kind the form shows chosen (posted, asked for with ?kind=, or the default)."""
        return kinds.get(
            (self.data.get("kind") if self.is_bound else None)
            or self.initial.get("kind")
            or self.fields["kind"].initial
        )

    def _default_the_runs(self):
        """Start Runs at the chosen kind's default (BatchKind.default_runs); site.js sets it to
        the new kind's as the kind changes, unless the person typed a number of their own."""
        self.fields["runs"].widget.attrs.update(
            {
                "data-defaults-follow": "kind",
                "data-default-runs": json.dumps(
                    {kind.key: kind.default_runs for kind in kinds.all_kinds() if kind.uses_decks}
                ),
            }
        )

    def _word_the_empty_opponent(self):
        """Offer "(default)" only for a kind that has a default opponent (goldfish); site.js
        rewords the choice, and requires one, as the kind changes."""
        deck_kinds = [kind for kind in kinds.all_kinds() if kind.uses_decks]
        chosen = self._chosen_kind()
        field = self.fields["deck_b"]
        if chosen is not None and chosen.uses_decks:
            field.empty_label = chosen.empty_opponent_label
        field.widget.attrs.update(
            {
                "data-empty-follows": "kind",
                "data-empty-labels": json.dumps(
                    {kind.key: str(kind.empty_opponent_label) for kind in deck_kinds},
                    ensure_ascii=False,
                ),
                "data-required-for": " ".join(k.key for k in deck_kinds if k.needs_opponent),
            }
        )

    def clean(self):
        data = super().clean()
        # Shown with the other field errors at once; the service enforces it too (API).
        kind = kinds.get(data.get("kind") or "")
        if kind is not None and kind.needs_opponent and not data.get("deck_b"):
            self.add_error("deck_b", _("This kind of batch needs an opponent deck."))
        return data

    def options(self) -> dict:
        """Return the rule options chosen (an empty choice is the second edition's reading)."""
        return {
            name: self.cleaned_data.get(name) or next(iter(RULE_CHOICES[name][1]))
            for name in RULE_CHOICES
        }
