"""The matchup matrix: deck A and every public prebuilt deck, each pair played (a round robin).

Matchups need not be transitive (A beats B, B beats C, C beats A), so the results are the
matrix itself, a cell for every ordered pair with its interval, rather than one rating a deck.
Each deck's line also names its best response: the deck of the set that beats it most.
Every deck is played by the same bot (the request's policy A). A chunk plays one pair; the
chunk's `opponent` is the pair's number in `params["pairs"]` (1-based).
"""

from itertools import combinations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from play.simulations import core as simulation
from play.simulations import sides as deck_sides
from play.simulations.kinds import register
from play.simulations.kinds.base import DeckKind, Prepared

MIN_DECKS = 3  # below this a matrix says nothing a head-to-head batch does not


class MatrixKind(DeckKind):
    key = "matrix"
    label = gettext_lazy("Matchup matrix")
    order = 45
    results_template = "play/kinds/_matrix_results.html"
    keeps_logs = False  # the sample-match list names one opponent a chunk, not a pair
    opponents_label = gettext_lazy("each deck of the set")
    empty_opponent_label = gettext_lazy("(not used) this deck and every prebuilt deck")

    def opponent_decks(self, request):
        """The set's other decks: every public prebuilt deck but deck A itself."""
        own = getattr(request.deck_a, "pk", None)
        return [("deck_b", deck) for deck in deck_sides.prebuilt_decks() if deck.pk != own]

    def params(self, *, request, sides):
        params = super().params(request=request, sides=sides)
        params["policy_b"] = params["policy_a"]  # one bot plays every deck
        params["pairs"] = [list(pair) for pair in combinations(range(len(sides)), 2)]
        return params

    def prepare(self, *, request, errors):
        prepared = super().prepare(request=request, errors=errors)
        if not errors and len(prepared.sides) < MIN_DECKS:
            errors["deck_b"] = [
                f"A matchup matrix needs at least {MIN_DECKS} decks; "
                f"only {len(prepared.sides)} are available."
            ]
        if errors:
            return prepared
        return Prepared(
            sides=prepared.sides,
            params=prepared.params,
            opponents=len(prepared.params["pairs"]),
            versions=prepared.versions,
        )

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        first, second = params["pairs"][spec.opponent - 1]
        return simulation.run_matches(
            side_a=simulation.side_deck(sides[first]),
            side_b=simulation.side_deck(sides[second]),
            params=params,
            runs=spec.runs,
            seed=seed,
            keep_logs=0,
        )

    def summarize(self, *, sides, params, by_opponent):
        return {
            "kind": self.key,
            **matrix_summary(
                names=[side["name"] for side in sides],
                pairs=params["pairs"],
                by_pair={number - 1: results for number, results in by_opponent.items()},
            ),
            **self.named(sides=sides[:1], params=params),
        }

    def opponent_text(self, batch) -> str:
        return _("every prebuilt deck, each pair")

    def against_text(self, batch) -> str:
        return _("and every prebuilt deck, each pair")


def matrix_summary(*, names: list[str], pairs: list[list[int]], by_pair: dict) -> dict:
    """Return the matrix from the finished chunk results of each pair (0-based pair numbers).

    `cells[i][j]` is deck i's record against deck j (None on the diagonal, and for a pair with
    no finished chunk yet); a pair's second deck reads the first's figures mirrored. Each row
    gives the deck's mean win rate over the decks it met and its best response.
    """
    size = len(names)
    cells: list[list[dict | None]] = [[None] * size for _ in range(size)]
    runs = 0
    for number, (first, second) in enumerate(pairs):
        merged = simulation.merge_results(by_pair.get(number, []))
        if not merged or not merged.get("runs"):
            continue
        summary = simulation.summarize_matches(merged)
        runs += summary["runs"]
        low, high = summary["interval"]
        cells[first][second] = {
            "runs": summary["runs"],
            "wins": merged["wins"].get("A", 0),
            "win_rate": summary["win_rate"],
            "interval": [low, high],
        }
        cells[second][first] = {
            "runs": summary["runs"],
            "wins": merged["wins"].get("B", 0),
            "win_rate": 1 - summary["win_rate"],
            "interval": [1 - high, 1 - low],
        }
    rows = []
    for i, name in enumerate(names):
        met = [(j, cell) for j, cell in enumerate(cells[i]) if cell is not None]
        best = min(met, key=lambda pair: (pair[1]["win_rate"], pair[0])) if met else None
        rows.append(
            {
                "deck": name,
                "cells": cells[i],
                "mean_win_rate": sum(c["win_rate"] for _, c in met) / len(met) if met else None,
                "best_response": None
                if best is None
                else {"deck": names[best[0]], "index": best[0], **best[1]},
            }
        )
    return {"decks": names, "rows": rows, "runs": runs}


register(MatrixKind())
