"""The pure parts of batch simulations: chunk plans, seeds, merging, intervals."""

import random

import pytest

from play.seeds import chunk_seed
from play.simulations import core as simulation
from play.simulations import kinds


def test_a_batch_is_split_into_chunks_that_add_up_to_the_runs():
    specs = kinds.get("goldfish").plan(runs=1050, chunk_size=500, opponents=1)
    assert [(s.index, s.opponent, s.runs) for s in specs] == [(0, 1, 500), (1, 1, 500), (2, 1, 50)]


def test_a_gauntlet_plans_the_runs_for_every_opponent():
    specs = kinds.get("gauntlet").plan(runs=30, chunk_size=20, opponents=3)
    assert [(s.opponent, s.runs) for s in specs] == [
        (1, 20),
        (1, 10),
        (2, 20),
        (2, 10),
        (3, 20),
        (3, 10),
    ]
    assert [s.index for s in specs] == list(range(6))


def test_chunk_seeds_depend_only_on_the_batch_seed_and_index():
    assert chunk_seed(1, 0) == chunk_seed(1, 0)
    seeds = {chunk_seed(1, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert chunk_seed(1, 0) != chunk_seed(2, 0)
    assert all(0 <= s < 2**63 for s in seeds)


def test_merging_is_independent_of_order():
    parts = [
        {
            "runs": 3,
            "wins": {"A": 2, "B": 1},
            "goals": {"A": {"0": 1, "2": 2}},
            "turns": [{"5": 3}, {"6": 3}],
        },
        {
            "runs": 2,
            "wins": {"B": 2},
            "goals": {"A": {"0": 2, "10": 0}},
            "turns": [{"5": 1, "7": 1}, {"6": 2}],
        },
        {"runs": 1, "wins": {"A": 1}, "goals": {"A": {"1": 1}}, "turns": [{"4": 1}, {"6": 1}]},
    ]
    merged = simulation.merge_results(parts)
    for _ in range(10):
        shuffled = parts[:]
        random.shuffle(shuffled)
        assert simulation.merge_results(shuffled) == merged
    assert merged["runs"] == 6
    assert merged["wins"] == {"A": 3, "B": 3}
    assert list(merged["goals"]["A"]) == ["0", "1", "2", "10"]  # numeric order
    assert merged["turns"][0] == {"4": 1, "5": 4, "7": 1}


def test_wilson_interval_matches_known_values():
    low, high = simulation.wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4)
    assert high == pytest.approx(0.5962, abs=1e-4)
    assert simulation.wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert simulation.wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_of_a_histogram():
    assert simulation.mean_of({"0": 1, "2": 3}) == 1.5
    assert simulation.mean_of({}) == 0.0
