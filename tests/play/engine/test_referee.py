"""The independent referee accepts engine logs and rejects every kind of tampering."""

import copy

import pytest

from play.engine.log import log_errors, log_validator
from play.engine.runner import play_match
from play.engine.testing import sample_side_deck

from .referee import RefereeError, check_log


def find_log(predicate, policies=("greedy", "random")):
    for seed in range(200):
        log = play_match(
            sample_side_deck(seed),
            sample_side_deck(seed + 77),
            policy_a=policies[0],
            policy_b=policies[1],
            seed=seed,
        ).log
        if predicate(log):
            return log
    raise AssertionError("no such log in 200 seeds")


def rich(log):
    kinds = {e["type"] for e in log["events"]}
    judged = {e.get("outcome") for e in log["events"] if e["type"] == "judge"}
    return {"effect", "pk_kick", "goal"} <= kinds and {"corner_kick", "swap"} <= judged


@pytest.fixture(scope="session")  # found once per process (xdist runs this module in parts)
def log():
    return find_log(rich)


def tamper(log, kind, change, nth=0):
    """Return a copy of the log with `change` applied to its nth event of type `kind`."""
    tampered = copy.deepcopy(log)
    matching = [e for e in tampered["events"] if e["type"] == kind and change(e, test=True)]
    change(matching[nth], test=False)
    return tampered


def test_the_referee_accepts_the_engine_log(log):
    check_log(log)


def edit(field, value):
    def change(event, test):
        if test:
            return field in event and event[field] != value
        event[field] = value

    return change


def bump_totals(event, test):
    if not test:
        event["totals"]["A"]["keep"] += 1
    return True


def bump_delta(event, test):
    if not test:
        event["delta"][event["side"]]["shoot"] += 1
    return True


def other_card(event, test):
    if test:
        return bool(event["cards"])
    event["cards"][0] = "SMP-001" if event["cards"][0] != "SMP-001" else "SMP-002"


def extra_card(event, test):
    if not test:
        event["cards"].append("SMP-999")
    return True


def flip(field):
    def change(event, test):
        if not test:
            event[field] = not event[field]
        return True

    return change


def move_ball(event, test):
    if not test:
        event["ball"] = {"zone": (event["ball"]["zone"] + 1) % 5, "arrow": event["ball"]["arrow"]}
    return True


def swap_side(event, test):
    if not test:
        event["side"] = "B" if event["side"] == "A" else "A"
    return True


def bump_score(event, test):
    if not test:
        event["score"]["A"] += 1
    return True


def bump(field):
    def change(event, test):
        if not test:
            event[field] += 1
        return True

    return change


def rotate_hand(event, test):
    if test:
        return len(set(event["hands"]["A"])) > 1
    event["hands"]["A"] = event["hands"]["A"][1:] + event["hands"]["A"][:1]


TAMPERING = [
    ("draw", other_card),
    ("draw", bump("deck_count")),
    ("draw", edit("reason", "effect")),
    ("turn_start", edit("offense", "B")),
    ("turn_start", edit("pending", "corner_kick")),
    ("turn_start", rotate_hand),
    ("turn_start", bump("turn")),
    ("kick", edit("case", "advance")),
    ("kick", move_ball),
    ("kick", flip("shot")),
    ("play", bump_totals),
    ("play", extra_card),
    ("play", bump("player_cards_this_turn")),
    ("play", swap_side),
    ("effect", bump_delta),
    ("play_end", edit("reason", "timings_done")),
    ("play_end", bump("timing")),
    ("judge", edit("outcome", "hold")),
    ("judge", edit("outcome", "goal")),
    ("goal", bump_score),
    ("discard", other_card),
    ("half_end", swap_side),
    ("half_start", edit("kickoff", "A")),
    ("half_start", edit("kickoff", "B")),
    ("pk_kick", flip("scored")),
    ("pk_kick", bump("shoot")),
    ("match_end", edit("winner", "nobody")),
]


@pytest.mark.parametrize(("kind", "change"), TAMPERING)
def test_the_referee_rejects_a_tampered_event(log, kind, change):
    try:
        tampered = tamper(log, kind, change)
    except IndexError:
        pytest.skip(f"no {kind} event can take this change")
    if tampered == log:
        pytest.skip("the change made no difference")
    with pytest.raises(RefereeError):
        check_log(tampered)


@pytest.mark.parametrize("kind", ["play_end", "discard", "draw", "goal", "effect", "turn_start"])
def test_the_referee_rejects_a_log_missing_an_event(log, kind):
    tampered = copy.deepcopy(log)
    index = next(i for i, e in enumerate(tampered["events"]) if e["type"] == kind)
    del tampered["events"][index]
    with pytest.raises(RefereeError):
        check_log(tampered)


def test_the_referee_rejects_a_changed_result(log):
    tampered = copy.deepcopy(log)
    tampered["result"]["winner"] = "B" if log["result"]["winner"] == "A" else "A"
    with pytest.raises(RefereeError, match="result"):
        check_log(tampered)


def test_the_referee_rejects_a_shot_beyond_the_back_pass_limit():
    log = find_log(
        lambda log: any(e.get("choice") == "back_pass" for e in log["events"]),
        policies=("random", "random"),
    )
    tampered = copy.deepcopy(log)
    tampered["rules"]["house"]["max_back_passes"] = 0
    with pytest.raises(RefereeError, match="choice back_pass|forced flag"):
        check_log(tampered)


def test_fast_validation_finds_what_the_full_schema_finds():
    log = play_match(
        sample_side_deck(1), sample_side_deck(2), policy_a="random", policy_b="random", seed=1
    ).log
    assert log_errors(log) == [] and log_validator().is_valid(log)
    broken = copy.deepcopy(log)
    broken["events"][3]["type"] = "nap"
    broken["events"][4]["half"] = 3
    broken["seed"] = "x"
    assert len(log_errors(broken)) == 3
    assert not log_validator().is_valid(broken)
