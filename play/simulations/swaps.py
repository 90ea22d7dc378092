"""Swap suggestions' arithmetic (issue #29 item 2): candidates, paired chunks, screening, Holm.

A candidate swaps one copy of a card of deck A (out) for one copy of another card (in); only
candidates whose deck stays legal are kept (R-DECK-1..5, R-PK-1, the engine's one legality
check). A chunk plays deck A and a group of candidates (each in-card under a stand-in id,
`stand_in`) against one opponent on the same match
seeds (common random numbers): each match seed of the chunk is played once by deck A and once
by each candidate, and a candidate keeps only how often it won where A lost (`up`) and lost
where A won (`down`). Its paired difference per match is +1, 0 or -1, so (up - down) / n is the
change in win rate and (up + down) / n its second moment.

The promise (the issue's goal): every swap worth at least WORTH (+3 points of win rate) is
found, each with at least 95% probability. Two parts, each allowed to miss 2.5%:

- **Screening** spends the games where the answer is unclear. Stage k plays every undecided
  candidate on `first * 2**k` seeds a field deck; after each stage a candidate is decided by
  one-sided bounds at Z_SCREEN over all its pairs so far: *below* (its upper bound under WORTH:
  it cannot be worth +3, and it plays no more) or *above* (its lower bound over WORTH: it goes
  to the confirmation at once). Candidates still unclear after SCREEN_STAGES go to the
  confirmation too. Each look may drop a +3 swap with at most 0.5% (5 looks: 2.5%).
- **Confirmation** plays every candidate not dropped on fresh seeds, as many as it needs to
  show a gain of WORTH (or of its screening lower bound, when higher) with Z_POWER's power
  (97.5%) after Holm's correction over the candidates confirmed. A swap "stands" when its
  confirmation alone (seeds independent of the screening that chose it) rejects "better by at
  most MARGIN (+1 point)" one-sided at Holm's level: so the family is only the candidates
  confirmed, and a swap that stands is better than the deck by more than a point with 95%
  family-wise confidence (a real gain of half a point is no reason to change a card, and would
  not show again on a few hundred fresh seeds).

A batch may play at most its budget (SIMULATION_MAX_RUNS); the screening may use at most half
of it (the kind refuses more), and a confirmation that would go over what is left is scaled
down, each row saying the power it kept. Pure: no Django.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist

from play.engine.cards import Card
from play.engine.legality import deck_problems
from play.engine.match import DeckPair
from play.engine.options import Options
from play.engine.runner import play_match
from play.simulations.core import side_deck

Z95 = 1.959963984540054
WORTH = 0.03  # the smallest gain every run promises to find: +3 points of win rate
SCREEN_STAGES = 5  # screening stages (seeds double at each), then the confirmation
Z_SCREEN = 2.5758293035489  # one-sided 0.5% a look: 5 looks miss a +3 swap at most 2.5%
Z_POWER = 1.959963984540054  # the confirmation's power: 97.5% at the effect it is sized for
ALPHA = 0.05  # family-wise error of "stands", over the candidates confirmed (Holm)
MARGIN = 0.01  # a swap stands when it is better by more than this: +1 point of win rate


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


def stand_in(snapshot: dict, swap: list[str], in_cards: dict[str, dict]) -> dict:
    """Return the swapped snapshot a chunk plays: the in-card under a stand-in id that sorts
    right after the out-card's (`<out>~`), so it takes the out-card's place in id order.

    The bots break ties between equally good choices by card id; a new id would change those
    arbitrary choices in about one match in ten and hide a swap's effect in that noise.
    Measured on the first prebuilt deck (6 field decks, 900 pairs each): a copy of a card
    under a new id changed 15% of outcomes and none under `<id>~`; eight catalogue swaps
    changed 10% of outcomes on average with their own ids and 4% under stand-ins, with the
    same mean changes within their noise. Legality is checked with the real ids
    (candidate_swaps), and the stand-in keeps every field of the in-card but its id."""
    out, card_in = swap
    proxy = f"{out}~"
    data = {**(in_cards.get(card_in) or snapshot["card_data"][card_in]), "id": proxy}
    return swapped(snapshot, [out, proxy], {proxy: data})


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
    sides = [side_deck(base)] + [side_deck(stand_in(base, swaps[i], in_cards)) for i in alive]
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


def paired(n: int, up: int, down: int, *, margin: float = 0.0) -> dict:
    """Return the paired difference's mean, 95% interval, two-sided p-value of "no change"
    (normal) and the one-sided p-value of "better by at most `margin`" (`p_better`)."""
    if n == 0:
        return {
            "pairs": 0,
            "difference": None,
            "interval": None,
            "p_value": None,
            "p_better": None,
        }
    mean = (up - down) / n
    second = (up + down) / n
    var = max(0.0, second - mean * mean) * (n / (n - 1) if n > 1 else 1.0)
    se = math.sqrt(var / n)
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
        better = 0.0 if mean > margin else 1.0
        return {
            "pairs": n,
            "difference": mean,
            "interval": [mean, mean],
            "p_value": p,
            "p_better": better,
        }
    z = mean / se
    return {
        "pairs": n,
        "difference": mean,
        "interval": [mean - Z95 * se, mean + Z95 * se],
        "p_value": math.erfc(abs(z) / math.sqrt(2)),
        "p_better": 0.5 * math.erfc((mean - margin) / se / math.sqrt(2)),
    }


def variance_bound(n: int, up: int, down: int) -> float:
    """Return an upper bound of a candidate's variance per pair: the Wilson upper bound (at
    Z_SCREEN) of the share of matches whose outcome it changed, which is the pair's second
    moment and so at least its variance. A few pairs with no outcome changed say little: 0 of
    48 bounds the share at 12%, 0 of 5,000 at 0.13%."""
    share = (up + down) / n
    z2 = Z_SCREEN * Z_SCREEN
    centre = share + z2 / (2 * n)
    margin = Z_SCREEN * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    return min(1.0, (centre + margin) / (1 + z2 / n))


def screen_bounds(n: int, up: int, down: int) -> tuple[float, float]:
    """Return a candidate's one-sided screening bounds (mean -/+ Z_SCREEN standard errors, the
    variance bounded from above by `variance_bound`)."""
    mean = (up - down) / n
    half = Z_SCREEN * math.sqrt(variance_bound(n, up, down) / n)
    return mean - half, mean + half


def screen(alive: list[int], totals: dict[int, list[int]]) -> dict[str, list[int]]:
    """Return the screening's decisions after a stage, from each candidate's [pairs, up, down]
    over every stage so far: `below` (cannot be worth WORTH), `above` (clearly worth it) and
    `unclear` (plays the next stage)."""
    decided: dict[str, list[int]] = {"below": [], "above": [], "unclear": []}
    for i in alive:
        n, up, down = totals[i]
        if n == 0:
            decided["unclear"].append(i)
            continue
        low, high = screen_bounds(n, up, down)
        key = "below" if high < WORTH else "above" if low > WORTH else "unclear"
        decided[key].append(i)
    return decided


def stage_runs(first: int, stage: int) -> int:
    """Seeds a field deck each candidate plays in a screening stage: doubled at every stage."""
    return first * 2**stage


def z_holm_first(family: int) -> float:
    """Return the one-sided z a confirmation must reach to stand first under Holm (alpha/m)."""
    return NormalDist().inv_cdf(1 - ALPHA / max(1, family))


def confirmation_pairs(n: int, up: int, down: int, *, family: int) -> tuple[int, float, float]:
    """Return the fresh pairs a candidate's confirmation needs, the variance it assumed and the
    gain it is sized for.

    Sized for a gain of WORTH, or of the screening's lower bound when that is higher (a swap
    clearly worth +10 points needs far fewer games to stand), at Z_POWER's power against Holm's
    strictest level over `family` candidates, with the screening's `variance_bound`."""
    low, _high = screen_bounds(n, up, down)
    effect = max(WORTH, low)
    variance = variance_bound(n, up, down)
    z = z_holm_first(family) + Z_POWER
    return math.ceil(z * z * variance / (effect - MARGIN) ** 2), variance, effect


def power_at(pairs: int, variance: float, family: int, effect: float = WORTH) -> float:
    """Return the probability that a swap worth `effect` stands after `pairs` fresh pairs
    (Holm's strictest level over `family`, normal approximation)."""
    if pairs <= 0:
        return 0.0
    return NormalDist().cdf((effect - MARGIN) / math.sqrt(variance / pairs) - z_holm_first(family))


def holm(p_values: dict[int, float], m: int, alpha: float = ALPHA) -> dict[int, bool]:
    """Return Holm's step-down decisions over a family of `m` tests (those not given count as
    tested and not rejected)."""
    decisions = {i: False for i in p_values}
    for rank, (i, p) in enumerate(sorted(p_values.items(), key=lambda kv: (kv[1], kv[0]))):
        if p <= alpha / (m - rank):
            decisions[i] = True
        else:
            break
    return decisions


def summarize(*, swaps: list[list[str]], stages: list[dict], by_stage: dict[int, list]) -> dict:
    """Return the ranked swaps from each stage's chunk results.

    `stages` are the params' stage records ({"alive": [...], "runs": n, "confirmation": bool,
    and once decided, "below"/"above" lists; a confirmation's "power" by candidate, at the
    gain it was "sized_for"});
    `by_stage` the finished chunk results of each stage. A row's difference and interval are
    over all its pairs; its confirmation (fresh seeds) decides whether it stands: one-sided,
    Holm over the candidates confirmed.
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
    below = {i: number for number, stage in enumerate(stages) for i in stage.get("below", ())}
    done = bool(stages) and stages[-1].get("confirmation")
    confirmation = {}
    family = 0
    power = sized_for = {}
    if done:
        family = len(stages[-1]["alive"])
        power = {int(k): v for k, v in stages[-1].get("power", {}).items()}
        sized_for = {int(k): v for k, v in stages[-1].get("sized_for", {}).items()}
        for key, (n, _wins, up, down) in merged_by_stage[len(stages) - 1]["candidates"].items():
            confirmation[int(key)] = paired(n, up, down, margin=MARGIN)
    p_values = {
        i: stat["p_better"] for i, stat in confirmation.items() if stat["p_better"] is not None
    }
    stands = holm(p_values, m=family) if p_values else {}
    rows = []
    for i, (n, wins, up, down) in totals.items():
        stat = paired(n, up, down)
        confirm = confirmation.get(i)
        if confirm is not None:
            confirm = {**confirm, "power": power.get(i), "sized_for": sized_for.get(i)}
        if stands.get(i):
            decision = "stands"
        elif confirm is not None:
            decision = "not_shown"
        elif i in below:
            decision = "below"
        else:
            decision = "unfinished"
        high = screen_bounds(n, up, down)[1] if n else None
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
                "screen_high": high if decision == "below" else None,
                "confirmed": confirm,
                "stands": decision == "stands",
                "decision": decision,
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
        "worth": WORTH,
        "margin": MARGIN,
        "confirmed": family,
        "swaps": rows,
    }
