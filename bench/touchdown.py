"""Benchmarks and balance figures for the Touchdown Heroes engine (one core, no Django).

    .venv/bin/python bench/touchdown.py                     # speed figures
    .venv/bin/python bench/touchdown.py balance -n 20000    # onside figures, greedy x4
    .venv/bin/python bench/touchdown.py drives -n 6000      # the greedy DRIVE_POINTS table

Speed is measured here, never asserted in tests (see STYLE.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from play.touchdown import Options, play_game  # noqa: E402


def games_per_second(options: Options, policy: str, count: int, *, log: bool) -> float:
    """Return games per second of CPU time (one core) for `count` seeded games."""
    start = time.process_time()
    for seed in range(count):
        play_game(options, policy, seed, log=log)
    return count / (time.process_time() - start)


def speed(args: argparse.Namespace) -> None:
    print(f"{args.games} games each, seeds 0..{args.games - 1}, CPU time of one process")
    for effects in ("none", "example"):
        options = Options(effects=effects)
        games_per_second(options, "greedy", 50, log=False)  # warm caches
        for policy in ("greedy", "random"):
            fast = games_per_second(options, policy, args.games, log=False)
            logged = games_per_second(options, policy, args.games, log=True)
            print(
                f"{effects:>7} effects, {policy:>6} x4: {fast:7.0f} games/s without a log, "
                f"{logged:6.0f} with the full log"
            )


VARIANTS = {
    "draft (onside on 1)": Options(),
    "onside on 1-2": Options(onside_rolls=2),
    "minimum kick on (7)": Options(minimum_kick=True),
    "normal kick-offs only": Options(kickoffs="normal_only"),
}


def balance(args: argparse.Namespace) -> None:
    print(f"{args.games} games per variant, greedy at every seat, '{args.effects}' effects")
    for name, variant in VARIANTS.items():
        options = Options(
            onside_rolls=variant.onside_rolls,
            minimum_kick=variant.minimum_kick,
            kickoffs=variant.kickoffs,
            effects=args.effects,
        )
        start = time.perf_counter()
        choices = Counter()
        onside = {True: Counter(), False: Counter()}  # onside? -> kicking team won/lost/drew
        normal = Counter()  # after a normal kick-off: kicking team won/lost/drew
        drives = points = touchdowns = long_touchdowns = kick_points = draws = 0
        tricks = 0
        for seed in range(args.games):
            outcome = play_game(options, "greedy", seed, log=False)
            for kinds in outcome.kickoffs.values():
                choices.update(kinds)
            for team, kind, success in outcome.kickoff_sequence:
                result = "draw" if outcome.draw else "won" if outcome.winner == team else "lost"
                (onside[success] if kind == "random" else normal)[result] += 1
            drives += len(outcome.drives)
            points += sum(outcome.score.values())
            for team in outcome.touchdowns:
                touchdowns += outcome.touchdowns[team]["2"]
                long_touchdowns += outcome.touchdowns[team]["3"]
                kick_points += outcome.kick_points[team]
            draws += outcome.draw
            tricks += outcome.tricks
        taken = sum(choices.values())
        attempts = sum(onside[True].values()) + sum(onside[False].values())
        successes = sum(onside[True].values())
        print(f"\n== {name}  [{time.perf_counter() - start:.0f} s]")
        print(
            f"kick-offs: {taken / args.games:.2f} a game, random chosen "
            f"{choices['random'] / max(taken, 1):.1%}"
        )
        if attempts:
            print(f"onside kicks: {successes / attempts:.1%} of {attempts} random kick-offs")
            for success, label in ((True, "after a successful onside"), (False, "after no onside")):
                games = sum(onside[success].values())
                if games:
                    won = onside[success]["won"] / games
                    drew = onside[success]["draw"] / games
                    print(f"  kicking team wins {won:.1%} (draws {drew:.1%}) {label} ({games})")
        if normal:
            games = sum(normal.values())
            print(
                f"  kicking team wins {normal['won'] / games:.1%} (draws "
                f"{normal['draw'] / games:.1%}) after a normal kick-off ({games})"
            )
        print(
            f"points/drive {points / drives:.2f}; per game: points {points / args.games:.1f}, "
            f"touchdowns 2/3 {touchdowns / args.games:.2f}/{long_touchdowns / args.games:.2f}, "
            f"kick points {kick_points / args.games:.2f}, tricks {tricks / args.games:.1f}, "
            f"draws {draws / args.games:.1%}"
        )


def drives(args: argparse.Namespace) -> None:
    """Print the mean points of a drive by its starting ball (normal kick-offs, bare rules)."""
    points = defaultdict(list)
    for seed in range(args.games):
        outcome = play_game(Options(kickoffs="normal_only"), "greedy", seed, log=False)
        for _team, start, scored, how in outcome.drives:
            if how != "half_end":
                points[start].append(scored)
    for start in sorted(points):
        values = points[start]
        print(f"ball {start:2}: {sum(values) / len(values):.2f} points a drive ({len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", default="speed", choices=("speed", "balance", "drives"))
    parser.add_argument("-n", "--games", type=int, default=None)
    parser.add_argument("--effects", default="none", help="none, example, or a file path")
    args = parser.parse_args()
    if args.what == "speed":
        args.games = args.games or 2000
        speed(args)
    elif args.what == "balance":
        args.games = args.games or 20000
        balance(args)
    else:
        args.games = args.games or 6000
        drives(args)


if __name__ == "__main__":
    main()
