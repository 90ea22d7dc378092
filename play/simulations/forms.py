"""The Simulate form: kind, opponent deck, policies, runs, optional seed."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from decks.selectors import decks_listed_for
from play.simulations import core as simulation
from play.simulations import kinds

POLICY_LABELS = {
    "search-strong": _("Strong search bot (48 rollouts a decision)"),
    "search": _("Search bot (16 rollouts a decision)"),
    "greedy": _("Greedy bot"),
    "random": _("Random bot"),
    "passive": _("Passive (never plays)"),
}
POLICY_CHOICES = [(name, POLICY_LABELS.get(name, name)) for name in simulation.POLICIES]


def deck_kind_choices() -> list[tuple[str, str]]:
    """Return the kinds a deck's Simulate form offers: those that play decks."""
    return [(kind.key, kind.label) for kind in kinds.all_kinds() if kind.uses_decks]


class SimulationForm(forms.Form):
    kind = forms.ChoiceField(choices=deck_kind_choices, initial="goldfish")
    deck_b = forms.ModelChoiceField(
        queryset=None, required=False, label=_("Opponent deck"), empty_label=_("(default)")
    )
    policy_a = forms.ChoiceField(choices=POLICY_CHOICES, initial="greedy", label=_("Your policy"))
    policy_b = forms.ChoiceField(
        choices=POLICY_CHOICES, initial="greedy", label=_("Opponent policy")
    )
    runs = forms.IntegerField(min_value=1, initial=1000, label=_("Runs"))
    seed = forms.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, label=_("Seed (optional)")
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        limit = settings.SIMULATION_MAX_RUNS
        self.fields["runs"] = forms.IntegerField(
            min_value=1,
            max_value=limit,
            initial=1000,
            label=_("Runs"),
            help_text=_("Up to %(n)s.") % {"n": f"{limit:,}"},
        )
        self.fields["deck_b"].queryset = (
            decks_listed_for(user).filter(is_legal=True).order_by("-is_sample", "name")
        )

    def clean(self):
        data = super().clean()
        # Shown with the other field errors at once; the service enforces it too (API).
        kind = kinds.get(data.get("kind") or "")
        if kind is not None and kind.needs_opponent and not data.get("deck_b"):
            self.add_error("deck_b", _("This kind of batch needs an opponent deck."))
        return data
