"""The form that starts a Touchdown Heroes game by hand (one seat, three bots)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from play.touchdown import Options


class TdStartForm(forms.Form):
    seat = forms.TypedChoiceField(
        label=_("Your seat"),
        coerce=int,
        choices=[
            (0, _("Seat 0 (Eagles)")),
            (1, _("Seat 1 (Bears)")),
            (2, _("Seat 2 (Eagles)")),
            (3, _("Seat 3 (Bears)")),
        ],
        initial=0,
    )
    bots = forms.ChoiceField(
        label=_("Bots"),
        choices=[("greedy", _("greedy")), ("random", _("random")), ("search", _("search"))],
        initial="greedy",
    )
    random_kick_base = forms.IntegerField(
        label=_("Random kick: base (the 3 of 3 + d6)"), min_value=0, max_value=7, initial=3
    )
    kick_floor = forms.IntegerField(
        label=_("Floor under a random kick that is not onside (0: none)"),
        min_value=0,
        max_value=10,
        initial=0,
    )
    onside_rolls = forms.IntegerField(
        label=_("Onside on a roll of 1 to"), min_value=0, max_value=5, initial=1
    )
    effects = forms.ChoiceField(
        label=_("Effect set"),
        choices=[
            ("none", _("none (bare rules)")),
            ("example", _("example (ours, not the designer's)")),
        ],
        initial="none",
    )

    def options(self) -> Options:
        data = self.cleaned_data
        return Options(
            random_kick_base=data["random_kick_base"],
            kick_floor=data["kick_floor"],
            onside_rolls=data["onside_rolls"],
            effects=data["effects"],
        )
