"""The lab's two studies as pure functions: a strategy head-to-head table and a sweep.

No Django here, like play/studies/variants.py. A study is a list of cells; a cell is one
seat-balanced match-up (team policy A against B) under one rule variant. Every cell plays the
same seeds: chunk k of any cell plays the seeds `chunk_seeds(chunk_seed(study seed, k), runs)`,
so a sweep's cells are paired by seed and the difference test between any two of them is a
paired one.
A chunk's result is `{"units": {seed: unit}}` (play.touchdown.matchups.units_chunk); chunks of a
cell merge by union, so a redelivered chunk changes nothing, and the figures are computed from
the chunk rows (units in seed order) with bootstrap intervals over seeds (pairs of games).
"""

from __future__ import annotations

import math

from play.errors import FieldErrors
from play.seeds import chunk_seed
from play.studies.variants import KICK_OPTIONS, clean_variant, describe, variant_options
from play.touchdown import matchups, play_game
from play.touchdown.strategies import KICKOFF_STRATEGIES, team_policy

STUDIES = ("table", "sweep")
BOTS = ("search", "greedy", "random")  # bot strengths, strongest first
DEFAULT_BOTS = ("greedy", "random")  # a table's bots unless named (search is far slower)
# The options a sweep may vary (every kick-off parameter and TD-PLAY-4/TD-KICK-2's readings).
SWEEP_PARAMS = tuple(KICK_OPTIONS) + ("onside_rolls",)
MAX_AXIS_VALUES = 6
MAX_SWEEP_CELLS = 25
SAMPLE_LOGS_PER_CELL = 1
# Deals a cell: the bootstraps run over every deal of every cell when the batch finishes, so a
# study is bounded (10,000 deals, 20,000 games a cell, already gives intervals of about ±0.05).
MAX_STUDY_DEALS = 10_000


class StudyError(FieldErrors):
    """A study that cannot be played; `errors` maps each field to its messages."""


def team_name(bot: str, strategy: str) -> str:
    return bot if strategy == "own" else f"{bot}+{strategy}"


def _choices(value, allowed, field: str, errors: dict, *, at_least: int) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        errors[field] = [f"Give a list of {', '.join(allowed)}."]
        return []
    unknown = [v for v in value if v not in allowed]
    if unknown:
        errors[field] = [f"Unknown: {', '.join(unknown)}; use {', '.join(allowed)}."]
        return []
    picked = [v for v in allowed if v in value]  # the registry's order, no repeats
    if len(picked) < at_least:
        errors[field] = [f"Choose at least {at_least}."]
    return picked


def _axis_values(name: str, values, field: str, errors: dict) -> list:
    """Return a sweep axis's values, each checked by Options; add problems under `field`."""
    if isinstance(values, str):
        values = [v.strip() for v in values.split(",") if v.strip()]
    if not isinstance(values, list) or not values:
        errors[field] = ["Give the values, separated by commas (e.g. 0,7,8)."]
        return []
    if len(values) > MAX_AXIS_VALUES:
        errors[field] = [f"At most {MAX_AXIS_VALUES} values an axis."]
        return []
    out = []
    for value in values:
        try:
            parsed = matchups.parse_option(name, value) if isinstance(value, str) else value
            variant_options(clean_variant({name: parsed}))
        except (ValueError, FieldErrors) as exc:
            text = "; ".join(m for ms in getattr(exc, "errors", {}).values() for m in ms) or str(
                exc
            )
            errors[field] = [f"{name}={value}: {text}"]
            return []
        if parsed in out:
            errors[field] = [f"{name}={value} is given twice."]
            return []
        out.append(parsed)
    return out


def deals_error(runs: object) -> str | None:
    """Return the problem with a study's deals a cell, or None."""
    if isinstance(runs, int) and runs > MAX_STUDY_DEALS:
        return f"A strategy table or a sweep plays at most {MAX_STUDY_DEALS:,} deals a cell."
    return None


def clean_study(study: dict | None, variant: dict) -> tuple[dict, list[dict]]:
    """Return (the checked study, its cells) for a base variant (checked by clean_variant).

    Raises StudyError naming each bad field (study_... or variant_a_...)."""
    errors: dict[str, list[str]] = {}
    if not isinstance(study, dict):
        raise StudyError({"study": ["Give the study: its kind (table or sweep) and its choices."]})
    mode = study.get("kind")
    if mode not in STUDIES:
        raise StudyError({"study_kind": [f"Use one of {', '.join(STUDIES)}."]})
    if variant["kickoffs"] != "choice":
        errors["variant_a_kickoffs"] = [
            "Kick-off strategies need kick-offs by choice (not normal kick-offs only)."
        ]
    cells: list[dict] = []
    if mode == "table":
        strategies = _choices(
            study.get("strategies", list(KICKOFF_STRATEGIES)),
            KICKOFF_STRATEGIES,
            "study_strategies",
            errors,
            at_least=2,
        )
        wanted = study.get("bots", list(DEFAULT_BOTS))
        bots = _choices(wanted, BOTS, "study_bots", errors, at_least=1)
        clean = {"kind": mode, "strategies": strategies, "bots": bots}
        for bot in bots:
            for i, a in enumerate(strategies):
                for b in strategies[i + 1 :]:
                    cells.append(
                        {
                            "variant": variant,
                            "bot": bot,
                            "a": team_name(bot, a),
                            "b": team_name(bot, b),
                        }
                    )
    else:
        bot = study.get("bot", "greedy")
        if bot not in BOTS:
            errors["study_bot"] = [f"Use one of {', '.join(BOTS)}."]
        sides = {}
        for side, default in (("a", "random"), ("b", "normal")):
            value = study.get(side, default)
            if value not in KICKOFF_STRATEGIES:
                errors[f"study_{side}"] = [f"Use one of {', '.join(KICKOFF_STRATEGIES)}."]
            sides[side] = value
        if sides["a"] == sides["b"] and not errors:
            errors["study_b"] = ["Team B needs a different kick-off strategy from team A."]
        grid = []
        axes = study.get("grid")
        if not isinstance(axes, list) or not 1 <= len(axes) <= 2:
            errors["study_grid"] = ["Give one or two parameters to sweep."]
            axes = []
        for number, axis in enumerate(axes, start=1):
            if not isinstance(axis, list | tuple) or len(axis) != 2:
                errors[f"study_param_{number}"] = ["Give a parameter name and its values."]
                continue
            name, values = axis
            if name not in SWEEP_PARAMS:
                errors[f"study_param_{number}"] = [
                    f"Unknown parameter {name!r}; use {', '.join(SWEEP_PARAMS)}."
                ]
                continue
            if any(name == other for other, _ in grid):
                errors[f"study_param_{number}"] = [f"{name} is swept twice."]
                continue
            parsed = _axis_values(name, values, f"study_values_{number}", errors)
            if parsed:
                grid.append((name, parsed))
        if math.prod(len(values) for _, values in grid) > MAX_SWEEP_CELLS:
            errors["study_grid"] = [f"At most {MAX_SWEEP_CELLS} cells (values multiplied)."]
        clean = {
            "kind": mode,
            "bot": bot,
            "a": sides["a"],
            "b": sides["b"],
            "grid": [[name, values] for name, values in grid],
        }
        if not errors:
            combos: list[dict] = [{}]
            for name, values in grid:
                combos = [{**combo, name: value} for combo in combos for value in values]
            for combo in combos:
                changed = {k: v for k, v in variant.items() if k != "label"} | combo
                if "kick_floor" in combo:
                    changed["minimum_kick"] = False  # the floor is the swept one
                try:
                    cell_variant = clean_variant(changed)
                except FieldErrors as exc:
                    errors["study_grid"] = [m for ms in exc.errors.values() for m in ms]
                    break
                cells.append(
                    {
                        "variant": cell_variant,
                        "bot": bot,
                        "a": team_name(bot, sides["a"]),
                        "b": team_name(bot, sides["b"]),
                        "values": combo,
                    }
                )
    if errors:
        raise StudyError(errors)
    return clean, cells


def study_label(study: dict, cells: list[dict]) -> str:
    """Return a study's short description: its base rules, or what a sweep varies."""
    variant = cells[0]["variant"]
    if study["kind"] == "table":
        return variant["label"].removesuffix(", " + variant["policy"])
    names = " × ".join(name for name, _ in study["grid"])
    return (
        f"{team_name(study['bot'], study['a'])} vs {team_name(study['bot'], study['b'])}: {names}"
    )


def cell_seeds(*, study_seed: int, position: int, runs: int) -> list[int]:
    """Return the game seeds of the `position`-th chunk of every cell (the same for all)."""
    return matchups.chunk_seeds(chunk_seed(study_seed, position), runs)


def run_cell_chunk(*, cell: dict, seeds: list[int], keep_logs: int = 0):
    """Play a cell's seeds (each twice, seat-balanced); return (units by seed, sample logs)."""
    options = variant_options(cell["variant"])
    result = matchups.units_chunk(options, cell["a"], cell["b"], seeds)
    logs = []
    if keep_logs:
        pa, pb = team_policy(cell["a"]), team_policy(cell["b"])
        for seed in seeds[: min(keep_logs, SAMPLE_LOGS_PER_CELL)]:
            logs.append(play_game(options, (pa, pb, pa, pb), seed, log=True).log)
    return result, logs


def cell_units_by_seed(results: list[dict]) -> dict[str, list]:
    """Return a cell's units by deal seed, from its chunk results (merged by union)."""
    merged: dict[str, list] = {}
    for result in results:
        merged.update(result.get("units", {}))
    return merged


def cell_units(results: list[dict]) -> list[tuple[float, ...]]:
    """Return a cell's units from its chunk results, in seed order."""
    return matchups.units_of({"units": cell_units_by_seed(results)})


def _games(units) -> int:
    return int(sum(unit[0] for unit in units))


def summarize_table(
    *, study: dict, cells: list[dict], by_cell: dict, resamples: int = matchups.BOOTSTRAP
) -> dict:
    """Return every strategy against every other, for each bot: rows (A, B, figures) read from
    both sides of each pair, and a matrix by strategy."""
    tables = []
    seeds = games = 0
    for bot in study["bots"]:
        names = [team_name(bot, s) for s in study["strategies"]]
        rows = []
        for index, cell in enumerate(cells):
            units = cell_units(by_cell.get(index, []))
            if cell["bot"] != bot or not units:
                continue
            mine, theirs = matchups.bootstrap_both(units, resamples=resamples)
            rows.append(
                {
                    "a": cell["a"],
                    "b": cell["b"],
                    "figures": mine,
                    "counts": matchups.raw_counts(units, side="a"),
                }
            )
            rows.append(
                {
                    "a": cell["b"],
                    "b": cell["a"],
                    "figures": theirs,
                    "counts": matchups.raw_counts(units, side="b"),
                }
            )
            seeds = max(seeds, len(units))
            games += _games(units)
        found = {(row["a"], row["b"]): row["figures"] for row in rows}
        matrix = [
            {"a": a, "cells": [{"b": b, "figures": found.get((a, b))} for b in names]}
            for a in names
        ]
        tables.append({"bot": bot, "strategies": names, "rows": rows, "matrix": matrix})
    variant = cells[0]["variant"] if cells else {}
    return {
        "study": "table",
        "label": variant.get("label", "").removesuffix(", " + variant.get("policy", "")),
        "variant": _variant_text(variant),
        "seeds": seeds,
        "games": games,
        "runs": games,
        "tables": tables,
    }


def summarize_sweep(
    *, study: dict, cells: list[dict], by_cell: dict, resamples: int = matchups.BOOTSTRAP
) -> dict:
    """Return each cell's figures, its difference from the first cell, and the paired
    difference (margin) between every two cells: `differences[i][j]` is cell j minus cell i."""
    unit_lists = [cell_units(by_cell.get(index, [])) for index in range(len(cells))]
    complete = bool(unit_lists) and all(
        units and len(units) == len(unit_lists[0]) for units in unit_lists
    )
    diffs = matchups.differences(unit_lists, "margin", resamples=resamples) if complete else None
    out_cells = []
    for index, (cell, units) in enumerate(zip(cells, unit_lists, strict=True)):
        if not units:
            continue
        out_cells.append(
            {
                "index": index,
                "values": cell["values"],
                "label": ", ".join(f"{k}={v}" for k, v in cell["values"].items()),
                "figures": matchups.bootstrap(units, resamples=resamples),
                "counts": matchups.raw_counts(units),
                "difference": diffs[0][index]
                if diffs
                else {"statistic": "margin", "value": None, "interval": None, "p": None},
            }
        )
    base = cells[0]["variant"] if cells else {}
    swept = {name for name, _ in study["grid"]}
    base_text = {k: v for k, v in _variant_text(base).items() if k not in swept}
    games = sum(_games(units) for units in unit_lists)
    return {
        "study": "sweep",
        "label": describe(base) if base else "",
        "seeds": len(unit_lists[0]) if unit_lists else 0,
        "games": games,
        "runs": games,
        "sweep": {
            "a": team_name(study["bot"], study["a"]),
            "b": team_name(study["bot"], study["b"]),
            "seeds": len(unit_lists[0]) if unit_lists else 0,
            "base": base_text,
            "grid": study["grid"],
            "cells": out_cells,
        },
        "differences": diffs,
    }


def _variant_text(variant: dict) -> dict:
    if not variant:
        return {}
    options = variant_options(variant)
    return options.variant() | {"effects": options.effects.name}


def difference_column(results: dict, against: int) -> list[dict] | None:
    """Return each sweep cell's paired difference from cell `against` (cell minus it)."""
    diffs = results.get("differences")
    if not diffs or not 0 <= against < len(diffs):
        return None
    return [diffs[against][cell["index"]] for cell in results["sweep"]["cells"]]
