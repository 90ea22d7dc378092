"""Goldfish runs: deck A against a passive opponent that never plays a card."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from play.simulations import sides as deck_sides
from play.simulations.kinds import register
from play.simulations.kinds.base import DeckKind


class GoldfishKind(DeckKind):
    key = "goldfish"
    label = gettext_lazy("Goldfish runs")
    order = 20
    empty_opponent_label = gettext_lazy("(default) a prebuilt deck")

    def opponent_decks(self, request):
        return [("deck_b", request.deck_b or deck_sides.goldfish_deck())]

    def params(self, *, request, sides):
        return {**super().params(request=request, sides=sides), "policy_b": "passive"}

    def against_text(self, batch) -> str:
        name = batch.deck_b_version.name if batch.deck_b_version else ""
        return f"{_('against a passive')} {name}"


register(GoldfishKind())
