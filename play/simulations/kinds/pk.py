"""PK shootouts: deck A against deck B, shootouts only (R-PK-1..6), with the exact odds."""

import random

from django.utils.translation import gettext_lazy as _

from play.engine.pk import pk_shootout
from play.simulations import core as simulation
from play.simulations.kinds import register
from play.simulations.kinds.base import DeckKind
from play.stats import wilson_interval


class PkKind(DeckKind):
    key = "pk"
    label = _("PK shootouts")
    order = 10
    results_template = "play/kinds/_pk_results.html"
    chunk_setting = "SIMULATION_CHUNK_PK"
    keeps_logs = False  # no Eleven Stars match to replay
    needs_opponent = True
    plays_matches = False  # shootouts only: no bots, and R-PLAY-4/R-DRAW-2 never apply

    def params(self, *, request, sides):
        params = super().params(request=request, sides=sides)
        params["exact"] = simulation.exact_pk_probability(
            simulation.side_deck(sides[0]), simulation.side_deck(sides[1])
        )
        return params

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        side_a = simulation.side_deck(sides[0])
        side_b = simulation.side_deck(sides[spec.opponent])
        rng = random.Random(seed)
        scores = []
        decided = []
        for _number in range(spec.runs):
            result = pk_shootout(
                side_a.cards,
                side_a.shootout_goalkeeper,
                side_b.cards,
                side_b.shootout_goalkeeper,
                random.Random(rng.getrandbits(63)),
            )
            scores.append(f"{result.score['A']}-{result.score['B']}")
            decided.append((result.winner, result.decided_by))
        wins = sum(1 for winner, _how in decided if winner == "A")
        return (
            {
                "runs": spec.runs,
                "wins_a": wins,
                "scores": simulation.counter(scores),
                "coin_tosses": sum(1 for _winner, how in decided if how == "coin_toss"),
            },
            [],
        )

    def summarize_merged(self, merged, *, params):
        runs = merged.get("runs", 0)
        low, high = wilson_interval(merged["wins_a"], runs)
        return {
            "runs": runs,
            "win_rate": merged["wins_a"] / runs if runs else 0.0,
            "interval": [low, high],
            "exact": params.get("exact"),
            "scores": merged["scores"],
            "coin_tosses": merged["coin_tosses"],
        }


register(PkKind())
