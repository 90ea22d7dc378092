"""An independent re-play of a suggested swap (issue #29: "An independent engine re-plays
suggested swaps on fresh seeds; a suggestion marked significant must hold").

Run as `python -m tests.play.simulations.independent_replay` with ENGINE_PLAIN=1 (the plain
Python engine, not the compiled build the batch ran on), a JSON request on stdin:
{"base": snapshot, "swap": [out, in], "in_card": CARD, "field": [snapshots], "seeds": n,
"salt": str}. It builds the decks from the snapshots itself (no play.simulations code: not the
batch's candidate builder, pairing or statistics), plays deck A and the swapped deck on the same
fresh seeds against every field deck, and prints JSON: the pairs, the wins of each, the seeds.

With "halftime": true the swap is a halftime bench swap (R-MATCH-5): deck A plays as it is,
once with the greedy bot (which never swaps) and once with a greedy bot of this module's own
that makes the swap at halftime when the engine lists it as legal.
"""

import json
import random
import sys

from play.engine import COMPILED
from play.engine.actions import HalftimeSwaps
from play.engine.cards import Card
from play.engine.match import HALFTIME, SideDeck
from play.engine.policies import get_policy
from play.engine.runner import play_match


class SwapAtHalftime:
    """The greedy bot, but at halftime it makes one given swap when it is legal."""

    name = "greedy"
    uses_rng = False

    def __init__(self, swap):
        self.greedy = get_policy("greedy")
        self.action = HalftimeSwaps("A", (tuple(swap),))
        self.made = 0

    def choose(self, state, rng):
        if state.decision == HALFTIME and self.action in state.legal_actions():
            self.made += 1
            return self.action
        return self.greedy.choose(state, rng)


def side(snapshot: dict, cards: list[str], extra: dict) -> SideDeck:
    known = {i: Card.from_log(d) for i, d in {**extra, **snapshot["card_data"]}.items()}
    pk = snapshot.get("pk_goalkeeper")
    return SideDeck(
        name=snapshot["name"],
        cards=tuple(known[i] for i in cards),
        goalkeeper=known[snapshot["goalkeeper"]],
        pk_goalkeeper=known[pk] if pk else None,
        bench=tuple(known[i] for i in snapshot["bench"]),
    )


def main() -> None:
    request = json.load(sys.stdin)
    base = request["base"]
    out, card_in = request["swap"]
    extra = {card_in: request["in_card"]}
    cards = list(base["cards"])
    cards.remove(out)
    cards.append(card_in)
    deck = side(base, list(base["cards"]), extra)
    swapped = side(base, cards, extra)
    if request.get("halftime"):
        swapped = deck  # the same deck: the bot makes the swap at halftime
        swapper = SwapAtHalftime(request["swap"])
    rng = random.Random(f"independent-replay:{request['salt']}")
    seeds, wins, swapped_wins, pairs, up, down = [], 0, 0, 0, 0, 0
    for opponent_snapshot in request["field"]:
        opponent = side(opponent_snapshot, opponent_snapshot["cards"], {})
        for _ in range(request["seeds"]):
            seed = rng.getrandbits(63)
            seeds.append(seed)
            a = play_match(
                deck, opponent, policy_a="greedy", policy_b="greedy", seed=seed, log=False
            )
            b = play_match(
                swapped,
                opponent,
                policy_a=swapper if request.get("halftime") else "greedy",
                policy_b="greedy",
                seed=seed,
                log=False,
            )
            wins += a.winner == "A"
            swapped_wins += b.winner == "A"
            up += b.winner == "A" and a.winner != "A"
            down += a.winner == "A" and b.winner != "A"
            pairs += 1
    json.dump(
        {
            "compiled": COMPILED,
            "swaps_made": swapper.made if request.get("halftime") else None,
            "pairs": pairs,
            "wins": wins,
            "swapped_wins": swapped_wins,
            "up": up,
            "down": down,
            "seeds": seeds,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
