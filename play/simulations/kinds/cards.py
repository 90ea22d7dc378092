"""The card report: what each card of deck A did against every prebuilt deck (issue #29).

Every match is played with its log on, and each log is reduced at once to per-card counts
(play/simulations/card_report.py), so a chunk holds counts, never logs. The page gives each
card's draw and play rates, the goals and stopped shots it was part of, and the win rate in
matches where it was drawn against those where it was not, with intervals, sample sizes and a
caution where a sample is small.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from catalog.models import Card
from play.simulations import card_report
from play.simulations import core as simulation
from play.simulations.kinds import register
from play.simulations.kinds.gauntlet import GauntletKind

CHUNK_MATCHES = 100  # logged matches cost about 2.4x an unlogged one; a chunk stays short


class CardReportKind(GauntletKind):
    key = "cards"
    label = gettext_lazy("Card report")
    order = 42
    results_template = "play/kinds/_card_report_results.html"
    keeps_logs = False

    def chunk_size(self) -> int:
        return min(super().chunk_size(), CHUNK_MATCHES)

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        result = card_report.run_chunk(
            side_a=simulation.side_deck(sides[0]),
            side_b=simulation.side_deck(sides[spec.opponent]),
            params=params,
            runs=spec.runs,
            seed=seed,
        )
        return result, []

    def summarize(self, *, sides, params, by_opponent):
        merged = card_report.merge([r for results in by_opponent.values() for r in results])
        deck_ids = list(sides[0]["cards"])  # ids, one a copy
        return {
            "kind": self.key,
            **card_report.summarize(merged, deck_ids),
            **self.named(sides=sides[:1], params=params),
        }

    def detail_context(self, batch, request) -> dict:
        """Return the report's rows with each card's name in the reader's language."""
        rows = (batch.results or {}).get("cards", [])
        cards = Card.objects.in_bulk([row["card"] for row in rows])
        return {
            "card_rows": [
                {**row, "name": cards[row["card"]].display_name if row["card"] in cards else ""}
                for row in rows
            ]
        }

    def opponent_text(self, batch) -> str:
        return _("every prebuilt deck")

    def against_text(self, batch) -> str:
        return _("against every prebuilt deck")


register(CardReportKind())
