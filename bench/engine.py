"""Benchmarks and the policy ladder for the Eleven Stars engine (one core, no Django).

    .venv/bin/python bench/engine.py                 # speed figures
    .venv/bin/python bench/engine.py ladder -n 200   # the Elo ladder of the bots
    .venv/bin/python bench/engine.py ladder --prebuilt  # the same on the prebuilt decks
    .venv/bin/python bench/engine.py ladder -n 100 --search-deals 30  # fewer for search rungs
    .venv/bin/python bench/engine.py profile -n 300  # cProfile's top functions, greedy vs greedy
    .venv/bin/python bench/engine.py profile --goldfish  # the same for greedy vs passive

The figures are for whichever engine path runs (play/engine/compiled.py): the compiled one when
it is built and current, plain Python with ENGINE_PLAIN=1. The first line printed says which.

Speed is measured here, never asserted in tests (see STYLE.md).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from play.collector import tune_collector_for_matches  # noqa: E402
from play.engine import pk  # noqa: E402
from play.engine.chance import InIdOrder  # noqa: E402
from play.engine.ladder import Pairing, pairing, ratings  # noqa: E402
from play.engine.match import DeckPair  # noqa: E402
from play.engine.policies import LADDER, SEARCH_BUDGETS  # noqa: E402
from play.engine.runner import play_match  # noqa: E402
from play.engine.testing import sample_side_deck  # noqa: E402

DECKS = 40
clock = time.perf_counter  # --cpu: time.process_time (this process's CPU time, for a busy machine)


class Pool:
    """The benchmark's decks, and the DeckPair of every pairing `deal` makes (as a batch chunk
    builds its pair once): the pairing repeats every DECKS seeds."""

    def __init__(self) -> None:
        self.decks = [sample_side_deck(seed) for seed in range(DECKS)]
        self.pairs = [DeckPair(*deal(self, seed)) for seed in range(DECKS)]


def decks() -> Pool:
    return Pool()


def deal(pool: Pool, seed: int) -> tuple:
    """Return the two decks of match `seed`: a fixed pairing that varies the opponents."""
    return pool.decks[seed % DECKS], pool.decks[(seed * 7 + 3) % DECKS]


def matches_per_second(
    pool: Pool, count: int, *, log: bool, policy_b: str = "greedy", policy_a: str = "greedy"
) -> tuple[float, float]:
    """Return (matches per second, turns per match) for `policy_a` against `policy_b`."""
    turns = 0
    start = clock()
    for seed in range(count):
        outcome = play_match(
            *deal(pool, seed),
            policy_a=policy_a,
            policy_b=policy_b,
            seed=seed,
            log=log,
            decks=pool.pairs[seed % DECKS],
        )
        turns += sum(outcome.turns_by_half)
    return count / (clock() - start), turns / count


def log_cost(pool: Pool, count: int, rounds: int) -> tuple[float, float, float, float]:
    """Return (no-log matches/s, logged matches/s, the log's cost, turns a match), interleaved.

    On a shared machine one pass of each mode drifts with the neighbours' load (single passes
    of the same code gave 1.46x to 2.30x), so the two modes alternate in `rounds` rounds over
    the same seeds, in ABBA order; the rates are each mode's best round and the cost is the
    median of the rounds' own ratios.
    """
    fast = logged = 0.0
    ratios = []
    turns = 0.0
    for number in range(rounds):
        order = (False, True) if number % 2 == 0 else (True, False)
        rate = {}
        for log in order:
            rate[log], turns = matches_per_second(pool, count, log=log)
        fast, logged = max(fast, rate[False]), max(logged, rate[True])
        ratios.append(rate[False] / rate[True])
    return fast, logged, statistics.median(ratios), turns


def log_floor(pool: Pool, count: int) -> tuple[float, float, int] | None:
    """Return (µs to clone a match's log events, µs of the unlogged match, containers a log
    holds) over the first `count` seeds of `matches_per_second`; None without a compiler.

    A floor under any writer of this log format (bench/log_floor.pyx): cloning the finished
    events is the cheapest way CPython makes their dicts and lists, with no state to read and
    no value to set, and no collection: the collector is off while they are cloned. Each is
    freed before the next. Each figure is the best of three interleaved passes.
    """
    try:
        import pyximport

        build_dir = Path(__file__).resolve().parents[1] / "var" / "bench-build"
        pyximport.install(build_dir=str(build_dir), language_level=3)
        from bench.log_floor import clone
    except Exception as error:  # no compiler, or no Cython: say so and go on
        print(f"  (its floor not measured: bench/log_floor.pyx did not build: {error})")
        return None
    logs = [
        play_match(
            *deal(pool, seed),
            policy_a="greedy",
            policy_b="greedy",
            seed=seed,
        ).log["events"]
        for seed in range(count)
    ]
    assert clone(logs[0]) == logs[0]
    containers = sum(_containers(events) for events in logs) // count
    best_build = best_match = float("inf")
    for _ in range(3):
        gc.disable()
        start = clock()
        for events in logs:
            clone(events)
        best_build = min(best_build, clock() - start)
        gc.enable()
        best_match = min(best_match, count / matches_per_second(pool, count, log=False)[0])
    return best_build / count * 1e6, best_match / count * 1e6, containers


def _containers(value) -> int:
    if isinstance(value, dict):
        return 1 + sum(_containers(item) for item in value.values())
    if isinstance(value, list):
        return 1 + sum(_containers(item) for item in value)
    return 0


def pk_figures(pool: Pool) -> dict[str, float]:
    a, b = pool.decks[0], pool.decks[1]
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
    deck_a, deck_b = InIdOrder(a.cards), InIdOrder(b.cards)  # once, as a PK batch chunk does
    start = time.perf_counter()
    for _ in range(count):
        pk.pk_shootout(deck_a, a.goalkeeper, deck_b, b.goalkeeper, rng)
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


def search_ms_per_decision(pool: Pool, matches: int, name: str = "search") -> float:
    """Return the search bot's mean milliseconds per decision (against greedy)."""
    from play.engine.policies import get_policy

    search = get_policy(name)
    spent = 0.0
    decisions = 0

    class Timed:
        def __init__(self) -> None:
            self.name = search.name

        def choose(self, state, rng):
            nonlocal spent, decisions
            start = clock()
            action = search.choose(state, rng)
            spent += clock() - start
            decisions += 1
            return action

    for seed in range(matches):
        play_match(
            *deal(pool, seed),
            policy_a=Timed(),
            policy_b="greedy",
            seed=seed,
            log=False,
        )
    return 1000 * spent / decisions


def engine_path() -> str:
    import play.engine

    return "compiled (Cython)" if getattr(play.engine, "COMPILED", False) else "plain Python"


def profile(args: argparse.Namespace) -> None:
    """Print cProfile's top functions by own time for greedy against greedy (or passive)."""
    import cProfile
    import pstats

    pool = decks()
    policy_b = "passive" if args.goldfish else "greedy"
    profiler = cProfile.Profile()
    profiler.enable()
    matches_per_second(pool, args.matches, log=args.log, policy_b=policy_b)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(args.top)


def speed(args: argparse.Namespace) -> None:
    print(f"engine path: {engine_path()}; {'CPU' if clock is time.process_time else 'wall'} time")
    pool = decks()
    matches_per_second(pool, 20, log=False)  # warm caches
    rounds = args.rounds
    fast, logged, cost, turns = log_cost(pool, max(1, args.matches // rounds), rounds)
    goldfish, goldfish_turns = matches_per_second(pool, args.matches, log=False, policy_b="passive")
    print(f"greedy vs greedy, no log:   {fast:8.1f} matches/s  ({turns:.0f} turns a match)")
    print(
        f"greedy vs greedy, full log: {logged:8.1f} matches/s  (log costs {cost:.2f}x, median "
        f"of {rounds} interleaved rounds)"
    )
    floor = log_floor(pool, 30)
    if floor is not None:
        floor_us, match_us, containers = floor
        print(
            f"  a floor: cloning a finished log's {containers} dicts and lists costs "
            f"{floor_us:.0f} us, {floor_us / match_us:.2f}x an unlogged match ({match_us:.0f} "
            f"us): a writer as cheap as that would log at {1 + floor_us / match_us:.2f}x"
        )
    print(
        f"goldfish (greedy vs passive), no log: {goldfish:8.1f} matches/s  "
        f"({goldfish_turns:.0f} turns a match)"
    )
    rate, random_turns = matches_per_second(
        pool, max(1, args.matches // 2), log=False, policy_a="random", policy_b="random"
    )
    print(
        f"random vs random, no log:   {rate:8.1f} matches/s  ({random_turns:.0f} turns a match, "
        f"{rate * random_turns:,.0f} turns/s)"
    )
    figures = pk_figures(pool)
    print(
        f"exact PK probability:       {figures['cold_ms']:8.3f} ms cold, "
        f"{figures['warm_ms'] * 1000:.1f} us cached  (P = {figures['probability']:.6f})"
    )
    print(f"simulated shootouts (cards):  {figures['full_per_s']:8.0f} /s")
    print(f"simulated shootouts (counts): {figures['counts_per_s']:8.0f} /s")
    if args.search:
        ms = search_ms_per_decision(pool, args.search)
        print(
            f"search bot ({SEARCH_BUDGETS['search']} rollouts), vs greedy: {ms:8.2f} ms a decision"
        )


PAIRS = [  # head-to-head figures beside the ladder
    ("greedy", "random"),
    ("greedy", "passive"),
    ("random", "passive"),
    ("passive", "passive"),
]


def random_legal_deals(count: int, offset: int = 0) -> list:
    """Return `count` deals of random legal sample decks (deck A, deck B, seed)."""
    return [
        (sample_side_deck(offset + seed), sample_side_deck(offset + 10_000 + seed), seed)
        for seed in range(count)
    ]


def prebuilt_sides() -> list:
    """Return the catalog's prebuilt decks as engine sides, from the sample pool itself.

    `catalog.sample.generate()` is the pure function the catalog loads its sample cards and
    prebuilt decks from (no database needed); each card becomes the engine card the app plays.
    """
    from catalog.sample import generate
    from play.engine.cards import Card
    from play.engine.match import SideDeck

    pool = generate()
    cards = {
        c.id: Card(
            id=c.id,
            kind=c.kind,
            person=c.person or None,
            shoot=c.shoot,
            keep=c.keep,
            defense=c.defense,
            effect=c.effect or None,
        )
        for c in pool.cards
    }
    sides = []
    for deck in pool.decks:
        side = SideDeck(
            name=deck.name,
            cards=tuple(cards[i] for i, n in sorted(deck.deck) for _ in range(n)),
            goalkeeper=cards[deck.goalkeeper],
            pk_goalkeeper=cards[deck.pk_goalkeeper] if deck.pk_goalkeeper else None,
            bench=tuple(cards[i] for i, n in sorted(deck.bench) for _ in range(n)),
        )
        if not side.problems():
            sides.append(side)
    return sides


def prebuilt_deals(count: int) -> list:
    """Return `count` deals between different prebuilt decks, every ordered pair in turn."""
    sides = prebuilt_sides()
    pairs = [(a, b) for a in sides for b in sides if a is not b]
    return [(*pairs[seed % len(pairs)], seed) for seed in range(count)]


def play_rung(upper: str, lower: str, deals: list, progress: bool) -> Pairing:
    """Return the rung's pairing; with `progress`, print each deal's two results as they come."""
    if not progress:
        return pairing(upper, lower, deals)
    wins = 0
    for number, deal in enumerate(deals):
        won = pairing(upper, lower, [deal]).wins
        wins += won
        print(f"  deal {number}: {upper} won {won} of 2 ({wins} of {2 * number + 2})", flush=True)
    return Pairing(upper, lower, 2 * len(deals), wins)


def ladder(args: argparse.Namespace) -> None:
    deal = prebuilt_deals if args.prebuilt else random_legal_deals
    deals = deal(args.matches)
    search_deals = deal(args.search_deals) if args.search_deals else deals
    kind = "prebuilt decks" if args.prebuilt else "random legal sample decks"
    rungs = args.rungs.split(",") if args.rungs else list(LADDER)
    print(
        f"{len(deals)} deals x 2 seats a rung ({len(search_deals)} for search rungs), {kind}; "
        "95% Wilson intervals",
        flush=True,
    )
    chain = []
    for lower, upper in zip(rungs, rungs[1:], strict=False):
        start = time.perf_counter()
        searching = upper.startswith("search") or lower.startswith("search")
        result = play_rung(upper, lower, search_deals if searching else deals, args.progress)
        chain.append(result)
        low, high = result.interval
        print(
            f"{upper:>13} over {lower:<13} {result.rate:6.1%}  [{low:6.1%}, {high:6.1%}]  "
            f"Elo {result.elo:+6.0f}  {'clear' if result.clear else 'NOT clear'}  "
            f"{result.wins}/{result.matches}  [{time.perf_counter() - start:.0f} s]",
            flush=True,
        )
    for name, rating in ratings(chain).items():
        print(f"  Elo {name:<13} {rating:+7.0f}")
    if args.pairs:
        for upper, lower in PAIRS:
            result = pairing(upper, lower, deals)
            print(f"{upper:>13} vs {lower:<13} {result.rate:6.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", default="speed", choices=("speed", "ladder", "profile"))
    parser.add_argument("-n", "--matches", type=int, default=None)
    parser.add_argument("--rungs", help="comma-separated rungs, weakest first (default: LADDER)")
    parser.add_argument("--prebuilt", action="store_true", help="the catalog's prebuilt decks")
    parser.add_argument("--pairs", action="store_true", help="also head-to-head figures")
    parser.add_argument(
        "--search-deals", type=int, default=0, help="ladder: fewer deals for the search rungs"
    )
    parser.add_argument("--progress", action="store_true", help="ladder: print every deal")
    parser.add_argument("--search", type=int, default=0, help="speed: time N search matches")
    parser.add_argument("--cpu", action="store_true", help="speed: CPU time, not wall time")
    parser.add_argument(
        "--rounds", type=int, default=5, help="speed: interleaved no-log/log rounds (of -n)"
    )
    parser.add_argument("--goldfish", action="store_true", help="profile: greedy vs passive")
    parser.add_argument("--log", action="store_true", help="profile: with full logs")
    parser.add_argument("--top", type=int, default=15, help="profile: how many functions")
    args = parser.parse_args()
    tune_collector_for_matches()  # as a worker's pool child does (cardsite/celery.py)
    if args.cpu:
        global clock
        clock = time.process_time
    if args.what == "profile":
        args.matches = args.matches or 300
        profile(args)
    elif args.what == "speed":
        args.matches = args.matches or 500
        speed(args)
    else:
        args.matches = args.matches or 200
        ladder(args)


if __name__ == "__main__":
    main()
