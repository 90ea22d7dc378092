"""Batch simulations as pure functions: chunk plans, chunk seeds, running and merging chunks.

No Django here: a chunk is a pure function of (kind, sides snapshot, params, chunk seed), so
the same batch gives the same results whatever the number of workers, their order, or how
often a chunk was redelivered. Merging is a sum over chunk results in index order.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from play.engine.cards import Card
from play.engine.match import DeckPair, SideDeck
from play.engine.options import Options
from play.engine.pk import pk_win_probability
from play.engine.policies import LADDER
from play.engine.runner import play_match
from play.stats import mean_of, wilson_interval

# The engine's bots, strongest first (the engine's one registry orders them by strength).
POLICIES = tuple(reversed(LADDER))
SAMPLE_LOGS_PER_OPPONENT = 3


@dataclass(frozen=True)
class ChunkSpec:
    index: int
    opponent: int  # index into the sides snapshot (0 is deck A)
    runs: int


def plan_chunks(*, indexes, runs: int, chunk_size: int) -> list[ChunkSpec]:
    """Return the batch's chunks: `runs` per side index, split into chunks of `chunk_size`.

    `indexes` are the sides the chunks play (a kind says which: opponents 1.. for decks,
    every rule variant from 0 for the Touchdown Heroes lab).
    """
    specs = []
    for opponent in indexes:
        for start in range(0, runs, chunk_size):
            specs.append(ChunkSpec(len(specs), opponent, min(chunk_size, runs - start)))
    return specs


def side_deck(snapshot: dict) -> SideDeck:
    """Return the engine's SideDeck for a snapshot."""
    cards = {card_id: Card.from_log(data) for card_id, data in snapshot["card_data"].items()}
    return SideDeck(
        name=snapshot["name"],
        cards=tuple(cards[i] for i in snapshot["cards"]),
        goalkeeper=cards[snapshot["goalkeeper"]],
        pk_goalkeeper=cards[snapshot["pk_goalkeeper"]] if snapshot["pk_goalkeeper"] else None,
        bench=tuple(cards[i] for i in snapshot["bench"]),
    )


def exact_pk_probability(side_a: SideDeck, side_b: SideDeck) -> float:
    """Return the engine's exact probability that A wins a shootout (R-PK-1..6)."""
    return float(
        pk_win_probability(
            side_a.cards, side_a.shootout_goalkeeper, side_b.cards, side_b.shootout_goalkeeper
        )
    )


def counter(values) -> dict[str, int]:
    """Return a {value: count} histogram with string keys, in value order."""
    return {str(k): v for k, v in sorted(Counter(values).items())}


def play_matches(
    *, side_a: SideDeck, side_b: SideDeck, params: dict, runs: int, seed: int, log=lambda n: False
):
    """Yield the outcomes of `runs` matches of a chunk, each from the chunk seed's next draw,
    with the log on where `log(number)` says so. Every kind that plays a chunk's matches plays
    these, so two kinds given one seed play the same matches (the card report relies on it)."""
    rng = random.Random(seed)
    options = Options(**params.get("options", {}))
    decks = DeckPair(side_a, side_b)  # checked and laid out once for the chunk
    for number in range(runs):
        yield play_match(
            side_a,
            side_b,
            policy_a=params.get("policy_a", "greedy"),
            policy_b=params.get("policy_b", "greedy"),
            seed=rng.getrandbits(63),
            options=options,
            log=log(number),
            decks=decks,
        )


def run_matches(
    *, side_a: SideDeck, side_b: SideDeck, params: dict, runs: int, seed: int, keep_logs: int = 0
) -> tuple[dict, list[dict]]:
    """Play `runs` matches; return (their aggregated result, up to `keep_logs` match logs)."""
    agg = _MatchAggregate()
    logs = []
    for outcome in play_matches(
        side_a=side_a,
        side_b=side_b,
        params=params,
        runs=runs,
        seed=seed,
        log=lambda number: number < keep_logs,
    ):
        if outcome.log is not None:
            logs.append(outcome.log)
        agg.add(outcome)
    return agg.to_dict(runs), logs


class _MatchAggregate:
    def __init__(self):
        self.wins = Counter()
        self.decided_by = Counter()
        self.level = 0
        self.pk_wins = Counter()
        self.goals = {"A": Counter(), "B": Counter()}
        self.goals_half = {"A": [Counter(), Counter()], "B": [Counter(), Counter()]}
        self.scorelines = Counter()
        self.shots = Counter()
        self.corners = Counter()
        self.turns = [Counter(), Counter()]
        self.deck_out = [Counter(), Counter()]

    def add(self, o) -> None:
        self.wins[o.winner] += 1
        self.decided_by[o.decided_by] += 1
        if o.pk:
            self.level += 1
            self.pk_wins[o.winner] += 1
        for side in "AB":
            self.goals[side][o.goals[side]] += 1
            for half in (0, 1):
                self.goals_half[side][half][o.goals_by_half[side][half]] += 1
            self.shots[side] += o.shots[side]
            self.corners[side] += o.corner_kicks[side]
        self.scorelines[f"{o.goals['A']}-{o.goals['B']}"] += 1
        for half in (0, 1):
            self.turns[half][o.turns_by_half[half]] += 1
            self.deck_out[half][o.deck_out_by_half[half]] += 1

    def to_dict(self, runs: int) -> dict:
        def c(counter):
            return {str(k): v for k, v in sorted(counter.items())}

        return {
            "runs": runs,
            "wins": c(self.wins),
            "decided_by": c(self.decided_by),
            "level_after_90": self.level,
            "pk_wins": c(self.pk_wins),
            "goals": {s: c(self.goals[s]) for s in "AB"},
            "goals_by_half": {s: [c(h) for h in self.goals_half[s]] for s in "AB"},
            "scorelines": c(self.scorelines),
            "shots": c(self.shots),
            "corner_kicks": c(self.corners),
            "turns_by_half": [c(t) for t in self.turns],
            "deck_out_by_half": [c(d) for d in self.deck_out],
        }


def _merge(a, b):
    """Add two results: numbers add, dicts merge key by key, lists element by element."""
    if isinstance(a, dict):
        keys = list(dict.fromkeys([*a, *b]))
        return {k: _merge(a[k], b[k]) if k in a and k in b else a.get(k, b.get(k)) for k in keys}
    if isinstance(a, list):
        return [_merge(x, y) for x, y in zip(a, b, strict=True)]
    return a + b


def merge_results(results: list[dict]) -> dict:
    """Return the sum of chunk results (order-independent)."""
    total: dict = {}
    for result in results:
        total = _merge(total, result) if total else result
    return _sort_keys(total)


def _sort_keys(value):
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (not k.lstrip("-").isdigit(), _num(k), k))
        return {k: _sort_keys(value[k]) for k in keys}
    if isinstance(value, list):
        return [_sort_keys(v) for v in value]
    return value


def _num(key: str) -> float:
    try:
        return float(key)
    except ValueError:
        return 0.0


def summarize_matches(merged: dict) -> dict:
    """Return the figures a results page shows for matches, from merged chunk results."""
    runs = merged.get("runs", 0)
    wins_a = merged["wins"].get("A", 0)
    low, high = wilson_interval(wins_a, runs)
    goals_a = merged["goals"]["A"]
    total_goals_a = sum(float(k) * v for k, v in goals_a.items())
    return {
        "runs": runs,
        "win_rate": wins_a / runs if runs else 0.0,
        "interval": [low, high],
        "losses": merged["wins"].get("B", 0),
        "level_after_90": merged["level_after_90"],
        "pk_wins": merged["pk_wins"],
        "decided_by": merged["decided_by"],
        "goals_mean": {s: mean_of(merged["goals"][s]) for s in "AB"},
        "goals_half_mean": {s: [mean_of(h) for h in merged["goals_by_half"][s]] for s in "AB"},
        "shots_per_match": {s: merged["shots"].get(s, 0) / runs for s in "AB"} if runs else {},
        "conversion": total_goals_a / merged["shots"]["A"] if merged["shots"].get("A") else 0.0,
        "corners_per_match": {s: merged["corner_kicks"].get(s, 0) / runs for s in "AB"},
        "turns_half_mean": [mean_of(t) for t in merged["turns_by_half"]],
        "deck_out_by_half": merged["deck_out_by_half"],
        "goals": merged["goals"],
        "goals_by_half": merged["goals_by_half"],
        "scorelines": merged["scorelines"],
    }
