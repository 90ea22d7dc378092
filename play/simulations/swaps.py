"""Swap suggestions' arithmetic (issue #29 item 2): candidates, paired chunks, halving, Holm.

A candidate swaps one copy of a card of deck A (out) for one copy of another card (in); only
candidates whose deck stays legal are kept (R-DECK-1..5, R-PK-1, the engine's one legality
check). A chunk plays deck A and every surviving candidate against one opponent on the same
match seeds (common random numbers): each match seed of the chunk is played once by deck A and
once by each candidate, and a candidate keeps only how often it won where A lost (`up`) and lost
where A won (`down`). Its paired difference per match is +1, 0 or -1, so (up - down) / n is the
change in win rate and (up + down) / n its second moment.

Successive halving spends the games: each stage doubles the matches a candidate plays; after a
stage, candidates clearly worse (upper bound below 0) are dropped and, of the rest, the better
half go on, until at most FINAL_KEEP remain; these play one confirmation stage on fresh seeds.
A swap "stands" when its confirmation stage alone (fresh seeds, independent of the selection
that chose it) rejects "no change" after a Holm correction over every candidate tested.
Pure: no Django.
"""

from __future__ import annotations

import math
import random

from play.engine.cards import Card
from play.engine.legality import deck_problems
from play.engine.match import DeckPair
from play.engine.options import Options
from play.engine.runner import play_match
from play.simulations.core import side_deck

Z95 = 1.959963984540054
FINAL_KEEP = 4  # candidates left for the confirmation stage
ALPHA = 0.05


def candidate_swaps(snapshot: dict, in_cards: dict[str, dict]) -> list[list[str]]:
    """Return every legal [out, in] swap of a deck snapshot, in a fixed order.

    `in_cards` maps card ids to CARD dicts (the match log's form) of the cards that may come in.
    Out-cards are the deck's distinct cards; a swap is kept only if the deck it makes is legal
    (R-DECK-1..5, R-PK-1): e.g. an in-card of a new person needs the out-card's person to leave.
    """
    known = {card_id: Card.from_log(data) for card_id, data in snapshot["card_data"].items()}
    for card_id, data in in_cards.items():
        known.setdefault(card_id, Card.from_log(data))
    swaps = []
    for out in sorted(set(snapshot["cards"])):
        for card_in in sorted(in_cards):
            if card_in == out:
                continue
            if not _problems(swapped(snapshot, [out, card_in], in_cards), known):
                swaps.append([out, card_in])
    return swaps


def _problems(snapshot: dict, known: dict[str, Card]) -> list:
    deck = _counted(snapshot["cards"], known)
    bench = _counted(snapshot["bench"], known)
    pk = snapshot.get("pk_goalkeeper")
    return deck_problems(
        deck=deck,
        bench=bench,
        goalkeeper=known.get(snapshot["goalkeeper"]),
        pk_goalkeeper=known.get(pk) if pk else None,
    )


def _counted(ids: list[str], known: dict[str, Card]) -> list[tuple[Card, int]]:
    counts: dict[str, int] = {}
    for card_id in ids:
        counts[card_id] = counts.get(card_id, 0) + 1
    return [(known[card_id], n) for card_id, n in counts.items()]


def swapped(snapshot: dict, swap: list[str], in_cards: dict[str, dict]) -> dict:
    """Return the snapshot with one copy of `swap[0]` replaced by `swap[1]` (at its place)."""
    out, card_in = swap
    cards = list(snapshot["cards"])
    cards[cards.index(out)] = card_in
    card_data = dict(snapshot["card_data"])
    card_data.setdefault(card_in, in_cards.get(card_in) or snapshot["card_data"][card_in])
    if (
        out not in cards
        and out not in snapshot["bench"]
        and out
        not in (
            snapshot["goalkeeper"],
            snapshot.get("pk_goalkeeper"),
        )
    ):
        card_data.pop(out, None)
    return {**snapshot, "cards": cards, "card_data": card_data}


def count_paired(won: list[bool], wins: list[int], up: list[int], down: list[int]) -> None:
    """Add one match seed's outcomes (deck A's first, then each candidate's) to the counts: wins,
    and how often a candidate won where A lost (`up`) or lost where A won (`down`)."""
    for number, result in enumerate(won):
        wins[number] += result
        if number and result != won[0]:
            (up if result else down)[number] += 1


def run_chunk(
    *,
    base: dict,
    opponent: dict,
    swaps: list[list[str]],
    alive: list[int],
    in_cards: dict[str, dict],
    params: dict,
    runs: int,
    seed: int,
) -> dict:
    """Play `runs` match seeds with deck A and with each alive candidate on every seed.

    Returns the baseline's wins and, per candidate number (a string key), [wins, up, down].
    """
    rng = random.Random(seed)
    options = Options(**params.get("options", {}))
    policy_a = params.get("policy_a", "greedy")
    policy_b = params.get("policy_b", "greedy")
    side_b = side_deck(opponent)
    sides = [side_deck(base)] + [side_deck(swapped(base, swaps[i], in_cards)) for i in alive]
    pairs = [DeckPair(side, side_b) for side in sides]
    wins = [0] * len(sides)
    up = [0] * len(sides)
    down = [0] * len(sides)
    for _ in range(runs):
        match_seed = rng.getrandbits(63)
        won = [
            play_match(
                side,
                side_b,
                policy_a=policy_a,
                policy_b=policy_b,
                seed=match_seed,
                options=options,
                decks=pair,
            ).winner
            == "A"
            for side, pair in zip(sides, pairs, strict=True)
        ]
        count_paired(won, wins, up, down)
    return {
        "runs": runs,
        "baseline_wins": wins[0],
        "candidates": {str(i): [wins[n], up[n], down[n]] for n, i in enumerate(alive, start=1)},
    }


def merge(results: list[dict]) -> dict:
    """Return per candidate number [pairs, wins, up, down], and the baseline's [runs, wins]."""
    merged: dict[str, list[int]] = {}
    baseline = [0, 0]
    for result in results:
        if result.get("counts_baseline", True):  # every group of a block plays deck A once
            baseline[0] += result["runs"]
            baseline[1] += result["baseline_wins"]
        for key, (wins, up, down) in result["candidates"].items():
            row = merged.setdefault(key, [0, 0, 0, 0])
            row[0] += result["runs"]
            row[1] += wins
            row[2] += up
            row[3] += down
    return {"baseline": baseline, "candidates": merged}


def paired(n: int, up: int, down: int) -> dict:
    """Return the paired difference's mean, 95% interval and two-sided p-value (normal)."""
    if n == 0:
        return {"pairs": 0, "difference": None, "interval": None, "p_value": None}
    mean = (up - down) / n
    second = (up + down) / n
    var = max(0.0, second - mean * mean) * (n / (n - 1) if n > 1 else 1.0)
    se = math.sqrt(var / n)
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
        return {"pairs": n, "difference": mean, "interval": [mean, mean], "p_value": p}
    z = mean / se
    p = math.erfc(abs(z) / math.sqrt(2))
    return {
        "pairs": n,
        "difference": mean,
        "interval": [mean - Z95 * se, mean + Z95 * se],
        "p_value": p,
    }


def stage_runs(first: int, stage: int) -> int:
    """Matches per opponent a candidate plays in a stage: doubled at every stage."""
    return first * 2**stage


def next_alive(alive: list[int], stats: dict[int, dict]) -> list[int]:
    """Return the candidates that go on after a stage: not clearly worse, the better half."""
    kept = [i for i in alive if stats[i]["interval"] is None or stats[i]["interval"][1] >= 0]
    kept.sort(key=lambda i: (-(stats[i]["difference"] or 0.0), i))
    return sorted(kept[: max(1, min(len(kept), math.ceil(len(alive) / 2)))])


def planned_stages(candidates: int) -> list[int]:
    """Return the most candidates each stage can hold (the last is the confirmation)."""
    sizes = [candidates]
    while sizes[-1] > FINAL_KEEP:
        sizes.append(math.ceil(sizes[-1] / 2))
    return [*sizes, sizes[-1]] if candidates else []


def planned_runs(*, candidates: int, first: int, opponents: int) -> int:
    """Return the most matches a swaps batch can play (halving exactly; drops only save)."""
    return sum(
        (size + 1) * stage_runs(first, stage) * opponents
        for stage, size in enumerate(planned_stages(candidates))
    )


def holm(p_values: dict[int, float], m: int, alpha: float = ALPHA) -> dict[int, bool]:
    """Return Holm's step-down decisions over a family of `m` tests (those not given count as
    tested and not rejected: candidates dropped before the confirmation stage)."""
    decisions = {i: False for i in p_values}
    for rank, (i, p) in enumerate(sorted(p_values.items(), key=lambda kv: (kv[1], kv[0]))):
        if p <= alpha / (m - rank):
            decisions[i] = True
        else:
            break
    return decisions


def summarize(*, swaps: list[list[str]], stages: list[dict], by_stage: dict[int, list]) -> dict:
    """Return the ranked swaps from each stage's chunk results.

    `stages` are the params' stage records ({"alive": [...], "runs": n}); `by_stage` the
    finished chunk results of each stage. Every candidate's difference and interval are over
    all its pairs; those of the confirmation stage decide whether it stands (Holm, m = every
    candidate tested).
    """
    totals: dict[int, list[int]] = {}
    last_stage: dict[int, int] = {}
    baseline = [0, 0]
    merged_by_stage = {}
    for number in range(len(stages)):
        merged = merge(by_stage.get(number, []))
        merged_by_stage[number] = merged
        baseline[0] += merged["baseline"][0]
        baseline[1] += merged["baseline"][1]
        for key, row in merged["candidates"].items():
            total = totals.setdefault(int(key), [0, 0, 0, 0])
            for k in range(4):
                total[k] += row[k]
            last_stage[int(key)] = number
    confirm_number = len(stages) - 1
    confirmation = {}
    done = bool(stages) and stages[-1].get("confirmation")
    if done:
        for key, (n, _wins, up, down) in merged_by_stage[confirm_number]["candidates"].items():
            confirmation[int(key)] = paired(n, up, down)
    p_values = {
        i: stat["p_value"]
        for i, stat in confirmation.items()
        if stat["p_value"] is not None and stat["difference"] > 0
    }
    stands = holm(p_values, m=len(swaps)) if p_values else {}
    rows = []
    for i, (n, wins, up, down) in totals.items():
        stat = paired(n, up, down)
        confirm = confirmation.get(i)
        rows.append(
            {
                "number": i,
                "out": swaps[i][0],
                "in": swaps[i][1],
                "matches": n,
                "wins": wins,
                "up": up,
                "down": down,
                **stat,
                "stages": last_stage[i] + 1,
                "confirmed": confirm,
                "stands": bool(stands.get(i)),
            }
        )
    rows.sort(key=lambda r: (not r["stands"], -(r["difference"] or 0.0), r["number"]))
    return {
        "runs": baseline[0] + sum(row["matches"] for row in rows),
        "baseline": {
            "runs": baseline[0],
            "wins": baseline[1],
            "win_rate": baseline[1] / baseline[0] if baseline[0] else None,
        },
        "candidates": len(swaps),
        "stages": len(stages),
        "complete": bool(done),
        "correction": "holm",
        "swaps": rows,
    }
