"""Issue #29, "How it will be checked": an independent engine re-plays suggested swaps on fresh
seeds; a suggestion marked significant must hold.

A swaps batch (the compiled engine, the kind's candidates, pairing, halving and Holm) marks a
planted swap as standing; a separate process on the plain-Python engine
(tests/play/simulations/independent_replay.py: its own deck building and pairing, no
play.simulations code) re-plays deck A and the swapped deck on seeds of its own, none of them
the batch's, and the test checks the gain holds: its interval is above 0, and it agrees with the
batch's confirmation within their intervals."""

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from play.seeds import chunk_seed
from tests.play.simulations.inline import run_all
from tests.play.simulations.test_swaps import planted, swaps_batch  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
Z95 = 1.959963984540054
SEEDS_PER_DECK = 150


def batch_match_seeds(batch) -> set[int]:
    """Return every match seed the swaps batch played (its chunks' seeds, drawn as it draws)."""
    params = batch.params
    seeds = set()
    for chunk in batch.chunks.all():
        stage, _g0, _g1, number = params["plan"][chunk.index]
        crn = chunk_seed(params["crn_seed"], stage * 10**9 + chunk.opponent * 10**6 + number)
        rng = random.Random(crn)
        seeds.update(rng.getrandbits(63) for _ in range(chunk.runs))
    return seeds


def replay(sides, swap, in_card, *, salt: str, seeds: int, halftime: bool = False) -> dict:
    """Re-play a swap in a separate process on the plain-Python engine (independent_replay)."""
    request = {
        "base": sides[0],
        "swap": swap,
        "in_card": in_card,
        "field": sides[1:],
        "seeds": seeds,
        "salt": salt,
        "halftime": halftime,
    }
    done = subprocess.run(
        [sys.executable, "-m", "tests.play.simulations.independent_replay"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "ENGINE_PLAIN": "1"},
        timeout=900,
        check=True,
    )
    return json.loads(done.stdout)


def paired_interval(n, wins, swapped_wins, up_down):
    up, down = up_down
    mean = (up - down) / n
    var = ((up + down) / n - mean * mean) * n / (n - 1)
    se = math.sqrt(var / n)
    assert wins - swapped_wins == down - up
    return mean, se


def test_a_standing_swap_holds_on_fresh_seeds_in_an_independent_engine(alice, planted):  # noqa: F811
    deck, card = planted
    batch = run_all(
        swaps_batch(alice, deck, runs=80, out=["02-171"], **{"in": [card.id, "02-183"]})
    )
    standing = [row for row in batch.results["swaps"] if row["stands"]]
    assert standing, batch.results["swaps"]
    played = batch_match_seeds(batch)
    assert len(played) == sum(batch.chunks.values_list("runs", flat=True))  # all distinct
    for row in standing:
        swap = [row["out"], row["in"]]
        in_card = batch.params["in_cards"][swap[1]]
        result = replay(batch.sides, swap, in_card, salt=f"{batch.pk}:{swap}", seeds=SEEDS_PER_DECK)
        assert result["compiled"] is False  # the plain-Python engine, not the batch's build
        assert not played & set(result["seeds"])  # fresh seeds only
        n = result["pairs"]
        assert n == SEEDS_PER_DECK * len(batch.results["field"])
        up, down = result["up"], result["down"]
        mean, se = paired_interval(n, result["wins"], result["swapped_wins"], (up, down))
        low, high = mean - Z95 * se, mean + Z95 * se
        assert low > 0, (swap, mean, low, high)  # the gain holds on fresh seeds
        confirmed = row["confirmed"]
        c_low, c_high = confirmed["interval"]
        c_se = (c_high - c_low) / (2 * Z95)
        # the two estimates agree within their intervals (a two-sample z test at 95%)
        assert abs(mean - confirmed["difference"]) <= Z95 * math.hypot(se, c_se), (
            mean,
            confirmed,
        )
        assert c_low <= high and low <= c_high  # the intervals overlap
