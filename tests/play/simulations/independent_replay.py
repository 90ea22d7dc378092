"""An independent re-play of a suggested swap (issue #29: "An independent engine re-plays
suggested swaps on fresh seeds; a suggestion marked significant must hold").

Run as `python -m tests.play.simulations.independent_replay` with ENGINE_PLAIN=1 (the plain
Python engine, not the compiled build the batch ran on), a JSON request on stdin:
{"base": snapshot, "swap": [out, in], "in_card": CARD, "field": [snapshots], "seeds": n,
"salt": str}. It builds the decks from the snapshots itself (no play.simulations code: not the
batch's candidate builder, pairing or statistics), plays deck A and the swapped deck on the same
fresh seeds against every field deck, and prints JSON: the pairs, the wins of each, the seeds.
"""

import json
import random
import sys

from play.engine import COMPILED
from play.engine.cards import Card
from play.engine.match import SideDeck
from play.engine.runner import play_match


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
                swapped, opponent, policy_a="greedy", policy_b="greedy", seed=seed, log=False
            )
            wins += a.winner == "A"
            swapped_wins += b.winner == "A"
            up += b.winner == "A" and a.winner != "A"
            down += a.winner == "A" and b.winner != "A"
            pairs += 1
    json.dump(
        {
            "compiled": COMPILED,
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
