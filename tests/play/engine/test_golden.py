"""Golden logs: the same seeds, decks, policies and options give byte-for-byte the same logs.

Two editions of the rules (R-PLAY-4 `empty_timing`, R-DRAW-2 `deck_out`):

- First edition (`ends_phase`, `any_draw`, written as first-edition logs): the SHA-256 digests
  were taken before the engine was first optimised, and before the second edition existed. They
  prove that an old log is still reproduced exactly (so it still replays).
- Second edition (the defaults): regenerated deliberately when a rule or a bot changes, with
  `.venv/bin/python -m tests.play.engine.test_golden write` (say why in the commit). The file
  `golden/second-edition.json` holds one digest per match, and `golden/<case>.json.gz` the
  whole logs of each case's first matches, so a failure names the first match that differs and,
  where its log is stored, the first event that differs (expected and got).
"""

import gzip
import hashlib
import json
import sys
from pathlib import Path

import pytest

from play.engine.options import Options
from play.engine.runner import play_match
from play.engine.testing import sample_side_deck

DECK_SEEDS = (1, 2, 3, 5, 8, 13, 21)
DECKS = [sample_side_deck(seed) for seed in DECK_SEEDS]
GOLDEN_DIR = Path(__file__).with_name("golden")
STORED_LOGS = 2  # whole logs stored for the first matches of each second-edition case
FIRST = {"empty_timing": "ends_phase", "deck_out": "any_draw"}

FIRST_EDITION = {  # name: (policy A, policy B, options, seeds)
    "greedy-greedy": ("greedy", "greedy", Options(**FIRST), range(40)),
    "greedy-random": ("greedy", "random", Options(**FIRST), range(40)),
    "greedy-passive": ("greedy", "passive", Options(**FIRST), range(40)),
    "random-random": ("random", "random", Options(**FIRST), range(40)),
    "random-greedy-keep-hands": (
        "random",
        "greedy",
        Options(halftime_keep_hands=True, max_back_passes=1, **FIRST),
        range(100, 115),
    ),
    "greedy-random-no-back-pass": (
        "greedy",
        "random",
        Options(max_back_passes=0, **FIRST),
        range(15),
    ),
    "passive-passive": ("passive", "passive", Options(**FIRST), range(6)),
}

FIRST_EDITION_GOLDEN = {  # name: (logs digest, outcomes digest); taken before any optimisation
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

SECOND_EDITION = {  # name: (policy A, policy B, options, seeds); Options() is the second edition
    "greedy-greedy": ("greedy", "greedy", Options(), range(30)),
    "greedy-random": ("greedy", "random", Options(), range(30)),
    "greedy-passive": ("greedy", "passive", Options(), range(30)),
    "random-random": ("random", "random", Options(), range(30)),
    "random-greedy-keep-hands": (
        "random",
        "greedy",
        Options(halftime_keep_hands=True, max_back_passes=1),
        range(100, 112),
    ),
    "greedy-random-no-back-pass": ("greedy", "random", Options(max_back_passes=0), range(12)),
    "passive-passive": ("passive", "passive", Options(), range(6)),
    "mixed-ends-phase-draw-phase": (
        "greedy",
        "random",
        Options(empty_timing="ends_phase"),
        range(10),
    ),
    "mixed-passes-any-draw": ("random", "greedy", Options(deck_out="any_draw"), range(10)),
}


def _play(case, seed: int, *, log: bool, first_edition_log: bool = False):
    policy_a, policy_b, options, _ = case
    return play_match(
        DECKS[seed % len(DECKS)],
        DECKS[(seed * 3 + 1) % len(DECKS)],
        policy_a=policy_a,
        policy_b=policy_b,
        seed=seed,
        options=options,
        log=log,
        first_edition_log=first_edition_log,
    )


def _both(case, seed: int, *, first_edition_log: bool = False) -> tuple[str, str]:
    """Return the JSON of one match's log and of its outcome (checked equal without a log)."""
    logged = _play(case, seed, log=True, first_edition_log=first_edition_log)
    fast = _play(case, seed, log=False)
    outcome = json.dumps(logged.to_dict())
    assert json.dumps(fast.to_dict()) == outcome, f"seed {seed}: log=False gives another outcome"
    return json.dumps(logged.log), outcome


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(FIRST_EDITION))
def test_first_edition_matches_give_the_same_logs_as_before_the_second_edition(name):
    logs = hashlib.sha256()
    outcomes = hashlib.sha256()
    for seed in FIRST_EDITION[name][3]:
        log, outcome = _both(FIRST_EDITION[name], seed, first_edition_log=True)
        logs.update(log.encode())
        outcomes.update(outcome.encode())
    assert (logs.hexdigest(), outcomes.hexdigest()) == FIRST_EDITION_GOLDEN[name]


def first_difference(expected: dict, got: dict) -> str:
    """Return a readable account of the first place two logs differ."""
    for key in ("format", "version", "seed", "rules", "sides", "cards"):
        if expected.get(key) != got.get(key):
            return f"{key!r} differs: expected {expected.get(key)!r}, got {got.get(key)!r}"
    for index, (a, b) in enumerate(zip(expected["events"], got["events"], strict=False)):
        if a != b:
            return f"event {index} differs:\n  expected {a!r}\n  got      {b!r}"
    if len(expected["events"]) != len(got["events"]):
        return f"{len(expected['events'])} events expected, {len(got['events'])} written"
    return f"'result' differs: expected {expected['result']!r}, got {got['result']!r}"


def _stored(name: str) -> dict[str, dict]:
    path = GOLDEN_DIR / f"{name}.json.gz"
    return json.loads(gzip.decompress(path.read_bytes())) if path.exists() else {}


@pytest.mark.parametrize("name", sorted(SECOND_EDITION))
def test_second_edition_matches_give_the_golden_logs_and_outcomes(name):
    golden = json.loads((GOLDEN_DIR / "second-edition.json").read_text())[name]
    for seed in SECOND_EDITION[name][3]:
        log, outcome = _both(SECOND_EDITION[name], seed)
        if [_sha(log), _sha(outcome)] == golden[str(seed)]:
            continue
        stored = _stored(name).get(str(seed))
        where = (
            first_difference(stored, json.loads(log))
            if stored is not None
            else "(its whole log is not stored; compare with the engine before the change)"
        )
        pytest.fail(f"{name}, seed {seed}: the log or outcome differs from the golden one; {where}")


def test_a_golden_failure_names_the_first_differing_event():
    case = SECOND_EDITION["greedy-random"]
    log = json.loads(_both(case, 0)[0])
    changed = json.loads(json.dumps(log))
    changed["events"][7]["turn"] = 99
    assert first_difference(log, changed).startswith("event 7 differs:")
    assert first_difference(log, log).startswith("'result' differs")


def write_goldens() -> None:
    """Regenerate the second edition's golden file and stored logs (a deliberate act)."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    digests = {}
    for name, case in SECOND_EDITION.items():
        digests[name] = {}
        stored = {}
        for index, seed in enumerate(case[3]):
            log, outcome = _both(case, seed)
            digests[name][str(seed)] = [_sha(log), _sha(outcome)]
            if index < STORED_LOGS:
                stored[str(seed)] = json.loads(log)
        data = gzip.compress(json.dumps(stored).encode(), compresslevel=9, mtime=0)
        (GOLDEN_DIR / f"{name}.json.gz").write_bytes(data)
    text = json.dumps(digests, indent=1, sort_keys=True) + "\n"
    (GOLDEN_DIR / "second-edition.json").write_text(text)


if __name__ == "__main__" and sys.argv[1:] == ["write"]:
    write_goldens()
