"""PK shootouts: deck A against deck B, shootouts only (R-PK-1..6), with the exact odds."""

import random

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from play.engine.chance import InIdOrder
from play.engine.pk import pk_scores, pk_shoot, pk_shootout
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
        # Each shootout shuffles both full decks from their id order: sorted once here.
        deck_a, deck_b = InIdOrder(side_a.cards), InIdOrder(side_b.cards)
        scores = []
        decided = []
        for _number in range(spec.runs):
            result = pk_shootout(
                deck_a,
                side_a.shootout_goalkeeper,
                deck_b,
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

    def detail_context(self, batch, request) -> dict:
        exact = (batch.results or {}).get("exact")
        if exact not in (0.0, 1.0) or len(batch.sides) < 2:
            return {}
        side_a, side_b = (simulation.side_deck(side) for side in batch.sides[:2])
        if exact == 1.0:
            return {"pk_certain": certain_shootout_reason(winner=side_a, loser=side_b)}
        return {"pk_certain": certain_shootout_reason(winner=side_b, loser=side_a)}

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


def certain_shootout_reason(*, winner, loser) -> str:
    """Return why the exact odds are 0 or 1: the loser never beats the winner's keeper."""
    keeper = winner.shootout_goalkeeper
    best = max((pk_shoot(card) for card in loser.cards), default=0)
    scoring = sum(pk_scores(card, loser.shootout_goalkeeper) for card in winner.cards)
    # R-PK-3: a kick scores only above the keeper's defense; R-PK-5: the shootout goes on
    # until the side that can score does.
    return gettext(
        "No card of %(loser)s shoots past %(winner)s's PK goalkeeper %(keeper)s (defense "
        "%(defense)s): its best shoot is %(best)s. %(winner)s scores with %(scoring)s of its "
        "%(size)s cards, so it always wins in the end (R-PK-3, R-PK-5)."
    ) % {
        "loser": loser.name,
        "winner": winner.name,
        "keeper": keeper.person or keeper.id,
        "defense": keeper.defense,
        "best": best,
        "scoring": scoring,
        "size": len(winner.cards),
    }


register(PkKind())
