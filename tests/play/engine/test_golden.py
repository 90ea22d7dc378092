"""Golden digests: the same seeds, decks, policies and options give byte-for-byte the same logs.

The digests were computed before the engine was optimised (see docs/engine.md, "Figures"); a
speed-up must not change a single shuffle, draw, policy choice or log byte. A digest covers 40
(or fewer) matches: `json.dumps` of each log and of each outcome's `to_dict()`, with and without
the log. A failure names the case; `_play(name, seed, log=True)` gives one of its matches, to
compare with the same call on the engine before the change.
"""

import hashlib
import json

import pytest

from play.engine.options import Options
from play.engine.runner import play_match
from play.engine.testing import sample_side_deck

DECK_SEEDS = (1, 2, 3, 5, 8, 13, 21)
DECKS = [sample_side_deck(seed) for seed in DECK_SEEDS]

CASES = {  # name: (policy A, policy B, options, seeds)
    "greedy-greedy": ("greedy", "greedy", Options(), range(40)),
    "greedy-random": ("greedy", "random", Options(), range(40)),
    "greedy-passive": ("greedy", "passive", Options(), range(40)),
    "random-random": ("random", "random", Options(), range(40)),
    "random-greedy-keep-hands": (
        "random",
        "greedy",
        Options(halftime_keep_hands=True, max_back_passes=1),
        range(100, 115),
    ),
    "greedy-random-no-back-pass": ("greedy", "random", Options(max_back_passes=0), range(15)),
    "passive-passive": ("passive", "passive", Options(), range(6)),
}

GOLDEN = {  # name: (logs digest, outcomes digest); computed before any optimisation
    "greedy-greedy": (
        "9582496ba13fcb28e6f5aa558f7bf45a3a3e615891b45d370619d26a9eee1b3c",
        "eb2407e84ae3c5ada1de781555c0ec4f800a7597cc0a397c967be822c385ac3d",
    ),
    "greedy-random": (
        "d704cd739e8ff7c4dfbde1dbba99e7d090575f47ce2b1a578dc122c85fbeed54",
        "d71dfacb6d5e21770035217d7c22d51bebf6c5860e2116ee025ac185e3a4f160",
    ),
    "greedy-passive": (
        "60c08375fbb222e7a40e13eb85814c29286e28f4913d7412c3ac13b5a48e043f",
        "89be7fa0fb48e817c7b6aff7ad787a6c753ae3809dbf3b6e059fb7c564c0ae56",
    ),
    "random-random": (
        "f281de83c597baf5ced732c34da21d385623e8d7a2189cc8f8d8a6d1a5ff0293",
        "7fcc237e05d65e4c0680f8b8ff5c46db1ca500618b6174cf77a2d6ad0307664a",
    ),
    "random-greedy-keep-hands": (
        "ff667b35663ad264131f1a7fa54e79ff144f0c4a24c2ce31d70605698c05d78d",
        "1fb838b790ae244d2f2e79b54fe98f9b7ecc917219402cad533bbe4998f4f90e",
    ),
    "greedy-random-no-back-pass": (
        "3f6fa0e5b2dbe73004b6cb87812543749e4d38531e09fd02d5a70dad4060bebe",
        "ee30aa0b35689a3045225860ce3b8a379b51dee2d3a0942e6af597190ab1943c",
    ),
    "passive-passive": (
        "8efb1373e1f6b31d0ce5199a025e5dd3bfcb9faae0032921995467f385228de7",
        "3460ec84a7dbe37ca2ce54eb060e8c67724f16f7f7c1ba96e6979f00a0903a5e",
    ),
}


def _play(name: str, seed: int, *, log: bool):
    policy_a, policy_b, options, _ = CASES[name]
    return play_match(
        DECKS[seed % len(DECKS)],
        DECKS[(seed * 3 + 1) % len(DECKS)],
        policy_a=policy_a,
        policy_b=policy_b,
        seed=seed,
        options=options,
        log=log,
    )


def _digests(name: str) -> tuple[str, str]:
    logs = hashlib.sha256()
    outcomes = hashlib.sha256()
    for seed in CASES[name][3]:
        logged = _play(name, seed, log=True)
        fast = _play(name, seed, log=False)
        outcome = json.dumps(logged.to_dict())
        assert json.dumps(fast.to_dict()) == outcome, f"{name}, seed {seed}: log=False differs"
        logs.update(json.dumps(logged.log).encode())
        outcomes.update(outcome.encode())
    return logs.hexdigest(), outcomes.hexdigest()


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_give_the_same_logs_and_outcomes_as_before_optimising(name):
    assert _digests(name) == GOLDEN[name]
