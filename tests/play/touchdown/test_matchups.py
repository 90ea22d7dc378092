"""Head-to-head match-ups and sweeps: figures match a direct computation over the same seeds."""

import pytest

from play.touchdown import Options
from play.touchdown.matchups import (
    bootstrap,
    difference,
    matchup,
    parse_option,
    play_units,
    strategy_table,
    sweep,
)
from play.touchdown.report import heat_map, strategy_csv, sweep_csv, sweep_markdown, verdict
from tests.play.touchdown.helpers import direct

SEEDS = range(12)
A, B = "greedy+random", "greedy+normal"


def test_head_to_head_figures_match_a_direct_computation_over_the_same_seeds():
    options = Options()
    figures = matchup(options, A, B, SEEDS, resamples=200).figures
    expected = direct(options, A, B, SEEDS)
    assert figures["games"]["value"] == expected["games"] == 24
    for name in ("win_rate", "margin", "random_share", "swing_per_random_kick", "onside_swing"):
        assert figures[name]["value"] == pytest.approx(expected[name]), name
    assert figures["random_share"]["value"] == 1.0


def test_intervals_are_bootstrapped_by_seed_and_hold_the_estimate():
    units = play_units(Options(), A, B, SEEDS)
    figures = bootstrap(units, resamples=300)
    for name in ("win_rate", "margin", "onside_swing"):
        low, high = figures[name]["interval"]
        assert low <= figures[name]["value"] <= high and low < high, name
    # resampling whole seeds: a sample of one identical seed repeated has no spread
    same = bootstrap([units[0]] * 12, resamples=100)
    low, high = same["margin"]["interval"]
    assert low == high == same["margin"]["value"]
    assert bootstrap(units, resamples=300) == figures  # seeded: the same intervals every run


def test_the_strategy_table_reads_each_pair_from_both_sides():
    rows = strategy_table(Options(), ["greedy", A, B], range(4), resamples=50)
    assert [(row["a"], row["b"]) for row in rows] == [
        ("greedy", A),
        (A, "greedy"),
        ("greedy", B),
        (B, "greedy"),
        (A, B),
        (B, A),
    ]
    ab, ba = rows[4]["figures"], rows[5]["figures"]
    assert ab["win_rate"]["value"] == pytest.approx(1 - ba["win_rate"]["value"])
    assert ab["margin"]["value"] == pytest.approx(-ba["margin"]["value"])
    assert (ab["random_share"]["value"], ba["random_share"]["value"]) == (1.0, 0.0)
    low, high = ab["margin"]["interval"]
    assert ba["margin"]["interval"] == pytest.approx([-high, -low])  # the same resamples
    direct_ba = matchup(Options(), B, A, range(4), resamples=50).figures  # the same games
    for name in ("win_rate", "margin", "random_share", "swing_per_random_kick", "onside_swing"):
        assert ba[name]["value"] == pytest.approx(direct_ba[name]["value"]), name
    assert strategy_csv(rows).splitlines()[0].startswith("a,b,games,win_rate,win_rate_low")


def test_a_sweep_plays_every_cell_and_tests_each_against_the_first():
    grid = [("random_kick_base", [3, 0]), ("kick_floor", [0, 8])]
    result = sweep(Options(), grid, range(6), resamples=100)
    assert [cell["values"] for cell in result["cells"]] == [
        {"random_kick_base": 3, "kick_floor": 0},
        {"random_kick_base": 3, "kick_floor": 8},
        {"random_kick_base": 0, "kick_floor": 0},
        {"random_kick_base": 0, "kick_floor": 8},
    ]
    first = result["cells"][0]
    assert first["difference"]["value"] == 0
    no_three = result["cells"][2]
    expected = matchup(Options(random_kick_base=0), A, B, range(6), resamples=10)
    assert no_three["figures"]["margin"]["value"] == expected.figures["margin"]["value"]
    assert no_three["difference"]["value"] == pytest.approx(
        no_three["figures"]["margin"]["value"] - first["figures"]["margin"]["value"]
    )
    assert 0 < no_three["difference"]["p"] <= 1
    assert len(heat_map(result)) == 3 and "random_kick_base \\ kick_floor" in heat_map(result)[0][0]
    assert "| random_kick_base | kick_floor |" in sweep_markdown(result)
    assert len(sweep_csv(result).splitlines()) == 5


def test_a_paired_difference_finds_a_real_change_and_not_a_null_one():
    seeds = range(40)
    draft = play_units(Options(), A, B, seeds)
    no_three = play_units(Options(random_kick_base=0), A, B, seeds)
    real = difference(draft, no_three, resamples=300)
    assert real["value"] < 0 and real["interval"][1] < 0 and real["p"] < 0.05
    null = difference(draft, draft, resamples=300)
    assert null["value"] == 0 and null["p"] == 1.0
    assert real["resamples"] == null["resamples"] == 300


def test_a_p_value_at_the_bootstrap_floor_says_so():
    from play.touchdown.report import p_text

    assert p_text({"p": 1 / 1000, "resamples": 1000}) == "≤ 0.001"
    assert p_text({"p": 1 / 300, "resamples": 300}) == "≤ 0.003333"
    assert p_text({"p": 0.004, "resamples": 1000}) == "0.004"
    assert p_text({"p": 0.0123}) == "0.012"  # a result stored before resamples were kept
    assert p_text({"p": None}) == "—"


def test_verdicts_need_the_interval_to_exclude_zero():
    assert verdict({"value": 0.4, "interval": [0.1, 0.7]}) == "pays"
    assert verdict({"value": -0.4, "interval": [-0.7, -0.1]}) == "costs"
    assert verdict({"value": 0.1, "interval": [-0.2, 0.4]}) == "unclear"


def test_option_values_from_the_command_line_are_checked():
    assert parse_option("kick_floor", "none") == 0
    assert parse_option("kick_floor", "8") == 8
    assert parse_option("kick_play_hand", "every_player") == "every_player"
    with pytest.raises(ValueError, match="Unknown option 'floor'"):
        parse_option("floor", "7")
    with pytest.raises(ValueError, match="kick_floor takes a whole number"):
        parse_option("kick_floor", "seven")


def test_batch_chunks_keep_units_by_seed_and_merge_to_the_same_figures():
    from play.touchdown.matchups import chunk_seeds, units_chunk, units_of

    seeds = chunk_seeds(7, 6)
    assert seeds == chunk_seeds(7, 6) and len(set(seeds)) == 6
    first, second = units_chunk(Options(), A, B, seeds[:3]), units_chunk(Options(), A, B, seeds[3:])
    merged = {"units": first["units"] | second["units"]}
    units = units_of(merged)
    assert len(units) == 6
    assert bootstrap(units, resamples=50) == bootstrap(
        play_units(Options(), A, B, sorted(seeds)), resamples=50
    )


def test_the_difference_matrix_equals_each_pairs_own_paired_test():
    from play.touchdown.matchups import differences

    variants = [
        play_units(Options(**changes), A, B, SEEDS)
        for changes in ({}, {"kick_floor": 8}, {"random_kick_base": 0})
    ]
    for statistic in ("margin", "win_rate", "swing_per_random_kick", "onside_swing"):
        matrix = differences(variants, statistic, resamples=200)
        for i, first in enumerate(variants):
            for j, second in enumerate(variants):
                assert matrix[i][j] == difference(first, second, statistic, resamples=200)
    assert matrix[0][0]["value"] == 0 and matrix[0][0]["p"] == 1.0
    with pytest.raises(ValueError, match="same seeds"):
        differences([variants[0], variants[1][:5]])
