"""Text reports of strategy tables and sweeps: plain text, CSV and a Markdown summary.

The same functions serve `bench/touchdown.py` and the lab's downloads, so a designer pastes
exactly what the command line printed.
"""

from __future__ import annotations

import csv
import io

FIGURES = (
    ("win_rate", "win rate (draw 1/2)", "{:.3f}"),
    ("margin", "points margin a game", "{:+.2f}"),
    ("random_share", "random kick-offs", "{:.0%}"),
    ("swing_per_random_kick", "points per extra random kick", "{:+.2f}"),
    ("onside_swing", "onside kick: points swing", "{:+.2f}"),
    ("onside_win_swing", "onside kick: win-rate swing", "{:+.3f}"),
)


# Raw counts a cell or pairing keeps (matchups.raw_counts), as CSV columns.
COUNTS = (
    "wins",
    "draws",
    "losses",
    "points_for",
    "points_against",
    "margin_sd",
    "close_share",
    "tricks",
    "drives",
)


def _counts(row: dict) -> list[object]:
    counts = row.get("counts") or {}
    return [counts.get(name) for name in COUNTS]


def scale_text(row: dict) -> tuple[str, str]:
    """Return the spread of a game's margin and the share of close games as text ("—" where
    the counts were not kept), so a margin can be read against the game's own scale."""
    counts = row.get("counts") or {}
    sd, close = counts.get("margin_sd"), counts.get("close_share")
    return (
        "—" if sd is None else f"{sd:.2f}",
        "—" if close is None else f"{close:.0%}",
    )


def figure_text(figure: dict, fmt: str) -> str:
    """Return "value [low, high]" ("—" for a value the sample does not define)."""
    value, interval = figure["value"], figure["interval"]
    if value is None:
        return "—"
    text = fmt.format(value)
    if interval:
        text += " [" + ", ".join(fmt.format(x) for x in interval) + "]"
    return text


def p_text(difference: dict) -> str:
    """Return a paired difference's p-value as text: "—" when there is none, "≤ 0.001" at the
    bootstrap's floor (1 / resamples: no resample fell on the other side of 0), else 3 places."""
    p = difference.get("p")
    if p is None:
        return "—"
    resamples = difference.get("resamples")
    if resamples and p <= (1 / resamples) * (1 + 1e-9):
        return f"≤ {1 / resamples:.4g}"
    return f"{p:.3f}"


def strategy_rows(rows: list[dict]) -> list[list[str]]:
    header = ["team A", "team B", "games"] + [label for _, label, _ in FIGURES]
    header += ["margin SD a game", "games within a touchdown"]
    body = [header]
    for row in rows:
        figures = row["figures"]
        body.append(
            [row["a"], row["b"], str(figures["games"]["value"])]
            + [figure_text(figures[name], fmt) for name, _, fmt in FIGURES]
            + list(scale_text(row))
        )
    return body


def _markdown(table: list[list[str]]) -> str:
    lines = ["| " + " | ".join(table[0]) + " |", "|" + "---|" * len(table[0])]
    lines += ["| " + " | ".join(cells) + " |" for cells in table[1:]]
    return "\n".join(lines)


def _csv(rows: list[list[object]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _flat(figures: dict) -> list[object]:
    cells: list[object] = []
    for name, _, _ in FIGURES:
        figure = figures[name]
        low, high = figure["interval"] or (None, None)
        cells += [figure["value"], low, high]
    return cells


def _flat_header() -> list[str]:
    names = []
    for name, _, _ in FIGURES:
        names += [name, name + "_low", name + "_high"]
    return names


def strategy_csv(rows: list[dict]) -> str:
    data: list[list[object]] = [["a", "b", "games", *_flat_header(), *COUNTS]]
    for row in rows:
        data.append(
            [
                row["a"],
                row["b"],
                row["figures"]["games"]["value"],
                *_flat(row["figures"]),
                *_counts(row),
            ]
        )
    return _csv(data)


def strategy_markdown(rows: list[dict], *, title: str, notes: str = "") -> str:
    intro = (
        f"## {title}\n\n"
        "Each pair played seat-balanced (every seed twice, A as Eagles and as Bears); "
        "figures from team A's side with 95% percentile bootstrap intervals over seeds.\n"
    )
    return intro + (notes + "\n" if notes else "") + "\n" + _markdown(strategy_rows(rows)) + "\n"


def sweep_rows(result: dict) -> list[list[str]]:
    names = [name for name, _ in result["grid"]]
    header = names + [
        "margin a game (A - B)",
        "win rate of A",
        "points per extra random kick",
        "onside kick: points swing",
        f"margin vs {result.get('baseline') or 'first cell'}",
        "p",
        "margin SD a game",
        "games within a touchdown",
    ]
    body = [header]
    for cell in result["cells"]:
        figures, diff = cell["figures"], cell["difference"]
        diff_text = figure_text(diff, "{:+.2f}") if diff["value"] is not None else "—"
        body.append(
            [str(cell["values"][name]) for name in names]
            + [
                figure_text(figures["margin"], "{:+.2f}"),
                figure_text(figures["win_rate"], "{:.3f}"),
                figure_text(figures["swing_per_random_kick"], "{:+.2f}"),
                figure_text(figures["onside_swing"], "{:+.2f}"),
                diff_text,
                p_text(diff),
                *scale_text(cell),
            ]
        )
    return body


def verdict(figure: dict) -> str:
    """Return whether A's kicking pays: "pays", "costs" or "unclear" (interval spans 0)."""
    interval = figure["interval"]
    if not interval:
        return "unclear"
    if interval[0] > 0:
        return "pays"
    if interval[1] < 0:
        return "costs"
    return "unclear"


def heat_map(result: dict) -> list[list[str]] | None:
    """Return the grid of two parameters as rows of "margin [interval]", or None."""
    if len(result["grid"]) != 2:
        return None
    (row_name, row_values), (col_name, col_values) = result["grid"]
    cells = {(cell["values"][row_name], cell["values"][col_name]): cell for cell in result["cells"]}
    table = [[f"{row_name} \\ {col_name}"] + [str(v) for v in col_values]]
    for rv in row_values:
        table.append(
            [str(rv)]
            + [
                figure_text(cells[rv, cv]["figures"]["margin"], "{:+.2f}")
                + f" ({verdict(cells[rv, cv]['figures']['margin'])})"
                for cv in col_values
            ]
        )
    return table


def sweep_csv(result: dict) -> str:
    names = [name for name, _ in result["grid"]]
    data: list[list[object]] = [
        [
            *names,
            "games",
            *_flat_header(),
            "difference",
            "difference_low",
            "difference_high",
            "p",
            "resamples",
            *COUNTS,
        ]
    ]
    for cell in result["cells"]:
        diff = cell["difference"]
        low, high = diff["interval"] or (None, None)
        data.append(
            [cell["values"][name] for name in names]
            + [cell["figures"]["games"]["value"], *_flat(cell["figures"])]
            + [diff["value"], low, high, diff["p"], diff.get("resamples")]
            + _counts(cell)
        )
    return _csv(data)


def sweep_markdown(result: dict) -> str:
    base = ", ".join(f"{k}={v}" for k, v in result["base"].items())
    text = (
        f"## Does random kicking pay? {result['a']} against {result['b']}\n\n"
        f"{result['seeds']} seeds a cell, each played seat-balanced (two games); base rules: "
        f"{base}. Margin: team A's points minus team B's a game, 95% percentile bootstrap "
        'interval over seeds; "pays" / "costs" when the interval excludes 0. '
        f"The difference column compares each cell with {result.get('baseline') or 'the first'}, "
        "paired by seed "
        "(bootstrap p-value).\n\n"
    )
    text += _markdown(sweep_rows(result)) + "\n"
    grid = heat_map(result)
    if grid:
        text += "\n" + _markdown(grid) + "\n"
    return text


def plain(table: list[list[str]]) -> str:
    """Return a table as aligned plain text."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in table
    )


__all__ = [
    "figure_text",
    "heat_map",
    "p_text",
    "plain",
    "strategy_csv",
    "strategy_markdown",
    "strategy_rows",
    "sweep_csv",
    "sweep_markdown",
    "sweep_rows",
    "verdict",
]
