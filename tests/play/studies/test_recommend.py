"""The adaptive recommendation (issue #28 item 1): play/studies/recommend.py."""

import csv
import io
import math

import pytest

from play.studies import recommend
from play.touchdown import matchups

SMALL = {
    "onside_rolls": (1, 0, 2),
    "onside_ball": (0, 4),
    "normal_kick_ball": (8,),
    "random_kick_base": (3,),
    "kick_floor": (0, 7),
    "guarantee_heroes": (0, 5),
}


@pytest.fixture(scope="module")
def small():
    return recommend.search(seed=5, space=SMALL, first_seeds=6, stages=2, resamples=200)


def test_the_same_seed_gives_the_same_search_and_another_seed_other_deals(small):
    again = recommend.search(seed=5, space=SMALL, first_seeds=6, stages=2, resamples=200)
    assert again == small
    assert recommend.deal_seeds(6, 0, 6) != recommend.deal_seeds(5, 0, 6)
    assert small["deal_seeds"] == recommend.deal_seeds(5, 0, 18)  # stage 2: 6 x 3 deals


def test_the_space_leaves_out_variants_that_play_alike():
    pool = recommend.variants(SMALL)
    assert pool[0] == recommend.DRAFT
    assert all(v["onside_ball"] == 0 for v in pool if v["onside_rolls"] == 0)
    assert not any(v["kick_floor"] == 7 and v["guarantee_heroes"] for v in pool)
    assert len(pool) == len({recommend.key_of(v) for v in pool}) == (1 + 2 * 2) * 3
    assert len(recommend.variants(recommend.SPACE)) == 168


def test_a_stage_spends_the_next_deals_on_a_third_and_the_draft(small):
    first, last = small["stages"]
    assert first["variants"] == len(recommend.variants(SMALL)) - 1
    dropped = first["dropped_out_of_band"] + first["dropped_halving"]
    assert len(first["kept"]) + len(dropped) == first["variants"]
    assert len(first["kept"]) == math.ceil(first["variants"] / 3)
    assert last["variants"] == len(first["kept"])
    assert {row["key"] for row in small["shortlist"]} == set(first["kept"])
    assert all(row["deals"] == 18 for row in [small["draft"], *small["shortlist"]])


def _figures(margin, half, win=0.5, win_half=0.02, points=12.0, tricks=17.0):
    return {
        "margin": (margin, margin - half, margin + half),
        "win_rate": (win, win - win_half, win + win_half),
        "points": points,
        "tricks": tricks,
    }


def test_a_clearly_out_variant_is_dropped_before_a_worse_scored_open_one():
    band = recommend.BAND
    figures = {
        "draft": _figures(0.4, 0.2),
        "inside": _figures(0.02, 0.05),
        "clearly_out": _figures(0.5, 0.1),  # the whole interval is above 0.1
        "open": _figures(0.6, 0.8, points=15.0),  # further off, but the interval reaches in
    }
    assert recommend.clearly_out(figures["clearly_out"], band)
    assert not recommend.clearly_out(figures["open"], band)
    score = recommend.score
    assert score(figures["clearly_out"], figures["draft"], band) < score(
        figures["open"], figures["draft"], band
    )
    kept, out, halved = recommend.select(figures, "draft", band, keep=2)
    assert (kept, out, halved) == (["inside", "open"], ["clearly_out"], [])
    kept, out, halved = recommend.select(figures, "draft", band, keep=1)
    assert (kept, out, halved) == (["inside"], ["clearly_out"], ["open"])
    # a win rate wholly below the band is out too, whatever the margin
    assert recommend.clearly_out(_figures(0.0, 0.05, win=0.40), band)


def test_the_band_is_the_designers(small):
    band = {"margin": 0.1, "low": 0.48, "high": 0.52}
    assert recommend.out_of_band(0.1, 0.48, band) == 0
    assert recommend.out_of_band(-0.1, 0.52, band) == 0
    assert recommend.out_of_band(0.15, 0.5, band) == pytest.approx(0.05)
    assert recommend.out_of_band(0.0, 0.53, band) == pytest.approx(0.1)
    for row in small["shortlist"]:
        margin, win = row["margin"]["value"], row["win_rate"]["value"]
        assert row["in_band"] == (abs(margin) <= 0.1 and 0.48 <= win <= 0.52)
        if row["sure"]:
            assert row["in_band"]
    flags = [(not r["in_band"], not r["sure"]) for r in small["shortlist"]]
    assert flags == sorted(flags)  # in the band first, sure first


def test_the_sentence_of_a_known_variant():
    values = {
        **recommend.DRAFT,
        "onside_rolls": 2,
        "onside_ball": 4,
        "guarantee_heroes": 5,
    }
    assert recommend.sentence(values, "en") == (
        "onside succeeds on a roll of 1 to 2; after an onside kick the ball goes to 4; "
        "the minimum-kick guarantee (the ball at 7 or further) is a skill of 5 of the 10 heroes."
    )
    assert recommend.sentence(values, "ja") == (
        "オンサイドキックは出目1〜2で成功。オンサイドキック成功後のボールは「4」。"
        "キック最低保証（ボールは最低「7」）は10人中5人のヒーローのスキル。"
    )
    assert recommend.sentence(recommend.DRAFT, "en") == "keep the rules of draft 5."
    no_onside = {**recommend.DRAFT, "onside_rolls": 0, "normal_kick_ball": 9, "kick_floor": 7}
    assert recommend.sentence(no_onside, "en") == (
        "no onside kick (a roll of 1 is an ordinary random kick); a normal kick puts the ball "
        "at 9; a random kick that is not onside lands at 7 or further (the minimum-kick "
        "guarantee)."
    )


def test_every_figure_is_recomputed_from_the_downloads(small):
    rows = list(csv.DictReader(io.StringIO(recommend.deals_csv(small))))
    columns = small["unit_columns"]
    by_variant = {}
    for row in rows:
        by_variant.setdefault(row["variant"], []).append(tuple(float(row[c]) for c in columns))
    shortlist = list(csv.DictReader(io.StringIO(recommend.shortlist_csv(small))))
    assert shortlist[0]["rank"] == "draft" and len(shortlist) == 1 + len(small["shortlist"])
    for line in shortlist:
        units = by_variant[line["variant"]]
        figures = matchups.bootstrap(units, resamples=200, seed=5)
        assert float(line["margin"]) == pytest.approx(figures["margin"]["value"])
        assert float(line["margin_low"]) == pytest.approx(figures["margin"]["interval"][0])
        assert float(line["win_high"]) == pytest.approx(figures["win_rate"]["interval"][1])
        counts = matchups.raw_counts(units)
        assert int(line["wins"]) == counts["wins"] and int(line["tricks"]) == counts["tricks"]
        assert float(line["points_a_game"]) == pytest.approx(
            (counts["points_for"] + counts["points_against"]) / counts["games"]
        )


def test_the_shortlisted_values_play_what_they_say(small):
    for row in small["shortlist"]:
        options = recommend.options_of(row["values"])
        assert {k: options.variant()[k] for k in row["values"]} == row["values"]


def test_a_pool_runner_gives_the_same_units_as_in_process(monkeypatch):
    monkeypatch.setattr(recommend, "PIECE", 2)  # 5 seeds: pieces of 2, 2 and 1
    tasks = [(recommend.DRAFT, recommend.deal_seeds(1, 0, 5))]
    assert recommend.pool_runner(map)(tasks, "greedy") == recommend.run_in_process(tasks, "greedy")


# ----- the stronger player's check (issue #28 item 4) -------------------------------------------


def _item(in_band, sure=False):
    return {"in_band": in_band, "sure": sure}


def _stronger(margin, low, high, win=(0.5, 0.45, 0.55), sure=False):
    return {"quick": {"margin": (margin, low, high), "win_rate": win}, "sure": sure}


BAND_ = {"margin": 0.1, "low": 0.48, "high": 0.52}
NO_SHIFT = {"value": 0.0, "interval": [-0.2, 0.2]}


def test_a_variant_in_the_band_that_falls_clearly_out_with_the_stronger_player_changes():
    assert recommend._verdict(_item(True), _stronger(0.5, 0.3, 0.7), BAND_, NO_SHIFT) == "changes"


def test_a_variant_out_of_the_band_that_is_surely_in_with_the_stronger_player_changes():
    stronger = _stronger(0.0, -0.05, 0.05, sure=True)
    assert recommend._verdict(_item(False), stronger, BAND_, NO_SHIFT) == "changes"


def test_a_moved_edge_with_the_same_verdict_shifts_and_noise_holds():
    moved = {"value": 0.3, "interval": [0.1, 0.5]}
    assert recommend._verdict(_item(True), _stronger(0.0, -0.3, 0.3), BAND_, moved) == "shifts"
    assert recommend._verdict(_item(True), _stronger(0.0, -0.3, 0.3), BAND_, NO_SHIFT) == "holds"


def test_the_check_replays_the_shortlists_best_with_the_stronger_bot_on_the_same_deals():
    wide = {"margin": 10.0, "low": 0.0, "high": 1.0}  # every variant in the band with greedy
    result = recommend.search(
        bot="greedy",
        seed=3,
        band=wide,
        preview=True,
        space=SMALL,
        first_seeds=4,
        stages=2,
        resamples=200,
    )
    keys, deals = recommend.check_plan(result)
    assert keys[0] == result["draft"]["key"] and deals == 12  # the search played 4, then 12
    # a planted stronger player whose games are the greedy ones, shifted by a whole point a deal
    column = recommend.matchups.COLUMNS.index("margin")
    planted = {}
    for key in keys:
        rows = [list(u) for u in result["units"][key][:deals]]
        for row in rows:
            row[column] += 30 * row[0]  # +30 points a game: clearly out of the band
        planted[key] = [tuple(r) for r in rows]
    check = recommend.strength_check(result, planted, bot="search", resamples=200)
    assert check["deals"] == 12 and len(check["rows"]) == len(keys)
    assert all(row["weaker"]["in_band"] for row in check["rows"])
    assert check["changed"] == keys  # every verdict changes, the draft's too
    assert check["headline"]["en"].startswith("The answer changes with a stronger player")
    assert "判定が変わりました" in check["headline"]["ja"]
    for row in check["rows"]:
        assert row["margin_shift"]["value"] == pytest.approx(30.0)
        # the download carries every deal's unit: the figure is recomputed from it
        units = [tuple(u) for u in check["units"][row["key"]]]
        assert units == planted[row["key"]]
        assert row["stronger"]["counts"] == recommend.matchups.raw_counts(units)
    # and the same games played as they are: nothing changes
    same = {key: [tuple(u) for u in result["units"][key][:deals]] for key in keys}
    check = recommend.strength_check(result, same, bot="greedy", resamples=200)
    assert check["changed"] == [] and check["headline"]["en"].startswith("The answer does not")
