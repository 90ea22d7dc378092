"""The Touchdown Heroes search bot: decision time and a ladder against the other bots.

    .venv/bin/python bench/touchdown_search.py time -n 20            # median and p95 ms
    .venv/bin/python bench/touchdown_search.py ladder -n 600 -j 2    # search vs greedy, random
    .venv/bin/python bench/touchdown_search.py ladder -n 600 --upper greedy --against random

`time` plays `n` seeds (search as the Eagles against greedy) and times every decision the
search bot takes, on one core. `ladder` plays seeds 0..n-1 twice each, the search bot once on
each team (play/touchdown/ladder.py), and prints its score rate with the 95% Wilson interval.
Speed is measured here, never asserted in tests (STYLE.md).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from play.touchdown import DEFAULT_OPTIONS, get_policy  # noqa: E402
from play.touchdown.ladder import Pairing, pairing  # noqa: E402
from play.touchdown.outcome import play_out  # noqa: E402
from play.touchdown.search import SearchPolicy  # noqa: E402


def decision_times(games: int) -> tuple[list[float], list[float]]:
    """Return the search bot's decision times in ms over `games` seeded games: wall-clock
    and CPU time of this process (the same on an idle core; on a busy machine the CPU time is
    what the decision itself costs)."""
    search = SearchPolicy()
    greedy = get_policy("greedy")
    times: list[float] = []
    cpu: list[float] = []

    class Timed:
        name = search.name

        def choose(self, game, rng):
            start, start_cpu = time.perf_counter(), time.process_time()
            action = search.choose(game, rng)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            return action

    timed = Timed()
    for seed in range(games):
        play_out(DEFAULT_OPTIONS, [timed, greedy, timed, greedy], seed, False)
    return times, cpu


def timing(args: argparse.Namespace) -> None:
    wall, cpu = decision_times(args.games)
    bot = SearchPolicy()
    print(
        f"search bot ({bot.rollouts} rollouts, horizon {bot.horizon}): {len(wall)} decisions "
        f"over {args.games} games [load average {os.getloadavg()[0]:.1f}]"
    )
    for name, times in (("wall-clock", wall), ("CPU", cpu)):
        times = sorted(times)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"  {name:>10}: median {statistics.median(times):.2f} ms, p95 {p95:.2f} ms, "
            f"max {times[-1]:.2f} ms"
        )


def _chunk(job: tuple[str, str, int, int]) -> Pairing:
    upper, lower, start, stop = job
    return pairing(upper, lower, range(start, stop))


def ladder(args: argparse.Namespace) -> None:
    size = max(1, args.games // (4 * args.jobs))
    for lower in args.against:
        jobs = [
            (args.upper, lower, start, min(start + size, args.games))
            for start in range(0, args.games, size)
        ]
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(_chunk, jobs))
        total = parts[0]
        for part in parts[1:]:
            total = total + part
        low, high = total.interval
        print(
            f"{args.upper} vs {lower}: {total.games} games "
            f"(seeds 0..{args.games - 1}, seats swapped), "
            f"{total.wins} won, {total.draws} drawn, {total.losses} lost; score "
            f"{total.rate:.1%}, 95% interval {low:.1%}..{high:.1%}"
            f"{' (clear of 50%)' if total.clear else ' (NOT clear of 50%)'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    timed = sub.add_parser("time", help="decision time")
    timed.add_argument("-n", "--games", type=int, default=20)
    timed.set_defaults(run=timing)
    lad = sub.add_parser("ladder", help="search against the other bots")
    lad.add_argument("-n", "--games", type=int, default=500, help="seeds (each played twice)")
    lad.add_argument("-j", "--jobs", type=int, default=1)
    lad.add_argument("--against", nargs="+", default=["greedy", "random"])
    lad.add_argument("--upper", default="search", help="the bot measured (default: search)")
    lad.set_defaults(run=ladder)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
