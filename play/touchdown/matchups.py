"""Head-to-head strategy match-ups and variant sweeps, with intervals bootstrapped by game.

The lab's question (shared/spec/touchdown-heroes-rules.md, "What a balance lab should answer
first"): does choosing the random kick pay, for sensible players, under each variant? A match-up
plays team policy A against team policy B, seat-balanced: each seed is played twice, A as the
Eagles (seats 0 and 2) and A as the Bears, with the same deal. That pair of games is the unit of
resampling: every interval here is a percentile bootstrap over seeds (pairs of games), never a
Wilson interval over kick-offs, because the ~7 kick-offs of a game are not independent.

Figures, all from A's side:
- `win_rate`: A's wins plus half its draws, per game;
- `margin`: A's points minus B's, per game;
- `random_share`: of A's kick-offs, the share it kicked random (and `onside_share` of those);
- `swing_per_random_kick`: the margin divided by how many more random kicks A took than B (a
  ratio over the whole sample; None when both kicked random equally often);
- `onside_swing`: for every random kick-off in the sample (either team's), the kicking team's
  points margin from that kick-off to the end of the half, after a successful onside kick minus
  after a random kick that was not onside; `onside_win_swing` the same for the kicking team's
  game result (win 1, draw ½).
Pure Python, no Django; a pure function of (options, policies, seeds).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from play.touchdown.cards import TEAMS
from play.touchdown.options import LONG_TOUCHDOWN_POINTS, Options
from play.touchdown.outcome import GameOutcome
from play.touchdown.runner import play_game
from play.touchdown.strategies import team_policy

BOOTSTRAP = 1000  # resamples
LEVEL = 0.95
# The columns of a unit (one seed, two games), each a sum over its two games.
COLUMNS = (
    "games",
    "result",  # A's wins + draws / 2
    "margin",  # A's points - B's
    "a_kickoffs",
    "a_random",
    "a_onside",
    "b_kickoffs",
    "b_random",
    "b_onside",
    "onside_n",  # random kick-offs that were onside (either team)
    "onside_margin",  # the kicking team's margin to the end of the half after them
    "onside_result",  # the kicking team's game result after them
    "miss_n",  # random kick-offs that were not onside
    "miss_margin",
    "miss_result",
    # Raw counts (issue #28), so a reader can recompute the figures and judge their scale.
    # Units stored before these were kept are shorter: units_of pads them with NaN, and
    # raw_counts says None for what they lack.
    "a_wins",
    "draws",
    "b_wins",
    "a_points",
    "b_points",
    "margin_sq",  # sum of each game's margin squared: the spread of a game's margin
    "close",  # games decided by at most one touchdown's points (a draw included)
    # Game length (issue #28): judged tricks (kick plays included) and drives (possessions).
    "tricks",
    "drives",
)
Unit = tuple[float, ...]
# The columns the bootstrap resamples: those the statistics read (the raw counts are totals).
RESAMPLED = COLUMNS[: COLUMNS.index("a_wins")]
CLOSE_MARGIN = LONG_TOUCHDOWN_POINTS  # "decided by one touchdown or less"


def _result(outcome: GameOutcome, team: str) -> float:
    return 0.5 if outcome.winner is None else float(outcome.winner == team)


def game_unit(a_as_eagles: GameOutcome, a_as_bears: GameOutcome) -> Unit:
    """Return the COLUMNS of one seed's pair of games (A as the Eagles, then as the Bears)."""
    sums = dict.fromkeys(COLUMNS, 0.0)
    for outcome, a_team in ((a_as_eagles, TEAMS[0]), (a_as_bears, TEAMS[1])):
        b_team = TEAMS[1] if a_team == TEAMS[0] else TEAMS[0]
        margin = outcome.score[a_team] - outcome.score[b_team]
        sums["games"] += 1
        sums["result"] += _result(outcome, a_team)
        sums["margin"] += margin
        sums["a_wins"] += margin > 0
        sums["draws"] += margin == 0
        sums["b_wins"] += margin < 0
        sums["a_points"] += outcome.score[a_team]
        sums["b_points"] += outcome.score[b_team]
        sums["margin_sq"] += margin * margin
        sums["close"] += abs(margin) <= CLOSE_MARGIN
        sums["tricks"] += outcome.tricks
        sums["drives"] += len(outcome.drives)
        sums["a_kickoffs"] += sum(outcome.kickoffs[a_team].values())
        sums["a_random"] += outcome.onside_attempts[a_team]
        sums["a_onside"] += outcome.onside_successes[a_team]
        sums["b_kickoffs"] += sum(outcome.kickoffs[b_team].values())
        sums["b_random"] += outcome.onside_attempts[b_team]
        sums["b_onside"] += outcome.onside_successes[b_team]
        for (team, kind, onside), (half, _, mine, theirs) in zip(
            outcome.kickoff_sequence, outcome.kickoff_states, strict=True
        ):
            if kind != "random":
                continue
            final = outcome.half_scores[half - 1]
            index = TEAMS.index(team)
            margin = (final[index] - mine) - (final[1 - index] - theirs)
            prefix = "onside" if onside else "miss"
            sums[prefix + "_n"] += 1
            sums[prefix + "_margin"] += margin
            sums[prefix + "_result"] += _result(outcome, team)
    return tuple(sums[name] for name in COLUMNS)


def play_units(options: Options, a: str, b: str, seeds: Sequence[int] | range) -> list[Unit]:
    """Play each seed twice (A as the Eagles, then as the Bears) and return its units."""
    pa, pb = team_policy(a), team_policy(b)
    units = []
    for seed in seeds:
        first = play_game(options, (pa, pb, pa, pb), seed, log=False)
        second = play_game(options, (pb, pa, pb, pa), seed, log=False)
        units.append(game_unit(first, second))
    return units


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


STATISTICS: dict[str, Callable[[dict[str, float]], float | None]] = {
    "win_rate": lambda t: _ratio(t["result"], t["games"]),
    "margin": lambda t: _ratio(t["margin"], t["games"]),
    "random_share": lambda t: _ratio(t["a_random"], t["a_kickoffs"]),
    "onside_share": lambda t: _ratio(t["a_onside"], t["a_random"]),
    "swing_per_random_kick": lambda t: _ratio(t["margin"], t["a_random"] - t["b_random"]),
    "onside_swing": lambda t: (
        None
        if not t["onside_n"] or not t["miss_n"]
        else t["onside_margin"] / t["onside_n"] - t["miss_margin"] / t["miss_n"]
    ),
    "onside_win_swing": lambda t: (
        None
        if not t["onside_n"] or not t["miss_n"]
        else t["onside_result"] / t["onside_n"] - t["miss_result"] / t["miss_n"]
    ),
}


def _columns(units: Sequence[Unit]) -> list[tuple[float, ...]]:
    return list(zip(*units, strict=True)) if units else [()] * len(COLUMNS)


def _totals(units: Sequence[Unit], pick: Callable | None = None) -> dict[str, float]:
    return _sums(_columns(units), pick)


def _sums(
    columns: list[tuple[float, ...]], pick: Callable | None = None, names=COLUMNS
) -> dict[str, float]:
    """Return the totals of the first len(names) columns (of the rows `pick` chooses)."""
    if pick is None:
        return {name: float(sum(col)) for name, col in zip(names, columns, strict=False)}
    return {name: float(sum(pick(col))) for name, col in zip(names, columns, strict=False)}


def _percentile(values: list[float], q: float) -> float:
    """Return the q-quantile (0..1) of sorted values, by linear interpolation."""
    position = q * (len(values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def _mirror_totals(totals: dict[str, float]) -> dict[str, float]:
    """Return column totals seen from B's side."""
    out = dict(totals)
    out["result"] = totals["games"] - totals["result"]
    out["margin"] = -totals["margin"]
    for x in ("kickoffs", "random", "onside"):
        out["a_" + x], out["b_" + x] = totals["b_" + x], totals["a_" + x]
    return out


def bootstrap(
    units: Sequence[Unit], *, resamples: int = BOOTSTRAP, seed: int = 0, level: float = LEVEL
) -> dict[str, dict]:
    """Return every statistic with its percentile bootstrap interval, resampling units."""
    return bootstrap_both(units, resamples=resamples, seed=seed, level=level)[0]


def bootstrap_both(
    units: Sequence[Unit], *, resamples: int = BOOTSTRAP, seed: int = 0, level: float = LEVEL
) -> tuple[dict[str, dict], dict[str, dict]]:
    """Return the figures from A's side and from B's side, from the same resamples."""
    views = (lambda t: t, _mirror_totals)
    whole = _totals(units)
    estimates = [{name: stat(view(whole)) for name, stat in STATISTICS.items()} for view in views]
    samples: list[dict[str, list[float]]] = [{name: [] for name in STATISTICS} for _ in views]
    n = len(units)
    if n > 1:
        rng = random.Random(f"touchdown-bootstrap:{seed}")
        indices = range(n)
        columns = _columns(units)[: len(RESAMPLED)]
        for _ in range(resamples):
            totals = _sums(columns, itemgetter(*rng.choices(indices, k=n)), RESAMPLED)
            for view, sample in zip(views, samples, strict=True):
                seen = view(totals)
                for name, stat in STATISTICS.items():
                    value = stat(seen)
                    if value is not None:
                        sample[name].append(value)
    tail = (1 - level) / 2
    results = []
    for estimate_of, sample in zip(estimates, samples, strict=True):
        figures = {}
        for name, estimate in estimate_of.items():
            values = sorted(sample[name])
            # an interval only when nearly every resample defines the statistic
            if estimate is None or len(values) < 0.9 * resamples or n < 2:
                interval = None
            else:
                interval = [_percentile(values, tail), _percentile(values, 1 - tail)]
            figures[name] = {"value": estimate, "interval": interval}
        figures["games"] = {"value": int(whole["games"]), "interval": None}
        results.append(figures)
    return results[0], results[1]


def _bootstrap_task(task: tuple[list[Unit], int]) -> tuple[dict[str, dict], dict[str, dict]]:
    units, resamples = task
    return bootstrap_both(units, resamples=resamples)


@dataclass(frozen=True, slots=True)
class Matchup:
    a: str
    b: str
    seeds: int
    figures: dict[str, dict]

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "seeds": self.seeds, "figures": self.figures}


def matchup(
    options: Options,
    a: str,
    b: str,
    seeds: Sequence[int] | range,
    *,
    resamples: int = BOOTSTRAP,
    units: list[Unit] | None = None,
) -> Matchup:
    """Return A against B over these seeds (each played in both seatings)."""
    if units is None:
        units = play_units(options, a, b, seeds)
    return Matchup(a, b, len(units), bootstrap(units, resamples=resamples))


def difference(
    first: Sequence[Unit],
    second: Sequence[Unit],
    statistic: str = "margin",
    *,
    resamples: int = BOOTSTRAP,
    level: float = LEVEL,
) -> dict:
    """Compare a statistic between two variants played on the same seeds (paired by seed).

    Returns the difference (second - first), its percentile bootstrap interval (resampling
    seeds, both variants together) and a two-sided p-value: twice the share of resamples on
    the other side of 0 (at least 1 / resamples: `resamples` says how many were drawn, so a
    reader can tell a p-value at that floor from one measured, report.p_text)."""
    if len(first) != len(second):
        raise ValueError("Both variants must be played on the same seeds.")
    stat = STATISTICS[statistic]
    a, b = stat(_totals(first)), stat(_totals(second))
    if a is None or b is None:
        return {"statistic": statistic, "value": None, "interval": None, "p": None}
    rng = random.Random("touchdown-difference")
    n = len(first)
    values = []
    one, two = _columns(first)[: len(RESAMPLED)], _columns(second)[: len(RESAMPLED)]
    for _ in range(resamples if n > 1 else 0):
        pick = itemgetter(*rng.choices(range(n), k=n))
        x, y = stat(_sums(one, pick, RESAMPLED)), stat(_sums(two, pick, RESAMPLED))
        if x is not None and y is not None:
            values.append(y - x)
    values.sort()
    tail = (1 - level) / 2
    if not values:
        return {"statistic": statistic, "value": b - a, "interval": None, "p": None}
    below = sum(v <= 0 for v in values) / len(values)
    above = sum(v >= 0 for v in values) / len(values)
    p = min(1.0, max(2 * min(below, above), 1 / len(values)))
    return {
        "statistic": statistic,
        "value": b - a,
        "interval": [_percentile(values, tail), _percentile(values, 1 - tail)],
        "p": p,
        "resamples": len(values),
    }


# ----- whole tables: every strategy against every other, and sweeps over variants ---------

Task = tuple[Options, str, str, tuple[int, ...]]
OPTION_NAMES = (
    "onside_rolls",
    "kickoffs",
    "random_kick_base",
    "kick_floor",
    "onside_ball",
    "normal_kick_ball",
    "kickoff_kick_ability",
    "kick_play_hand",
    "suit_change_judges",
    "guarantee_heroes",
    "guarantee_ball",
    "effects",
)


def parse_option(name: str, value: str) -> object:
    """Return a command-line or form value for an option, as the type Options wants."""
    if name not in OPTION_NAMES:
        raise ValueError(f"Unknown option {name!r}; the options are {', '.join(OPTION_NAMES)}.")
    if isinstance(getattr(Options(), name), int) and name != "effects":
        if value in ("none", "derived"):
            return 0
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"{name} takes a whole number, not {value!r}.") from None
    return value


def _run_task(task: Task) -> list[Unit]:
    options, a, b, seeds = task
    return play_units(options, a, b, seeds)


def _chunks(seeds: Sequence[int], size: int) -> list[tuple[int, ...]]:
    seeds = tuple(seeds)
    return [seeds[i : i + size] for i in range(0, len(seeds), size)] or [()]


def play_pairs(
    options: Options,
    pairs: Sequence[tuple[str, str]],
    seeds: Sequence[int],
    *,
    map_: Callable = map,
    chunk: int = 250,
) -> list[list[Unit]]:
    """Return the units of each (A, B) pair over the seeds; `map_` may be a pool's map."""
    for a, b in pairs:  # measure adaptive tables once, before any worker starts
        for name in (a, b):
            policy = team_policy(name)
            if policy.strategy == "adaptive":
                policy.table(options)
    tasks: list[Task] = []
    owners = []
    for index, (a, b) in enumerate(pairs):
        for part in _chunks(seeds, chunk):
            tasks.append((options, a, b, part))
            owners.append(index)
    results: list[list[Unit]] = [[] for _ in pairs]
    for owner, units in zip(owners, map_(_run_task, tasks), strict=True):
        results[owner].extend(units)
    return results


def strategy_table(
    options: Options,
    policies: Sequence[str],
    seeds: Sequence[int],
    *,
    resamples: int = BOOTSTRAP,
    map_: Callable = map,
) -> list[dict]:
    """Return every ordered pair of distinct policies as {"a", "b", "figures", "counts"}: each
    unordered pair is played once (seat-balanced) and read from both sides."""
    pairs = [(a, b) for i, a in enumerate(policies) for b in policies[i + 1 :]]
    played = play_pairs(options, pairs, seeds, map_=map_)
    rows = []
    boots = map_(_bootstrap_task, [(units, resamples) for units in played])
    for (a, b), units, (mine, theirs) in zip(pairs, played, boots, strict=True):
        rows.append({"a": a, "b": b, "figures": mine, "counts": raw_counts(units, side="a")})
        # the same games from B's side
        rows.append({"a": b, "b": a, "figures": theirs, "counts": raw_counts(units, side="b")})
    return rows


def sweep(
    base: Options,
    grid: Sequence[tuple[str, Sequence[object]]],
    seeds: Sequence[int],
    *,
    a: str = "greedy+random",
    b: str = "greedy+normal",
    resamples: int = BOOTSTRAP,
    map_: Callable = map,
) -> dict:
    """Play A against B for every combination of the grid's values (the first combination is
    the baseline); return each cell's figures and its difference from the baseline."""
    combos: list[dict[str, object]] = [{}]
    for name, values in grid:
        combos = [{**combo, name: value} for combo in combos for value in values]
    cells = []
    baseline_units = None
    for combo in combos:
        options = base.replace(**combo)
        (units,) = play_pairs(options, [(a, b)], seeds, map_=map_)
        if baseline_units is None:
            baseline_units = units
        cells.append(
            {
                "values": combo,
                "figures": bootstrap(units, resamples=resamples),
                "counts": raw_counts(units),
                "difference": difference(baseline_units, units, "margin", resamples=resamples),
            }
        )
    return {
        "a": a,
        "b": b,
        "seeds": len(tuple(seeds)),
        "base": base.variant() | {"effects": base.effects.name},
        "grid": [[name, list(values)] for name, values in grid],
        "cells": cells,
    }


# ----- chunks for batch workers: units keyed by seed, merged by union --------------------


def chunk_seeds(seed: int, runs: int) -> list[int]:
    """Return the game seeds a chunk plays, derived from its chunk seed."""
    rng = random.Random(f"touchdown-chunk:{seed}")
    return [rng.getrandbits(48) for _ in range(runs)]


def units_chunk(options: Options, a: str, b: str, seeds: Sequence[int]) -> dict:
    """Return {"units": {seed: unit}} for a batch chunk; chunks merge by taking the union."""
    units = play_units(options, a, b, seeds)
    return {"units": {str(seed): list(unit) for seed, unit in zip(seeds, units, strict=True)}}


def units_of(merged: dict) -> list[Unit]:
    """Return the units of merged chunk results, in seed order (so figures are reproducible);
    a unit stored before the raw-count columns were kept is padded with NaN."""
    rows = merged.get("units", {})
    width = len(COLUMNS)
    return [_padded(rows[key], width) for key in sorted(rows, key=int)]


def _padded(values: Sequence[float], width: int) -> Unit:
    return tuple(values) + (math.nan,) * (width - len(values))


def raw_counts(units: Sequence[Unit], *, side: str = "a") -> dict:
    """Return what a reader needs to recompute and to judge a pairing's figures, from side A's
    view (or B's): games, wins, draws, losses, points for and against, the spread (standard
    deviation) of a game's margin, the share of games decided by one touchdown or less, and the
    game length: tricks and drives in all (both teams', so the same from either side).
    A count the units do not hold (stored before it was kept) is None."""
    totals = _totals(units)
    games = totals["games"]

    def count(name: str) -> int | None:
        value = totals[name]
        return None if math.isnan(value) else int(value)

    wins, losses = ("a_wins", "b_wins") if side == "a" else ("b_wins", "a_wins")
    points_for, against = ("a_points", "b_points") if side == "a" else ("b_points", "a_points")
    spread = None
    if games > 1 and not math.isnan(totals["margin_sq"]):
        mean = totals["margin"] / games
        variance = (totals["margin_sq"] - games * mean * mean) / (games - 1)
        spread = math.sqrt(max(variance, 0.0))
    close = count("close")
    return {
        "games": int(games),
        "wins": count(wins),
        "draws": count("draws"),
        "losses": count(losses),
        "points_for": count(points_for),
        "points_against": count(against),
        "margin_sd": spread,
        "close_share": close / games if close is not None and games else None,
        "tricks": count("tricks"),
        "drives": count("drives"),
    }


# ----- every pair of variants at once: the difference column against any chosen variant ----

# The unit columns each statistic reads (a resample sums only these).
NEEDS: dict[str, tuple[str, ...]] = {
    "win_rate": ("result", "games"),
    "margin": ("margin", "games"),
    "random_share": ("a_random", "a_kickoffs"),
    "onside_share": ("a_onside", "a_random"),
    "swing_per_random_kick": ("margin", "a_random", "b_random"),
    "onside_swing": ("onside_n", "onside_margin", "miss_n", "miss_margin"),
    "onside_win_swing": ("onside_n", "onside_result", "miss_n", "miss_result"),
}


def differences(
    variants: Sequence[Sequence[Unit]],
    statistic: str = "margin",
    *,
    resamples: int = BOOTSTRAP,
    level: float = LEVEL,
) -> list[list[dict]]:
    """Return `difference(variants[i], variants[j], statistic)` for every i, j, as a matrix.

    All variants are played on the same seeds; one pass over the resamples serves every pair,
    with the very index draws `difference` makes, so each entry equals its own call."""
    n = len(variants[0]) if variants else 0
    if any(len(units) != n for units in variants):
        raise ValueError("Every variant must be played on the same seeds.")
    stat = STATISTICS[statistic]
    needed = NEEDS[statistic]
    positions = [COLUMNS.index(name) for name in needed]
    columns = [_columns(units) for units in variants]
    picked = [[cols[p] for p in positions] for cols in columns]
    whole = [stat(_totals(units)) for units in variants]
    rng = random.Random("touchdown-difference")
    draws: list[list[float | None]] = [[] for _ in variants]
    for _ in range(resamples if n > 1 else 0):
        pick = itemgetter(*rng.choices(range(n), k=n))
        for index, cols in enumerate(picked):
            totals = {name: float(sum(pick(col))) for name, col in zip(needed, cols, strict=True)}
            draws[index].append(stat(totals))
    tail = (1 - level) / 2
    matrix = []
    for i in range(len(variants)):
        row = []
        for j in range(len(variants)):
            a, b = whole[i], whole[j]
            if a is None or b is None:
                row.append({"statistic": statistic, "value": None, "interval": None, "p": None})
                continue
            values = sorted(
                y - x
                for x, y in zip(draws[i], draws[j], strict=True)
                if x is not None and y is not None
            )
            if not values:
                row.append({"statistic": statistic, "value": b - a, "interval": None, "p": None})
                continue
            below = sum(v <= 0 for v in values) / len(values)
            above = sum(v >= 0 for v in values) / len(values)
            row.append(
                {
                    "statistic": statistic,
                    "value": b - a,
                    "interval": [_percentile(values, tail), _percentile(values, 1 - tail)],
                    "p": min(1.0, max(2 * min(below, above), 1 / len(values))),
                    "resamples": len(values),
                }
            )
        matrix.append(row)
    return matrix
