"""The designer's question as an adaptive search (issue #28 item 1): which rule variants bring the
random kick's edge into a band the designer sets, for one player strength, while keeping game
length and scoring near the draft's?

The edge is measured as everywhere in the lab: a team that always kicks random against one that
always kicks normal, seat-balanced (matchups.play_units: each deal seed played twice, seats
swapped), bare rules. Every variant of a stage plays the same deal seeds, so variants are paired
by seed, with each other and with the draft.

The design is successive halving over the variant space (SPACE): stage r plays every surviving
variant on `seeds(r)` deals in all (a survivor keeps its earlier deals and plays only the new
ones); after a stage a variant is dropped when it is clearly out of the band (its 95% interval of
the margin, or of the win rate, lies wholly outside the band), and of the rest only the best
third (by `score`: how far out of the band, plus the relative cost to points and tricks a game)
go on. The draft always plays every stage (it is the baseline of the costs) and is never a
candidate. The last stage's survivors are the shortlist, with bootstrap intervals (margin, win
rate) and paired intervals of the costs against the draft.

No Django: a stage is a list of (variant, seeds) tasks, so the same plan runs in-process
(`run`), in a pool, or as batch chunks.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Sequence

from play.seeds import chunk_seed
from play.touchdown import matchups
from play.touchdown.options import Options

# The variant space: the onside range, the post-onside ball, the normal and random kick values,
# the floor, and the guarantee as a hero skill given to k of the 10 heroes. The first value of
# each is the draft's.
SPACE: dict[str, tuple[int, ...]] = {
    "onside_rolls": (1, 0, 2),
    "onside_ball": (0, 4, 6),  # 0: the draft's 11 - (base + roll), 7 on a 1
    "normal_kick_ball": (8, 7, 9),
    "random_kick_base": (3, 2),
    "kick_floor": (0, 7),
    "guarantee_heroes": (0, 2, 5),
}
PREVIEW_SPACE = SPACE  # a preview searches the same space on fewer deals and stages
DRAFT = {name: values[0] for name, values in SPACE.items()}
BAND = {"margin": 0.1, "low": 0.48, "high": 0.52}  # the designer's default (issue #28)
FIRST_SEEDS = 100  # deals a variant at stage 0 (full run); PREVIEW_FIRST_SEEDS for a preview
PREVIEW_FIRST_SEEDS = 20
GROWTH = 3  # each stage plays 3 times the deals of the one before and keeps a third
STAGES = 4
PREVIEW_STAGES = 3
Z = 1.96  # the 95% normal interval used to drop a clearly-out variant between stages
WIN_WEIGHT = 10.0  # one point of win rate off the band weighs as 0.1 points of margin a game


def variants(space: dict[str, tuple[int, ...]]) -> list[dict]:
    """Return the distinct variants of a space, the draft first: with no onside kick the
    post-onside ball means nothing (only 0 kept), and the guarantee skill adds nothing where the
    floor under every random kick already reaches its ball (only 0 kept)."""
    names = list(space)
    out = []
    for combo in itertools.product(*(space[name] for name in names)):
        values = dict(zip(names, combo, strict=True))
        if values["onside_rolls"] == 0 and values["onside_ball"] != 0:
            continue
        if values["kick_floor"] >= 7 and values["guarantee_heroes"]:
            continue
        out.append(values)
    if DRAFT not in out:
        out.insert(0, dict(DRAFT))
    out.sort(key=lambda v: v != DRAFT)  # stable: the draft first
    return out


def key_of(values: dict) -> str:
    return " ".join(f"{name}={values[name]}" for name in SPACE)


def options_of(values: dict) -> Options:
    return Options(**values)


def deal_seeds(study_seed: int, start: int, stop: int) -> list[int]:
    """Return deal seeds start..stop-1 of a search: the same for every variant (paired)."""
    return [chunk_seed(study_seed, number) for number in range(start, stop)]


def teams(bot: str) -> tuple[str, str]:
    return f"{bot}+random", f"{bot}+normal"


def play_task(values: dict, bot: str, seeds: Sequence[int]) -> list[tuple[float, ...]]:
    """Play one variant on some deal seeds and return its units (one a seed)."""
    a, b = teams(bot)
    return matchups.play_units(options_of(values), a, b, seeds)


# ----- the figures of a variant from its units ------------------------------------------------

_COLUMN = {name: index for index, name in enumerate(matchups.COLUMNS)}


def _per_game(units: Sequence[tuple[float, ...]], column: str) -> list[float]:
    index = _COLUMN[column]
    return [unit[index] / unit[_COLUMN["games"]] for unit in units]


def _normal(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = Z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, mean - half, mean + half


def quick_figures(units: Sequence[tuple[float, ...]]) -> dict:
    """Return the margin and win rate a game with 95% normal intervals over seeds (the stage's
    test), and the points and tricks a game."""
    margin = _normal(_per_game(units, "margin"))
    win = _normal(_per_game(units, "result"))
    points = [
        (u[_COLUMN["a_points"]] + u[_COLUMN["b_points"]]) / u[_COLUMN["games"]] for u in units
    ]
    return {
        "margin": margin,
        "win_rate": win,
        "points": statistics.fmean(points),
        "tricks": statistics.fmean(_per_game(units, "tricks")),
    }


def clearly_out(figures: dict, band: dict) -> bool:
    """Return whether the margin's or the win rate's whole interval lies outside the band."""
    _, low, high = figures["margin"]
    if low > band["margin"] or high < -band["margin"]:
        return True
    _, low, high = figures["win_rate"]
    return low > band["high"] or high < band["low"]


def out_of_band(margin: float, win: float, band: dict) -> float:
    """Return how far estimates lie outside the band (0 inside), in points of margin a game."""
    return max(0.0, abs(margin) - band["margin"]) + WIN_WEIGHT * max(
        0.0, band["low"] - win, win - band["high"]
    )


def cost(figures: dict, draft: dict) -> float:
    """Return the relative change of points and of tricks a game against the draft."""
    points = abs(figures["points"] - draft["points"]) / draft["points"] if draft["points"] else 0
    tricks = abs(figures["tricks"] - draft["tricks"]) / draft["tricks"] if draft["tricks"] else 0
    return points + tricks


def score(figures: dict, draft: dict, band: dict) -> float:
    """Return the ranking score of a variant (lower is better): how far out of the band, plus
    its cost (a 5% change of length or scoring weighs as 0.05 points of margin out of band)."""
    return out_of_band(figures["margin"][0], figures["win_rate"][0], band) + cost(figures, draft)


def select(
    figures: dict[str, dict], draft_key: str, band: dict, keep: int
) -> tuple[list[str], list[str], list[str]]:
    """Return (kept, dropped as clearly out, dropped by halving) among the candidates (the
    draft is not one). If no candidate is left in reach of the band, the nearest `keep` stay,
    so the page can say how near the space comes."""
    draft = figures[draft_key]
    candidates = [key for key in figures if key != draft_key]
    ranked = sorted(candidates, key=lambda k: (score(figures[k], draft, band), k))
    out = [k for k in ranked if clearly_out(figures[k], band)]
    open_ = [k for k in ranked if k not in out]
    if not open_:
        kept = ranked[:keep]
        return kept, [k for k in out if k not in kept], []
    kept = open_[:keep]
    return kept, out, open_[keep:]


# ----- the search ----------------------------------------------------------------------------

Runner = Callable[[list[tuple[dict, list[int]]], str], list[list[tuple[float, ...]]]]


def run_in_process(tasks: list[tuple[dict, list[int]]], bot: str) -> list[list[tuple]]:
    return [play_task(values, bot, seeds) for values, seeds in tasks]


def stage_deals(first: int, stage: int) -> tuple[int, int]:
    """Return the deal numbers (start, stop) a stage adds (stage 0 first)."""
    return (0 if stage == 0 else first * GROWTH ** (stage - 1), first * GROWTH**stage)


def decide(units: dict[str, list], draft_key: str, band: dict) -> tuple[list, list, list]:
    """Return (kept, dropped clearly out, dropped by halving) after a stage: a third of the
    candidates (rounded up) at most go on."""
    figures = {key: quick_figures(rows) for key, rows in units.items()}
    keep = max(1, math.ceil((len(units) - 1) / GROWTH))
    return select(figures, draft_key, band, keep)


def settings_of(*, preview: bool, first_seeds=None, stages=None, space=None) -> dict:
    return {
        "space": space or (PREVIEW_SPACE if preview else SPACE),
        "first": first_seeds or (PREVIEW_FIRST_SEEDS if preview else FIRST_SEEDS),
        "stages": stages or (PREVIEW_STAGES if preview else STAGES),
    }


def search(
    *,
    bot: str = "greedy",
    seed: int = 0,
    band: dict | None = None,
    preview: bool = False,
    space: dict | None = None,
    first_seeds: int | None = None,
    stages: int | None = None,
    runner: Runner = run_in_process,
    resamples: int = matchups.BOOTSTRAP,
    stronger: str | None = None,
) -> dict:
    """Run the adaptive search and return its result (JSON-ready): the stages, the draft's
    figures, the ranked shortlist with intervals, costs and sentences, and every deal's unit of
    the shortlist and the draft (so a reader can recompute each figure). With `stronger` (a
    bot), the shortlist's best and the draft are played again with it (`strength_check`)."""
    band = dict(band or BAND)
    plan = settings_of(preview=preview, first_seeds=first_seeds, stages=stages, space=space)
    pool = variants(plan["space"])
    by_key = {key_of(v): v for v in pool}
    draft_key = key_of(DRAFT)
    alive = list(by_key)
    units: dict[str, list[tuple[float, ...]]] = {key: [] for key in alive}
    log = []
    for stage in range(plan["stages"]):
        start, stop = stage_deals(plan["first"], stage)
        new = deal_seeds(seed, start, stop)
        tasks = [(by_key[key], new) for key in alive]
        for key, rows in zip(alive, runner(tasks, bot), strict=True):
            units[key].extend(rows)
        entry = stage_entry(stage, stop, alive, log)
        if stage < plan["stages"] - 1:
            kept, out, halved = decide(units, draft_key, band)
            entry.update(kept=kept, dropped_out_of_band=out, dropped_halving=halved)
            for key in out + halved:
                units.pop(key)
            alive = [draft_key, *kept]
        log.append(entry)
    result = finish(
        by_key=by_key,
        units=units,
        band=band,
        bot=bot,
        seed=seed,
        preview=preview,
        plan=plan,
        log=log,
        resamples=resamples,
    )
    if stronger:
        keys, deals = check_plan(result)
        played = runner([(by_key[key], deal_seeds(seed, 0, deals)) for key in keys], stronger)
        strong_units = dict(zip(keys, played, strict=True))
        result["strength"] = strength_check(result, strong_units, bot=stronger, resamples=resamples)
    return result


def stage_entry(stage: int, stop: int, alive: list[str], log: list[dict]) -> dict:
    """Return a stage's line of the log: its deals in all, its candidates, the games so far."""
    played = log[-1]["games"] if log else 0
    start = log[-1]["deals"] if log else 0
    return {
        "stage": stage + 1,
        "deals": stop,
        "variants": len(alive) - 1,
        "games": played + 2 * (stop - start) * len(alive),
    }


def finish(*, by_key, units, band, bot, seed, preview, plan, log, resamples) -> dict:
    """Return the search's result from the last stage's units (every survivor and the draft)."""
    draft_key = key_of(DRAFT)
    draft_units = units[draft_key]
    rows = [_row(by_key[key], units[key], draft_units, band, seed, resamples) for key in units]
    draft_row = next(row for row in rows if row["key"] == draft_key)
    shortlist = [row for row in rows if row["key"] != draft_key]
    shortlist.sort(key=lambda r: (not r["in_band"], not r["sure"], r["score"], r["key"]))
    for rank, row in enumerate(shortlist, 1):
        row["rank"] = rank
    return {
        "kind": "touchdown-recommendation",
        "question": "random kick-offs against normal ones: which variants bring the edge into "
        "the band, at what cost to game length and points a game",
        "teams": list(teams(bot)),
        "bot": bot,
        "band": band,
        "seed": seed,
        "preview": preview,
        "space": {name: list(values) for name, values in plan["space"].items()},
        "stages": log,
        "games": log[-1]["games"] if log else 0,
        "draft": draft_row,
        "shortlist": shortlist,
        "units": {key: [list(u) for u in rows] for key, rows in units.items()},
        "unit_columns": list(matchups.COLUMNS),
        "deal_seeds": deal_seeds(seed, 0, len(draft_units)),
    }


def _paired(values: list[float], draft: list[float]) -> dict:
    diffs = [x - y for x, y in zip(values, draft, strict=True)]
    mean, low, high = _normal(diffs)
    return {"value": mean, "interval": [low, high]}


def _row(values, units, draft_units, band, seed, resamples) -> dict:
    figures = matchups.bootstrap(units, resamples=resamples, seed=seed)
    margin, win = figures["margin"], figures["win_rate"]
    quick, draft_quick = quick_figures(units), quick_figures(draft_units)

    def total_points(rows):
        return [
            (u[_COLUMN["a_points"]] + u[_COLUMN["b_points"]]) / u[_COLUMN["games"]] for u in rows
        ]

    in_band = out_of_band(margin["value"], win["value"], band) == 0
    interval = margin["interval"] or [margin["value"], margin["value"]]
    win_interval = win["interval"] or [win["value"], win["value"]]
    sure = (
        -band["margin"] <= interval[0] <= interval[1] <= band["margin"]
        and band["low"] <= win_interval[0] <= win_interval[1] <= band["high"]
    )
    return {
        "key": key_of(values),
        "values": dict(values),
        "changes": {name: value for name, value in values.items() if value != DRAFT[name]},
        "sentence": {"en": sentence(values, "en"), "ja": sentence(values, "ja")},
        "deals": len(units),
        "margin": {"value": margin["value"], "interval": margin["interval"]},
        "win_rate": {"value": win["value"], "interval": win["interval"]},
        "in_band": in_band,
        "sure": sure,
        "points_a_game": quick["points"],
        "points_change": _paired(total_points(units), total_points(draft_units)),
        "tricks_a_game": quick["tricks"],
        "tricks_change": _paired(_per_game(units, "tricks"), _per_game(draft_units, "tricks")),
        "score": score(quick, draft_quick, band),
        "counts": matchups.raw_counts(units),
    }


# ----- the sentences a designer pastes into draft 6 --------------------------------------------


def _onside(rolls: int, lang: str) -> str:
    if lang == "ja":
        if rolls == 0:
            return "オンサイドキックはなし（出目1も普通のランダムキック）"
        if rolls == 1:
            return "オンサイドキックは出目1で成功"
        return f"オンサイドキックは出目1〜{rolls}で成功"
    if rolls == 0:
        return "no onside kick (a roll of 1 is an ordinary random kick)"
    if rolls == 1:
        return "onside succeeds on a roll of 1"
    return f"onside succeeds on a roll of 1 to {rolls}"


def _part(name: str, value: int, lang: str) -> str:
    ja = lang == "ja"
    if name == "onside_rolls":
        return _onside(value, lang)
    if name == "onside_ball":
        return (
            f"オンサイドキック成功後のボールは「{value}」"
            if ja
            else f"after an onside kick the ball goes to {value}"
        )
    if name == "normal_kick_ball":
        return (
            f"ノーマルキックは攻撃チームの「{value}」の位置"
            if ja
            else f"a normal kick puts the ball at {value}"
        )
    if name == "random_kick_base":
        return (
            f"ランダムキックは攻撃チームの”{value}＋出目”のマス"
            if ja
            else f"a random kick puts the ball at {value} + the roll"
        )
    if name == "kick_floor":
        return (
            f"オンサイドでないランダムキックのボールは最低「{value}」（キック最低保証）"
            if ja
            else f"a random kick that is not onside lands at {value} or further "
            "(the minimum-kick guarantee)"
        )
    if name == "guarantee_heroes":
        return (
            f"キック最低保証（ボールは最低「7」）は10人中{value}人のヒーローのスキル"
            if ja
            else f"the minimum-kick guarantee (the ball at 7 or further) is a skill of {value} "
            "of the 10 heroes"
        )
    raise KeyError(name)


def sentence(values: dict, lang: str = "en") -> str:
    """Return the variant as a sentence for draft 6: each change from the draft, in the draft's
    terms ("onside succeeds on a roll of 1 to 2; after an onside kick the ball goes to 4")."""
    parts = [_part(name, values[name], lang) for name in SPACE if values[name] != DRAFT[name]]
    if lang == "ja":
        return "。".join(parts) + "。" if parts else "草案5のルールのまま。"
    return "; ".join(parts) + "." if parts else "keep the rules of draft 5."


# ----- a stronger player (issue #28 item 4): does the answer change with strength? -------------

STRONGER = "search"  # the determinised-rollout bot (play/touchdown/search.py)
# The shortlist's best variants and the draft are played again with the stronger bot on the
# first deals of the search (paired with the greedy games of the same deals). The search bot
# takes about 0.13 s a game against greedy's 0.0006, so it plays only where the answer is.
CHECK = {"top": 6, "deals": 100}
PREVIEW_CHECK = {"top": 4, "deals": 20}


def check_plan(result: dict) -> tuple[list[str], int]:
    """Return the variants (the draft first) the stronger player checks, and its deals."""
    plan = PREVIEW_CHECK if result["preview"] else CHECK
    keys = [row["key"] for row in result["shortlist"][: plan["top"]]]
    deals = min(plan["deals"], len(result["units"][result["draft"]["key"]]))
    return [result["draft"]["key"], *keys], deals


def _verdict(weaker: dict, stronger: dict, band: dict, shift: dict) -> str:
    """How the verdict of one variant moves from the greedy bots to the stronger player.

    "changes": in the band with greedy bots and clearly out with the stronger player (its whole
    interval outside), or out with greedy and surely in with the stronger; "shifts": the edge
    moves (the paired interval of the change excludes 0) but the verdict holds; else "holds".
    """
    out_strong = clearly_out(stronger["quick"], band)
    if weaker["in_band"] and out_strong:
        return "changes"
    if not weaker["in_band"] and stronger["sure"]:
        return "changes"
    low, high = shift["interval"]
    return "shifts" if low > 0 or high < 0 else "holds"


def strength_check(
    result: dict, units: dict[str, list], *, bot: str = STRONGER, resamples: int = 0
) -> dict:
    """Compare each checked variant's figures with the stronger player to its greedy ones on the
    same deals, and say first whether the answer changes with strength."""
    resamples = resamples or matchups.BOOTSTRAP
    band, seed = result["band"], result["seed"]
    draft_key = result["draft"]["key"]
    rows_by_key = {row["key"]: row for row in [result["draft"], *result["shortlist"]]}
    deals = len(units[draft_key])
    rows = []
    for key, stronger_units in units.items():
        base = rows_by_key[key]
        stronger = _row(base["values"], stronger_units, units[draft_key], band, seed, resamples)
        stronger["quick"] = quick_figures(stronger_units)
        weaker = [tuple(u) for u in result["units"][key][:deals]]
        shift = _paired(_per_game(stronger_units, "margin"), _per_game(weaker, "margin"))
        verdict = _verdict(base, stronger, band, shift)
        stronger.pop("quick")
        rows.append(
            {
                "key": key,
                "rank": base.get("rank"),
                "draft": key == draft_key,
                "sentence": base["sentence"],
                "weaker": {
                    "margin": base["margin"],
                    "win_rate": base["win_rate"],
                    "in_band": base["in_band"],
                    "sure": base["sure"],
                },
                "stronger": stronger,
                "margin_shift": shift,
                "verdict": verdict,
            }
        )
    changed = [row for row in rows if row["verdict"] == "changes"]
    return {
        # every deal's unit of the stronger player's games (matchups.COLUMNS), to recompute
        "units": {key: [list(u) for u in rows] for key, rows in units.items()},
        "bot": bot,
        "teams": list(teams(bot)),
        "deals": deals,
        "games": 2 * deals * len(units),
        "rows": rows,
        "changed": [row["key"] for row in changed],
        "headline": {lang: _headline(changed, rows, deals, bot, lang) for lang in ("en", "ja")},
    }


def _headline(changed: list[dict], rows: list[dict], deals: int, bot: str, lang: str) -> str:
    checked = len(rows) - 1  # the draft aside
    if lang == "ja":
        bot = {"search": "探索", "greedy": "貪欲", "random": "ランダム"}.get(bot, bot)
        if not changed:
            return (
                f"強いプレイヤー（{bot} ボット）でも答えは変わりません：上位 {checked} 案と"
                f"草案5を同じ {deals} 配札で遊び直し、バンドの内外の判定はどれも同じでした。"
            )
        names = "／".join(row["sentence"]["ja"] for row in changed)
        return (
            f"強いプレイヤー（{bot} ボット）では答えが変わります：{len(changed)} 案の判定が"
            f"変わりました（{names}）。下の表で、どのボットで何が変わるかを確かめてください。"
        )
    if not changed:
        return (
            f"The answer does not change with a stronger player ({bot} bots): the top "
            f"{checked} variants and draft 5, replayed on the same {deals} deals, keep their "
            "verdict in or out of the band."
        )
    names = " / ".join(row["sentence"]["en"] for row in changed)
    return (
        f"The answer changes with a stronger player ({bot} bots): {len(changed)} verdicts "
        f"change ({names}). The table below shows what changes with which bots."
    )


# ----- running a stage's tasks in a pool ---------------------------------------------------------

PIECE = 50  # deal seeds a pool task (a batch chunk's size)


def _play_piece(piece: tuple[dict, str, list[int]]) -> list[tuple[float, ...]]:
    values, bot, seeds = piece
    return play_task(values, bot, seeds)


def pool_runner(map_: Callable) -> Runner:
    """Return a runner that plays a stage's tasks in pieces of PIECE seeds through `map_` (a
    pool's imap, in order); the units are the same as in-process."""

    def run(tasks: list[tuple[dict, list[int]]], bot: str) -> list[list[tuple]]:
        pieces, owners = [], []
        for number, (values, seeds) in enumerate(tasks):
            for start in range(0, len(seeds), PIECE):
                pieces.append((values, bot, seeds[start : start + PIECE]))
                owners.append(number)
        out: list[list[tuple]] = [[] for _ in tasks]
        for number, rows in zip(owners, map_(_play_piece, pieces), strict=True):
            out[number].extend(rows)
        return out

    return run


# ----- downloads: the shortlist with raw counts, and every deal ---------------------------------

SHORTLIST_COLUMNS = (
    "rank",
    "variant",
    "sentence_en",
    "sentence_ja",
    "deals",
    "margin",
    "margin_low",
    "margin_high",
    "win_rate",
    "win_low",
    "win_high",
    "in_band",
    "sure",
    "points_a_game",
    "points_change",
    "points_change_low",
    "points_change_high",
    "tricks_a_game",
    "tricks_change",
    "tricks_change_low",
    "tricks_change_high",
    "games",
    "wins",
    "draws",
    "losses",
    "points_for",
    "points_against",
    "tricks",
    "drives",
)


def _csv_row(row: dict, rank: object) -> list[object]:
    def pair(figure):
        interval = figure.get("interval") or [None, None]
        return [figure["value"], *interval]

    counts = row["counts"]
    return [
        rank,
        row["key"],
        row["sentence"]["en"],
        row["sentence"]["ja"],
        row["deals"],
        *pair(row["margin"]),
        *pair(row["win_rate"]),
        row["in_band"],
        row["sure"],
        row["points_a_game"],
        *pair(row["points_change"]),
        row["tricks_a_game"],
        *pair(row["tricks_change"]),
        *(counts[name] for name in ("games", "wins", "draws", "losses")),
        *(counts[name] for name in ("points_for", "points_against", "tricks", "drives")),
    ]


def shortlist_csv(result: dict) -> str:
    """Return the shortlist (the draft first, rank "draft") as CSV with the raw counts."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SHORTLIST_COLUMNS)
    writer.writerow(_csv_row(result["draft"], "draft"))
    for row in result["shortlist"]:
        writer.writerow(_csv_row(row, row["rank"]))
    return out.getvalue()


def deals_csv(result: dict) -> str:
    """Return every deal of the draft and the shortlist: variant, deal seed and its unit (two
    games, seats swapped: sums, matchups.COLUMNS), from which each figure can be recomputed."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["variant", "seed", *result["unit_columns"]])
    for key, rows in result["units"].items():
        for seed, unit in zip(result["deal_seeds"], rows, strict=True):
            writer.writerow([key, seed, *unit])
    return out.getvalue()


def markdown(result: dict) -> str:
    """Return the shortlist as a Markdown table a designer can paste (English and Japanese)."""

    def text(figure: dict, fmt: str) -> str:
        interval = figure.get("interval")
        out = fmt.format(figure["value"])
        return out + (" [" + ", ".join(fmt.format(x) for x in interval) + "]" if interval else "")

    band = result["band"]
    lines = [
        f"## Recommendation ({result['bot']} bots): random kick-offs against normal ones",
        "",
    ]
    check = result.get("strength")
    if check:  # said first: whether the answer changes with a stronger player
        lines += [f"**{check['headline']['en']}**", "", f"**{check['headline']['ja']}**", ""]
    lines += [
        f"Band: |points margin| ≤ {band['margin']} a game, win rate {band['low']}–{band['high']}."
        f" {result['games']:,} games, {len(result['stages'])} stages"
        f"{' (a quick preview)' if result['preview'] else ''}; 95% intervals; costs against "
        "draft 5 on the same deals.",
        "",
        "| # | change (English) | 変更（日本語） | margin a game | win rate | in band "
        "| points a game vs draft | tricks a game vs draft |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in [result["draft"], *result["shortlist"]]:
        lines.append(
            f"| {row.get('rank', 'draft 5')} | {row['sentence']['en']} | {row['sentence']['ja']} | "
            f"{text(row['margin'], '{:+.2f}')} | {text(row['win_rate'], '{:.3f}')} | "
            f"{'sure' if row['sure'] else 'yes' if row['in_band'] else 'no'} | "
            f"{text(row['points_change'], '{:+.2f}')} | {text(row['tricks_change'], '{:+.2f}')} |"
        )
    return "\n".join(lines) + "\n"
