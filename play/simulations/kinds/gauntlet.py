"""The gauntlet: deck A against every public prebuilt deck, one results row per opponent."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from play.simulations import core as simulation
from play.simulations import sides as deck_sides
from play.simulations.kinds import register
from play.simulations.kinds.base import DeckKind


class GauntletKind(DeckKind):
    key = "gauntlet"
    label = gettext_lazy("Gauntlet")
    order = 40
    results_template = "play/kinds/_gauntlet_results.html"
    opponents_label = gettext_lazy("each prebuilt deck")
    empty_opponent_label = gettext_lazy("(not used) every prebuilt deck plays")

    def opponent_decks(self, request):
        return [("deck_b", deck) for deck in deck_sides.prebuilt_decks()]

    def summarize(self, *, sides, params, by_opponent):
        table = []
        for opponent, results in sorted(by_opponent.items()):
            summary = simulation.summarize_matches(simulation.merge_results(results))
            summary["opponent"] = sides[opponent]["name"]
            table.append(summary)
        runs = sum(r["runs"] for r in table)
        return {
            "kind": self.key,
            "table": table,
            "runs": runs,
            **self.named(sides=sides[:1], params=params),
        }

    def opponent_text(self, batch) -> str:
        return _("every prebuilt deck")

    def against_text(self, batch) -> str:
        return _("against every prebuilt deck")


register(GauntletKind())
