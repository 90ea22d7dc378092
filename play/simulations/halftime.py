"""Halftime and bench advice's arithmetic (issue #29 item 4): which bench cards were worth
bringing. Pure: no Django.

R-MATCH-5 lets a player swap cards between deck and bench one for one at halftime, as long as
the deck stays legal (R-DECK-1..3). The engine's bots never swap (play/engine/policies.py: every
policy but `random` answers "no swap"; `random` draws one of the legal swaps), so a batch of the
deck never shows what its bench is worth. Here each match seed is played once with side A
swapping nothing at halftime (the baseline) and once per candidate swap (one out, one in),
side A's bot forced to make that swap and otherwise choosing as it always does
(`ForcedHalftime`). Both sides' first halves are the same match (same seed, same choices), so
the paired difference is the swap's effect on the second half and the shootout: common random
numbers. Per candidate the chunk keeps how often it won where the baseline lost (`up`) and
lost where it won (`down`), as the swap suggestions do (play/simulations/swaps.py).

The summary reads every candidate's change with its interval, a Holm correction over all
candidates (one family: every swap played the same matches, none was chosen from the others'
results), then per bench card its best swap and per out-card its best replacement, each with a
verdict: worth it (stands after the correction), costs (the interval is wholly below 0),
unclear, or too few matches to say.
"""

from __future__ import annotations

import random

from play.engine.actions import HalftimeSwaps
from play.engine.cards import Card
from play.engine.match import HALFTIME, DeckPair
from play.engine.options import Options
from play.engine.policies import get_policy
from play.engine.runner import play_match
from play.simulations.core import side_deck
from play.simulations.swaps import _problems, count_paired, holm, paired

SMALL_SAMPLE = 30  # fewer paired matches than this: too few to read a difference
VERDICTS = ("worth", "unclear", "costs", "too_few", "never_legal")


def candidate_swaps(snapshot: dict) -> list[list[str]]:
    """Return every legal halftime swap [out of the deck, in from the bench] of a snapshot.

    The engine's own rule (Match._swap_options, R-MATCH-5): out is any distinct card of the 60,
    in any distinct non-goalkeeper bench card, and the deck and bench after the swap must pass
    the deck check (R-DECK-1..3, and the rest of `deck_problems` as the engine asks it).
    """
    known = {card_id: Card.from_log(data) for card_id, data in snapshot["card_data"].items()}
    ins = sorted({c for c in snapshot["bench"] if known[c].kind != "goalkeeper"})
    found = []
    for out in sorted(set(snapshot["cards"])):
        for card_in in ins:
            if card_in != out and not _problems(swapped(snapshot, [out, card_in]), known):
                found.append([out, card_in])
    return found


def swapped(snapshot: dict, swap: list[str]) -> dict:
    """Return the snapshot after a halftime swap: `out` to the bench, `in` into the deck."""
    out, card_in = swap
    cards = list(snapshot["cards"])
    cards[cards.index(out)] = card_in
    bench = list(snapshot["bench"])
    bench[bench.index(card_in)] = out
    return {**snapshot, "cards": cards, "bench": bench}


class ForcedHalftime:
    """Side A's bot with its halftime choice fixed: `swap` ([out, in]) or no swap (None).

    Every other decision is the bot's own, with the bot's own random source, so a match with
    the swap and the baseline match are the same match up to halftime. Where the swap is not
    legal in this match (the `halftime_keep_hands` option keeps some cards out of the pool) the
    side swaps nothing, and `refused` counts it.
    """

    def __init__(self, policy: str, swap: list[str] | None, side: str = "A"):
        self.base = get_policy(policy)
        self.name = self.base.name
        self.uses_rng = getattr(self.base, "uses_rng", True)
        self.action = HalftimeSwaps(side, (tuple(swap),) if swap else ())
        self.none = HalftimeSwaps(side, ())
        self.refused = 0

    def choose(self, state, rng):
        if state.decision == HALFTIME:
            if not self.action.swaps or self.action in state.legal_actions():
                return self.action
            self.refused += 1
            return self.none
        return self.base.choose(state, rng)


def match_seeds(chunk_seed: int, skip: int, count: int) -> list[int]:
    """Return match seeds `skip`..`skip + count` of a chunk seed: the very seeds a plain chunk
    of that seed plays (core.play_matches draws them the same way), so a slice of a card
    report's chunk replays that report's matches."""
    rng = random.Random(chunk_seed)
    seeds = [rng.getrandbits(63) for _ in range(skip + count)]
    return seeds[skip:]


def run_chunk(
    *, base: dict, opponent: dict, swaps: list[list[str]], params: dict, seeds: list[int]
) -> dict:
    """Play every seed with the no-swap baseline and with each candidate swap.

    Returns the baseline's wins and, per candidate number (a string key), [wins, up, down],
    and how often a swap could not be made in a match (`refused`).
    """
    options = Options(**params.get("options", {}))
    policy_a = params.get("policy_a", "greedy")
    policy_b = params.get("policy_b", "greedy")
    side_a = side_deck(base)
    side_b = side_deck(opponent)
    pair = DeckPair(side_a, side_b)
    forced = [ForcedHalftime(policy_a, None)] + [ForcedHalftime(policy_a, s) for s in swaps]
    wins = [0] * len(forced)
    up = [0] * len(forced)
    down = [0] * len(forced)
    for seed in seeds:
        won = [
            play_match(
                side_a,
                side_b,
                policy_a=policy,
                policy_b=policy_b,
                seed=seed,
                options=options,
                log=False,
                decks=pair,
            ).winner
            == "A"
            for policy in forced
        ]
        count_paired(won, wins, up, down)
    return {
        "runs": len(seeds),
        "baseline_wins": wins[0],
        "candidates": {
            str(i): [wins[n], up[n], down[n]] for n, i in enumerate(range(len(swaps)), 1)
        },
        "refused": sum(policy.refused for policy in forced),
    }


def merge(results: list[dict]) -> dict:
    """Return the baseline's [runs, wins], per candidate [pairs, wins, up, down], refusals."""
    baseline = [0, 0]
    merged: dict[str, list[int]] = {}
    refused = 0
    for result in results:
        baseline[0] += result["runs"]
        baseline[1] += result["baseline_wins"]
        refused += result.get("refused", 0)
        for key, (wins, up, down) in result["candidates"].items():
            row = merged.setdefault(key, [0, 0, 0, 0])
            row[0] += result["runs"]
            row[1] += wins
            row[2] += up
            row[3] += down
    return {"baseline": baseline, "candidates": merged, "refused": refused}


def verdict(row: dict) -> str:
    """Return a row's verdict: worth, costs, unclear or too_few (VERDICTS)."""
    if row["pairs"] < SMALL_SAMPLE or row["interval"] is None:
        return "too_few"
    if row["stands"]:
        return "worth"
    if row["interval"][1] < 0:
        return "costs"
    return "unclear"


def summarize(*, snapshot: dict, swaps: list[list[str]], merged: dict) -> dict:
    """Return the advice: every swap's row, then per bench card and per out-card the best."""
    rows = []
    for number, (out, card_in) in enumerate(swaps):
        n, wins, up, down = merged["candidates"].get(str(number), [0, 0, 0, 0])
        rows.append(
            {
                "number": number,
                "out": out,
                "in": card_in,
                "wins": wins,
                "up": up,
                "down": down,
                **paired(n, up, down),
            }
        )
    p_values = {
        row["number"]: row["p_value"]
        for row in rows
        if row["p_value"] is not None and row["difference"] > 0
    }
    stands = holm(p_values, m=len(swaps)) if p_values else {}
    for row in rows:
        row["stands"] = bool(stands.get(row["number"]))
        row["small_sample"] = row["pairs"] < SMALL_SAMPLE
        row["verdict"] = verdict(row)
    rows.sort(key=lambda r: (not r["stands"], -(r["difference"] or 0.0), r["number"]))

    def best(key: str, card_id: str) -> dict:
        mine = [row for row in rows if row[key] == card_id]
        if not mine:
            return {"card": card_id, "verdict": "never_legal", "best": None, "swaps": 0}
        top = mine[0]  # rows are sorted: standing first, then by change
        return {"card": card_id, "verdict": top["verdict"], "best": top, "swaps": len(mine)}

    baseline_runs, baseline_wins = merged["baseline"]
    return {
        "runs": baseline_runs * (len(swaps) + 1),
        "baseline": {
            "runs": baseline_runs,
            "wins": baseline_wins,
            "win_rate": baseline_wins / baseline_runs if baseline_runs else None,
        },
        "candidates": len(swaps),
        "correction": "holm",
        "refused": merged.get("refused", 0),
        "swaps": rows,
        "bench": [best("in", card_id) for card_id in sorted(set(snapshot["bench"]))],
        "out_cards": [best("out", card_id) for card_id in sorted(set(snapshot["cards"]))],
    }
