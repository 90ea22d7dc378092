"""Benchmarks and balance figures for the Touchdown Heroes engine (one core, no Django).

    .venv/bin/python bench/touchdown.py                     # speed figures
    .venv/bin/python bench/touchdown.py balance -n 20000    # onside figures, greedy x4
    .venv/bin/python bench/touchdown.py drives -n 6000      # the greedy DRIVE_POINTS table
    .venv/bin/python bench/touchdown.py strategies -n 2000 -j 2 [--set NAME=V ...]
        # every kick-off strategy against every other, seat-balanced, for each bot strength
    .venv/bin/python bench/touchdown.py sweep -n 1000 --param kick_floor=0,7,8 \
        --param random_kick_base=0,3 [--set NAME=V ...] [--markdown | --csv]
        # does random kicking pay? always-random against always-normal over a grid of variants
    .venv/bin/python bench/touchdown.py adaptive [--set NAME=V ...]  # the adaptive table
    .venv/bin/python bench/touchdown.py recommend [--preview] [--bots greedy] [-j 2] \
        [--stronger search] [--band 0.1,0.48,0.52] [--json PATH] [--csv | --deals]
        # issue #28: the variants that bring the random kick's edge into the band, ranked

Variant options (--set, --param) are Options fields: onside_rolls, random_kick_base, kick_floor
(0 or none: no floor), onside_ball (0 or derived: 11 - (base + roll)), normal_kick_ball,
kickoff_kick_ability (none/random/both), kick_play_hand (lead_only/every_player),
suit_change_judges (cards_played_after/every_card), kickoffs, effects (none/example/a path).

Speed is measured here, never asserted in tests (see STYLE.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from play.touchdown import Options, matchups, play_game, report  # noqa: E402
from play.touchdown.strategies import (  # noqa: E402
    KICKOFF_STRATEGIES,
    STAGES,
    kickoff_table,
    team_policy_names,
)


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


def variant_from(args: argparse.Namespace) -> Options:
    """Return the Options named by --effects and every --set NAME=VALUE."""
    changes: dict[str, object] = {"effects": args.effects}
    for item in args.set or []:
        name, _, value = item.partition("=")
        changes[name] = matchups.parse_option(name, value)
    return Options(**changes)


def _pool(jobs: int):
    if jobs <= 1:
        return None
    import multiprocessing

    return multiprocessing.get_context("fork").Pool(jobs)


def _cpu() -> float:
    """Return the CPU seconds of this process and its reaped workers, with the load average."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"[load average {os.getloadavg()[0]:.1f}]", file=sys.stderr)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def strategies(args: argparse.Namespace) -> None:
    options = variant_from(args)
    seeds = range(args.seed, args.seed + args.games)
    pool = _pool(args.jobs)
    map_ = pool.imap if pool else map
    start = time.perf_counter()
    outputs = []
    for bot in args.bots.split(","):
        kinds = args.kinds.split(",")
        names = [n for n in team_policy_names((bot,)) if (n.partition("+")[2] or "own") in kinds]
        rows = matchups.strategy_table(options, names, seeds, resamples=args.boot, map_=map_)
        outputs.append((bot, rows))
    elapsed = time.perf_counter() - start
    if pool:
        pool.close()
        pool.join()  # reaped, so their CPU time counts below
    variant = ", ".join(f"{k}={v}" for k, v in options.variant().items())
    for bot, rows in outputs:
        title = f"Kick-off strategies, {bot} bots ({variant}, effects {options.effects.name})"
        if args.markdown:
            print(report.strategy_markdown(rows, title=title))
        elif args.csv:
            print(report.strategy_csv(rows), end="")
        else:
            print(f"== {title}: {args.games} seeds x 2 seatings a pair")
            print(report.plain(report.strategy_rows(rows)))
            print()
    print(
        f"[{elapsed:.1f} s wall, {args.jobs} worker(s), {_cpu():.1f} s CPU in all]", file=sys.stderr
    )


def sweep(args: argparse.Namespace) -> None:
    options = variant_from(args)
    grid = []
    for item in args.param or []:
        name, _, values = item.partition("=")
        grid.append((name, [matchups.parse_option(name, v) for v in values.split(",")]))
    if not grid:
        raise SystemExit("Give at least one --param NAME=V1,V2,...")
    pool = _pool(args.jobs)
    start = time.perf_counter()
    result = matchups.sweep(
        options,
        grid,
        range(args.seed, args.seed + args.games),
        a=f"{args.bot}+{args.a}",
        b=f"{args.bot}+{args.b}",
        resamples=args.boot,
        map_=pool.imap if pool else map,
    )
    elapsed = time.perf_counter() - start
    if pool:
        pool.close()
        pool.join()
    if args.markdown:
        print(report.sweep_markdown(result))
    elif args.csv:
        print(report.sweep_csv(result), end="")
    else:
        print(
            f"== {result['a']} against {result['b']}, {args.games} seeds x 2 seatings a cell; "
            "margin = A's points - B's a game, 95% bootstrap intervals over seeds"
        )
        print(report.plain(report.sweep_rows(result)))
        grid_rows = report.heat_map(result)
        if grid_rows:
            print("\nmargin of team A (rows x columns):")
            print(report.plain(grid_rows))
    print(
        f"[{elapsed:.1f} s wall, {args.jobs} worker(s), {_cpu():.1f} s CPU in all]", file=sys.stderr
    )


def adaptive(args: argparse.Namespace) -> None:
    options = variant_from(args)
    for bot in args.bots.split(","):
        start = time.process_time()
        table = kickoff_table(options, bot)
        print(f"== {bot}: {table.games} calibration games [{time.process_time() - start:.1f} s]")
        for index, stage in enumerate(STAGES):
            (normal, n), (chance, r) = table.normal[index], table.random[index]
            print(
                f"{stage:>6}: normal {normal:+.2f} ({n}), random {chance:+.2f} ({r}), "
                f"gain {table.gain(index):+.2f} -> "
                f"{'random' if table.gain(index) > 0 else 'normal'}"
            )


def recommend(args: argparse.Namespace) -> None:
    from play.studies import recommend as search

    margin, low, high = (float(x) for x in args.band.split(","))
    pool = _pool(args.jobs)
    runner = search.pool_runner(pool.imap) if pool else search.run_in_process
    results = []
    for bot in args.bots.split(","):
        start = time.perf_counter()
        result = search.search(
            bot=bot,
            seed=args.seed,
            band={"margin": margin, "low": low, "high": high},
            preview=args.preview,
            runner=runner,
            resamples=args.boot,
            stronger=args.stronger or None,
        )
        elapsed = time.perf_counter() - start
        results.append(result)
        if args.csv:
            print(search.shortlist_csv(result), end="")
        elif args.deals:
            print(search.deals_csv(result), end="")
        elif not args.json:
            draft = result["draft"]
            print(
                f"== {bot}: {result['games']:,} games in {len(result['stages'])} stages; draft: "
                f"margin {report.figure_text(draft['margin'], '{:+.2f}')}, win rate "
                f"{report.figure_text(draft['win_rate'], '{:.3f}')}, "
                f"{draft['points_a_game']:.2f} points and {draft['tricks_a_game']:.1f} tricks"
                " a game"
            )
            for row in result["shortlist"]:
                mark = "in band (sure)" if row["sure"] else "in band" if row["in_band"] else "out"
                print(
                    f"{row['rank']:>2}. {row['sentence']['en']}\n    {row['sentence']['ja']}\n"
                    f"    margin {report.figure_text(row['margin'], '{:+.2f}')}, win rate "
                    f"{report.figure_text(row['win_rate'], '{:.3f}')} [{mark}]; points a game "
                    f"{report.figure_text(row['points_change'], '{:+.2f}')}, tricks a game "
                    f"{report.figure_text(row['tricks_change'], '{:+.2f}')}"
                )
            if "strength" in result:
                check = result["strength"]
                print(f"-- {check['headline']['en']}\n   {check['headline']['ja']}")
                for row in check["rows"]:
                    print(
                        f"   {row['verdict']:>7}: {row['sentence']['en']} margin "
                        f"{report.figure_text(row['weaker']['margin'], '{:+.2f}')} -> "
                        f"{report.figure_text(row['stronger']['margin'], '{:+.2f}')} "
                        f"(paired shift {report.figure_text(row['margin_shift'], '{:+.2f}')})"
                    )
        print(
            f"[{bot}: {elapsed:.1f} s wall, {args.jobs} worker(s), {_cpu():.1f} s CPU in all]",
            file=sys.stderr,
        )
    if pool:
        pool.close()
        pool.join()
    if args.json:
        import json

        Path(args.json).write_text(json.dumps(results, ensure_ascii=False, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "what",
        nargs="?",
        default="speed",
        choices=("speed", "balance", "drives", "strategies", "sweep", "adaptive", "recommend"),
    )
    parser.add_argument("-n", "--games", type=int, default=None, help="games, or seeds a pair")
    parser.add_argument("--effects", default="none", help="none, example, or a file path")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE", help="a variant option")
    parser.add_argument("--param", action="append", metavar="NAME=V1,V2", help="a sweep axis")
    parser.add_argument("--bots", default="greedy,random", help="bot strengths (strategies)")
    parser.add_argument("--kinds", default=",".join(KICKOFF_STRATEGIES), help="strategies")
    parser.add_argument("--bot", default="greedy", help="the bot of a sweep")
    parser.add_argument("-a", default="random", help="team A's kick-off strategy (sweep)")
    parser.add_argument("-b", default="normal", help="team B's kick-off strategy (sweep)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument("--boot", type=int, default=matchups.BOOTSTRAP, help="resamples")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--csv", action="store_true")
    parser.add_argument("--deals", action="store_true", help="recommend: every deal's unit")
    parser.add_argument("--preview", action="store_true", help="recommend: the quick preview")
    parser.add_argument(
        "--stronger", default="", help="recommend: check the shortlist with this bot (search)"
    )
    parser.add_argument("--band", default="0.1,0.48,0.52", help="recommend: |margin|,low,high")
    parser.add_argument("--json", default="", help="recommend: write the results here")
    args = parser.parse_args()
    if args.what == "recommend":
        if args.bots == "greedy,random" and not any(a.startswith("--bots") for a in sys.argv):
            args.bots = "greedy"
        return recommend(args)
    if args.what in ("strategies", "sweep"):
        args.games = args.games or 500
        return (strategies if args.what == "strategies" else sweep)(args)
    if args.what == "adaptive":
        return adaptive(args)
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
