"""What the lab's study pages show (issue #14): the head-to-head matrices, the sweep's heat map
and its difference column, from a finished batch's results (no ORM, no engine calls)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from play.studies import labels
from play.studies.labels import BOT_LABELS, team_label
from play.studies.plans import difference_column
from play.touchdown.report import FIGURES, figure_text, p_text, scale_text, verdict

FIGURE_LABELS = {
    "win_rate": gettext_lazy("Win rate (draw ½)"),
    "margin": gettext_lazy("Points margin a game"),
    "random_share": gettext_lazy("Random kick-offs"),
    "swing_per_random_kick": gettext_lazy("Points per extra random kick"),
    "onside_swing": gettext_lazy("Onside kick: points swing"),
    "onside_win_swing": gettext_lazy("Onside kick: win-rate swing"),
}
VERDICTS = {
    "pays": gettext_lazy("pays"),
    "costs": gettext_lazy("costs"),
    "unclear": gettext_lazy("unclear"),
}


def _figure(figures: dict, name: str) -> str:
    fmt = next(f for n, _label, f in FIGURES if n == name)
    return figure_text(figures[name], fmt)


def _tone(figure: dict, largest: float) -> str:
    """Return a CSS class for a margin: green where it pays, red where it costs, paler with
    the size of the margin and when its interval holds 0 (classes: the CSP allows no inline
    style)."""
    value = figure.get("value")
    if value is None or not largest or not value:
        return "td-tone-0"
    if verdict(figure) == "unclear":
        return f"td-tone-{'up' if value > 0 else 'down'}-1"
    level = 2 + round(2 * min(1.0, abs(value) / largest))  # 2..4: the interval excludes 0
    return f"td-tone-{'up' if value > 0 else 'down'}-{level}"


def table_view(results: dict) -> list[dict]:
    """Return, per bot strength, the matrix (A's win rate and margin against each B) and the
    full rows with every figure."""
    out = []
    for table in results.get("tables", []):
        largest = max(
            (
                abs(c["figures"]["margin"]["value"] or 0)
                for row in table["matrix"]
                for c in row["cells"]
                if c["figures"]
            ),
            default=0,
        )
        matrix = [
            {
                "a": team_label(row["a"]).split(" · ")[1],
                "cells": [
                    None
                    if c["figures"] is None
                    else {
                        "win_rate": _figure(c["figures"], "win_rate"),
                        "margin": _figure(c["figures"], "margin"),
                        "style": _tone(c["figures"]["margin"], largest),
                    }
                    for c in row["cells"]
                ],
            }
            for row in table["matrix"]
        ]
        rows = [
            {
                "a": team_label(row["a"]).split(" · ")[1],
                "b": team_label(row["b"]).split(" · ")[1],
                "games": row["figures"]["games"]["value"],
                "figures": [_figure(row["figures"], name) for name, _l, _f in FIGURES],
                "record": _record(row),
                "scale": scale_text(row),
            }
            for row in table["rows"]
        ]
        out.append(
            {
                "bot": str(BOT_LABELS.get(table["bot"], table["bot"])),
                "strategies": [team_label(n).split(" · ")[1] for n in table["strategies"]],
                "matrix": matrix,
                "rows": rows,
            }
        )
    return out


def _record(row: dict) -> str:
    """Return "wins–draws–losses" of a pairing or cell, or "—" when the counts were not kept."""
    counts = row.get("counts") or {}
    if counts.get("wins") is None:
        return "—"
    return f"{counts['wins']}–{counts['draws']}–{counts['losses']}"


def figure_headers() -> list[str]:
    return [str(FIGURE_LABELS[name]) for name, _l, _f in FIGURES]


def sweep_view(results: dict, against: int | None) -> dict:
    """Return the heat map (one or two parameters) and the cell list with the difference
    column against cell `against` (the first cell when None or out of range)."""
    sweep = results["sweep"]
    cells = sweep["cells"]
    error = ""
    column = difference_column(results, against) if against is not None else None
    if against is not None and column is None:
        error = _("There is no cell %(n)s in this sweep; the first cell is used.") % {"n": against}
    if column is None:
        against = 0
        column = [cell["difference"] for cell in cells]
    largest = max((abs(c["figures"]["margin"]["value"] or 0) for c in cells), default=0)
    shown = [
        {
            "index": cell["index"],
            "label": labels.cell_text(cell["values"]),
            "raw": cell["label"],
            "value_texts": [labels.value_text(k, v) for k, v in cell["values"].items()],
            "values": cell["values"],
            "margin": _figure(cell["figures"], "margin"),
            "win_rate": _figure(cell["figures"], "win_rate"),
            "swing": _figure(cell["figures"], "swing_per_random_kick"),
            "onside": _figure(cell["figures"], "onside_swing"),
            "record": _record(cell),
            "scale": scale_text(cell),
            "verdict": str(VERDICTS[verdict(cell["figures"]["margin"])]),
            "style": _tone(cell["figures"]["margin"], largest),
            "difference": "—" if diff["value"] is None else figure_text(diff, "{:+.2f}"),
            "p": p_text(diff),
            "significant": diff["p"] is not None and diff["p"] < 0.05,
            "is_baseline": cell["index"] == against,
        }
        for cell, diff in zip(cells, column, strict=True)
    ]
    grid = sweep["grid"]
    by_values = {tuple(c["values"][name] for name, _ in grid): c for c in shown}
    if len(grid) == 2:
        (row_name, row_values), (col_name, col_values) = grid
    else:
        (col_name, col_values), row_name, row_values = grid[0], "", [None]
    heat = {
        "row_name": row_name,
        "row_label": labels.option_label(row_name) if row_name else "",
        "col_name": col_name,
        "col_label": labels.option_label(col_name),
        "columns": [labels.value_text(col_name, v) for v in col_values],
        "rows": [
            {
                "value": rv,
                "text": labels.value_text(row_name, rv) if row_name else "",
                "cells": [
                    by_values.get((rv, cv) if len(grid) == 2 else (cv,)) for cv in col_values
                ],
            }
            for rv in row_values
        ],
    }
    baseline = next((c for c in shown if c["is_baseline"]), {"label": "", "raw": ""})
    return {
        "heat": heat,
        "cells": shown,
        "against": against,
        "baseline": baseline["label"],
        "baseline_raw": baseline["raw"],
        "error": error,
        "a": team_label(sweep["a"]),
        "b": team_label(sweep["b"]),
        "names": [(name, labels.option_label(name)) for name, _ in grid],
        "base": [
            {"text": labels.setting_text(name, value), "raw": f"{name}={value}"}
            for name, value in sweep.get("base", {}).items()
        ],
        # one line a setting under each bar
        "chart_labels": [
            [labels.setting_text(k, v) for k, v in c["values"].items()] for c in shown
        ],
    }


BAND = {"margin": 0.1, "low": 0.48, "high": 0.52}  # the designer's default band (issue #28)


def band_view(results: dict, band: dict) -> dict:
    """Return the sweep's cells that bring team A's edge into the designer's band: |margin a
    game| at most band["margin"] and a win rate from band["low"] to band["high"], closest to
    even first, each with its settings in words (a line for draft 6), whether its whole margin
    interval lies inside the band, and its cost in points a game against the first cell."""
    cells = results["sweep"]["cells"]
    first = cells[0] if cells else None

    def points(cell) -> float | None:
        counts = cell.get("counts") or {}
        if counts.get("points_for") is None or not counts.get("games"):
            return None
        return (counts["points_for"] + counts["points_against"]) / counts["games"]

    base_points = points(first) if first else None
    shortlist = []
    for cell in cells:
        margin, win = cell["figures"]["margin"], cell["figures"]["win_rate"]
        if margin["value"] is None or win["value"] is None:
            continue
        if abs(margin["value"]) > band["margin"] or not band["low"] <= win["value"] <= band["high"]:
            continue
        interval = margin["interval"]
        here = points(cell)
        shortlist.append(
            {
                "index": cell["index"],
                "sentence": labels.cell_text(cell["values"]),
                "margin": _figure(cell["figures"], "margin"),
                "win_rate": _figure(cell["figures"], "win_rate"),
                "sure": bool(interval)
                and -band["margin"] <= interval[0] <= interval[1] <= band["margin"],
                "points": None if here is None else f"{here:.2f}",
                "points_change": None
                if here is None or base_points is None
                else f"{here - base_points:+.2f}",
                "distance": abs(margin["value"]),
            }
        )
    shortlist.sort(key=lambda row: (not row["sure"], row["distance"], row["index"]))
    return {
        "band": band,
        "rows": shortlist,
        "first": labels.cell_text(first["values"]) if first else "",
    }


def band_from(query) -> tuple[dict, str]:
    """Return the band a page's query asks for (defaults where a value is missing or bad) and
    an error message for a bad one."""
    band, error = dict(BAND), ""
    for name in BAND:
        raw = (query.get(f"band_{name}") or "").strip()
        if not raw:
            continue
        try:
            value = float(raw)
        except ValueError:
            value = None
        if value is None or not 0 <= value <= (10 if name == "margin" else 1) or len(raw) > 12:
            error = _("“%(v)s” is not a band value; the default is used.") % {"v": raw[:12]}
            continue
        band[name] = value
    if band["low"] > band["high"]:
        band["low"], band["high"] = BAND["low"], BAND["high"]
        error = _("The win-rate band's low end is above its high end; the default is used.")
    return band, error


def bad_cell_message(raw: str) -> str:
    return _("“%(v)s” is not a cell number; the first cell is used.") % {"v": raw[:20]}


def recommend_view(results: dict) -> dict:
    """Return the recommendation's shortlist for its page (issue #28 item 1): each row a
    sentence for draft 6 in the reader's language (the other language beside it), the edge with
    its interval, whether it is in the band, and its cost to points and tricks a game."""
    from django.utils.translation import get_language

    found = results["recommendation"]
    first, second = ("ja", "en") if (get_language() or "").startswith("ja") else ("en", "ja")

    def row(item: dict) -> dict:
        return {
            "rank": item.get("rank"),
            "sentence": item["sentence"][first],
            "other": item["sentence"][second],
            "raw": item["key"],
            "margin": figure_text(item["margin"], "{:+.2f}"),
            "win_rate": figure_text(item["win_rate"], "{:.3f}"),
            "status": _("in the band, surely")
            if item["sure"]
            else _("in the band")
            if item["in_band"]
            else _("near the band"),
            "in_band": item["in_band"],
            "points": f"{item['points_a_game']:.2f}",
            "points_change": figure_text(item["points_change"], "{:+.2f}"),
            "tricks": f"{item['tricks_a_game']:.1f}",
            "tricks_change": figure_text(item["tricks_change"], "{:+.2f}"),
            "deals": item["deals"],
        }

    return {
        "strength": _strength_view(found.get("strength"), first),
        "band": found["band"],
        "bot": str(BOT_LABELS.get(found["bot"], found["bot"])),
        "preview": found["preview"],
        "games": found["games"],
        "stages": found["stages"],
        "draft": row(found["draft"]),
        "rows": [row(item) for item in found["shortlist"]],
        "variants": found["stages"][0]["variants"] if found["stages"] else 0,
    }


def _status(item: dict) -> str:
    if item["sure"]:
        return _("in the band, surely")
    return _("in the band") if item["in_band"] else _("out of the band")


def _strength_view(check: dict | None, lang: str) -> dict | None:
    """The stronger player's check (issue #28 item 4): its headline first, then each checked
    variant's verdict with the greedy and the stronger figures on the same deals."""
    if not check:
        return None
    verdicts = {
        "changes": _("the answer changes"),
        "shifts": _("the edge moves; the verdict holds"),
        "holds": _("holds"),
    }
    rows = []
    for row in check["rows"]:
        rows.append(
            {
                "draft": row["draft"],
                "sentence": _("Draft 5 as it stands") if row["draft"] else row["sentence"][lang],
                "weaker_margin": figure_text(row["weaker"]["margin"], "{:+.2f}"),
                "weaker_status": _status(row["weaker"]),
                "stronger_margin": figure_text(row["stronger"]["margin"], "{:+.2f}"),
                "stronger_win": figure_text(row["stronger"]["win_rate"], "{:.3f}"),
                "stronger_status": _status(row["stronger"]),
                "shift": figure_text(row["margin_shift"], "{:+.2f}"),
                "verdict": row["verdict"],
                "verdict_said": verdicts.get(row["verdict"], row["verdict"]),
            }
        )
    return {
        "headline": check["headline"][lang],
        "changed": bool(check["changed"]),
        "bot": str(BOT_LABELS.get(check["bot"], check["bot"])),
        "deals": check["deals"],
        "games": check["games"],
        "rows": rows,
    }
