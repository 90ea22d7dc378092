"""Golden logs: the same seeds, decks, policies and options give byte-for-byte the same logs.

Two editions of the rules (R-PLAY-4 `empty_timing`, R-DRAW-2 `deck_out`):

- First edition (`ends_phase`, `any_draw`): `golden/first-edition-logs.json.gz` holds logs the
  engine wrote before the second edition (two matches of each case below, with the bots of that
  time; the engine then still gave the digests taken before it was first optimised). They must
  replay byte for byte and pass the referee: old logs keep working.
- Second edition (the defaults): regenerated deliberately when a rule or a bot changes, with
  `.venv/bin/python -m tests.play.engine.test_golden write` (say why in the commit). The file
  `golden/second-edition.json` holds one digest per match, and `golden/<case>.json.xz` the
  whole log of every match, so a failure names the first match that differs and the first event
  that differs in it (expected and got), not only two digests.
"""

import gzip
import hashlib
import json
import lzma
import sys
from pathlib import Path

import pytest

from play.engine.log import validate_log
from play.engine.options import Options
from play.engine.runner import play_match, replay
from play.engine.testing import sample_side_deck

from .referee import check_log

pytestmark = pytest.mark.slow

DECK_SEEDS = (1, 2, 3, 5, 8, 13, 21)
DECKS = [sample_side_deck(seed) for seed in DECK_SEEDS]
GOLDEN_DIR = Path(__file__).with_name("golden")
FIRST = {"empty_timing": "ends_phase", "deck_out": "any_draw"}

FIRST_EDITION = {  # the cases the first-edition logs came from (bots of that time)
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


def _first_edition_logs() -> dict[str, dict]:
    return json.loads(gzip.decompress((GOLDEN_DIR / "first-edition-logs.json.gz").read_bytes()))


@pytest.mark.parametrize("key", sorted(_first_edition_logs()))
def test_first_edition_logs_still_replay_byte_for_byte_and_pass_the_referee(key):
    log = _first_edition_logs()[key]
    assert "empty_timing" not in log["rules"]["house"]  # written before the second edition
    match = replay(log)  # raises ReplayMismatch at the first event that differs
    assert match.options.edition == 1
    assert json.dumps(match.to_log()) == json.dumps(log)
    check_log(log)
    validate_log(log)


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
    """The whole second-edition logs of one case, by seed."""
    return json.loads(lzma.decompress((GOLDEN_DIR / f"{name}.json.xz").read_bytes()))


@pytest.mark.parametrize("name", sorted(SECOND_EDITION))
def test_second_edition_matches_give_the_golden_logs_and_outcomes(name):
    golden = json.loads((GOLDEN_DIR / "second-edition.json").read_text())[name]
    for seed in SECOND_EDITION[name][3]:
        log, outcome = _both(SECOND_EDITION[name], seed)
        if [_sha(log), _sha(outcome)] == golden[str(seed)]:
            continue
        where = first_difference(_stored(name)[str(seed)], json.loads(log))
        pytest.fail(f"{name}, seed {seed}: the log or outcome differs from the golden one; {where}")


@pytest.mark.parametrize("name", sorted(SECOND_EDITION))
def test_every_golden_match_has_its_whole_log_stored_and_it_gives_the_digest(name):
    """A failure can always show the first differing event: the stored logs are those the
    digests were taken of (regenerate both with `write`, never one alone)."""
    golden = json.loads((GOLDEN_DIR / "second-edition.json").read_text())[name]
    stored = _stored(name)
    assert sorted(stored, key=int) == [str(seed) for seed in SECOND_EDITION[name][3]]
    assert sorted(golden, key=int) == sorted(stored, key=int)
    for seed, log in stored.items():
        assert _sha(json.dumps(log)) == golden[seed][0], f"{name}, seed {seed}: stale stored log"


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
        for seed in case[3]:
            log, outcome = _both(case, seed)
            digests[name][str(seed)] = [_sha(log), _sha(outcome)]
            stored[str(seed)] = json.loads(log)
        data = lzma.compress(json.dumps(stored).encode(), preset=9)
        (GOLDEN_DIR / f"{name}.json.xz").write_bytes(data)
        (GOLDEN_DIR / f"{name}.json.gz").unlink(missing_ok=True)  # the earlier format
    text = json.dumps(digests, indent=1, sort_keys=True) + "\n"
    (GOLDEN_DIR / "second-edition.json").write_text(text)


if __name__ == "__main__" and sys.argv[1:] == ["write"]:
    write_goldens()
