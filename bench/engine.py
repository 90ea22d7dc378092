"""Benchmarks and the policy ladder for the Eleven Stars engine (one core, no Django).

    .venv/bin/python bench/engine.py                 # speed figures
    .venv/bin/python bench/engine.py ladder -n 10000 # win rates between the bot policies

Speed is measured here, never asserted in tests (see STYLE.md).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from play.engine import pk  # noqa: E402
from play.engine.runner import play_match  # noqa: E402
from play.engine.testing import sample_side_deck  # noqa: E402

DECKS = 40


def decks() -> list:
    return [sample_side_deck(seed) for seed in range(DECKS)]


def matches_per_second(
    pool: list, count: int, *, log: bool, policy_b: str = "greedy"
) -> tuple[float, float]:
    """Return (matches per second, turns per match) for greedy against `policy_b`."""
    turns = 0
    start = time.perf_counter()
    for seed in range(count):
        outcome = play_match(
            pool[seed % DECKS],
            pool[(seed * 7 + 3) % DECKS],
            policy_a="greedy",
            policy_b=policy_b,
            seed=seed,
            log=log,
        )
        turns += sum(outcome.turns_by_half)
    return count / (time.perf_counter() - start), turns / count


def pk_figures(pool: list) -> dict[str, float]:
    a, b = pool[0], pool[1]
    pk._sudden_death.cache_clear()
    pk._first_kicks.cache_clear()
    pk.pk_win_probability_counts.cache_clear()
    start = time.perf_counter()
    probability = pk.pk_win_probability(a.cards, a.goalkeeper, b.cards, b.goalkeeper)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(1000):
        pk.pk_win_probability(a.cards, a.goalkeeper, b.cards, b.goalkeeper)
    warm = (time.perf_counter() - start) / 1000
    rng = random.Random(1)
    count = 20_000
    start = time.perf_counter()
    for _ in range(count):
        pk.pk_shootout(a.cards, a.goalkeeper, b.cards, b.goalkeeper, rng)
    full = count / (time.perf_counter() - start)
    scoring_a = sum(pk.pk_scores(card, b.goalkeeper) for card in a.cards)
    scoring_b = sum(pk.pk_scores(card, a.goalkeeper) for card in b.cards)
    count = 200_000
    start = time.perf_counter()
    for _ in range(count):
        pk.pk_simulate_counts(60, scoring_a, scoring_b, rng)
    counts = count / (time.perf_counter() - start)
    return {
        "probability": probability,
        "cold_ms": cold * 1000,
        "warm_ms": warm * 1000,
        "full_per_s": full,
        "counts_per_s": counts,
    }


def speed(args: argparse.Namespace) -> None:
    pool = decks()
    matches_per_second(pool, 20, log=False)  # warm caches
    fast, turns = matches_per_second(pool, args.matches, log=False)
    logged, _ = matches_per_second(pool, args.matches, log=True)
    goldfish, goldfish_turns = matches_per_second(pool, args.matches, log=False, policy_b="passive")
    print(f"greedy vs greedy, no log:   {fast:8.1f} matches/s  ({turns:.0f} turns a match)")
    print(f"greedy vs greedy, full log: {logged:8.1f} matches/s  (log costs {fast / logged:.2f}x)")
    print(
        f"goldfish (greedy vs passive), no log: {goldfish:8.1f} matches/s  "
        f"({goldfish_turns:.0f} turns a match)"
    )
    figures = pk_figures(pool)
    print(
        f"exact PK probability:       {figures['cold_ms']:8.3f} ms cold, "
        f"{figures['warm_ms'] * 1000:.1f} us cached  (P = {figures['probability']:.6f})"
    )
    print(f"simulated shootouts (cards):  {figures['full_per_s']:8.0f} /s")
    print(f"simulated shootouts (counts): {figures['counts_per_s']:8.0f} /s")


LADDER = [
    ("greedy", "random"),
    ("random", "greedy"),
    ("random", "random"),
    ("greedy", "greedy"),
    ("greedy", "passive"),
    ("random", "passive"),
    ("passive", "passive"),
]


def ladder(args: argparse.Namespace) -> None:
    pairs = LADDER if not args.pair else [tuple(args.pair.split(":"))]
    print(f"{args.matches} matches a pair, sample decks, seeds 0..{args.matches - 1}")
    for policy_a, policy_b in pairs:
        wins = goals_a = goals_b = shootouts = 0
        start = time.perf_counter()
        for seed in range(args.matches):
            outcome = play_match(
                sample_side_deck(seed % 1000),
                sample_side_deck(1000 + (seed * 7) % 1000),
                policy_a=policy_a,
                policy_b=policy_b,
                seed=seed,
                log=False,
            )
            wins += outcome.winner == "A"
            goals_a += outcome.goals["A"]
            goals_b += outcome.goals["B"]
            shootouts += outcome.pk
        n = args.matches
        print(
            f"{policy_a:>7} (A) vs {policy_b:<7} (B): A wins {wins / n:6.1%}  "
            f"goals {goals_a / n:5.2f} : {goals_b / n:5.2f}  shootouts {shootouts / n:5.1%}  "
            f"[{time.perf_counter() - start:.0f} s]"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", default="speed", choices=("speed", "ladder"))
    parser.add_argument("-n", "--matches", type=int, default=None)
    parser.add_argument("--pair", help="one pair for the ladder, e.g. greedy:random")
    args = parser.parse_args()
    if args.what == "speed":
        args.matches = args.matches or 500
        speed(args)
    else:
        args.matches = args.matches or 2000
        ladder(args)


if __name__ == "__main__":
    main()
