"""The lab studies' downloads: a CSV and a Markdown summary a designer can paste (issue #14).

The text comes from play.touchdown.report, the same functions `bench/touchdown.py` prints with,
so the page's download and the command line never disagree. Pure: no Django.
"""

from __future__ import annotations

import csv
import io

from play.studies import recommend
from play.studies.plans import cell_units_by_seed, difference_column
from play.touchdown import matchups, report

FORMATS = {"csv": "text/csv", "md": "text/markdown", "deals.csv": "text/csv"}


def with_baseline(results: dict, against: int | None) -> dict:
    """Return the sweep with each cell's difference taken from cell `against` (default: the
    first cell, as stored)."""
    sweep = results["sweep"]
    if against is None:
        return sweep
    column = difference_column(results, against)
    if column is None:
        raise ValueError(f"No cell {against} to compare with.")
    cells = [
        {**cell, "difference": diff} for cell, diff in zip(sweep["cells"], column, strict=True)
    ]
    return {**sweep, "cells": cells, "baseline": sweep["cells"][against]["label"]}


def _variant_note(variant: dict) -> str:
    return "Rules: " + ", ".join(f"{k}={v}" for k, v in variant.items()) + "."


def deals_csv(cells: list[dict], by_cell: dict) -> str:
    """Return every deal of a study, one row per cell (or pairing) and deal seed: the cell, the
    two teams, the seed and every column of its unit (two games, seats swapped: sums), so a
    reader can recompute each figure and its interval (play/touchdown/matchups.py)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["cell", "values", "team_a", "team_b", "seed", *matchups.COLUMNS])
    for index, cell in enumerate(cells):
        merged = cell_units_by_seed(by_cell.get(index, []))
        values = " ".join(f"{k}={v}" for k, v in (cell.get("values") or {}).items())
        for seed in sorted(merged, key=int):
            unit = list(merged[seed]) + [""] * (len(matchups.COLUMNS) - len(merged[seed]))
            writer.writerow([index, values, cell.get("a", ""), cell.get("b", ""), seed, *unit])
    return out.getvalue()


def report_text(
    results: dict,
    fmt: str,
    *,
    against: int | None = None,
    cells: list[dict] | None = None,
    by_cell: dict | None = None,
) -> str:
    """Return a finished study's report as CSV ("csv"), Markdown ("md") or every deal's
    outcome ("deals.csv", which needs the study's `cells` and their chunk results)."""
    if fmt not in FORMATS:
        raise ValueError(f"Unknown format {fmt!r}; use {', '.join(FORMATS)}.")
    study = results.get("study")
    if study == "recommend":  # issue #28 item 1: the shortlist and every deal of it
        found = results["recommendation"]
        if fmt == "csv":
            return recommend.shortlist_csv(found)
        if fmt == "deals.csv":
            return recommend.deals_csv(found)
        return recommend.markdown(found)
    if fmt == "deals.csv":
        return deals_csv(cells or [], by_cell or {})
    if study == "table":
        rows = [row for table in results["tables"] for row in table["rows"]]
        if fmt == "csv":
            return report.strategy_csv(rows)
        parts = [
            report.strategy_markdown(
                table["rows"],
                title=f"Kick-off strategies, {table['bot']} bots",
                notes=_variant_note(results["variant"])
                + f" {results['seeds']} seeds a pair ({2 * results['seeds']} games).",
            )
            for table in results["tables"]
        ]
        return "\n".join(parts)
    if study == "sweep":
        sweep = with_baseline(results, against)
        if fmt == "csv":
            return report.sweep_csv(sweep)
        return report.sweep_markdown(sweep)
    raise ValueError("This batch is not a strategy table or a sweep.")
