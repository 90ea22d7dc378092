"""Property tests over many seeds, random legal decks, every policy pair and the options, under
both editions of the rules (R-PLAY-4 `empty_timing`, R-DRAW-2 `deck_out`) and their mixes."""

import json
from collections import Counter
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play.engine.log import validate_log
from play.engine.options import HAND_SIZE, Options
from play.engine.runner import MatchStalled, play_match, replay
from play.engine.testing import sample_side_deck

from .referee import check_log

pytestmark = pytest.mark.slow

PAIRS = list(product(("random", "greedy", "passive"), repeat=2))

matches = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "deck_a": st.integers(0, 10**6),
        "deck_b": st.integers(0, 10**6),
        "policies": st.sampled_from(PAIRS),
        "options": st.builds(
            Options,
            halftime_keep_hands=st.booleans(),
            max_back_passes=st.sampled_from([0, 1, 3, 6]),
            empty_timing=st.sampled_from(["passes", "ends_phase"]),
            deck_out=st.sampled_from(["draw_phase", "any_draw"]),
        ),
    }
)


def play(case, log=True):
    return play_match(
        sample_side_deck(case["deck_a"]),
        sample_side_deck(case["deck_b"]),
        policy_a=case["policies"][0],
        policy_b=case["policies"][1],
        seed=case["seed"],
        options=case["options"],
        log=log,
    )


def check_conservation_and_hands(log):
    """No card is created, lost or duplicated; no draw takes a hand past what a rule allows."""
    owned = {side: Counter(log["sides"][side]["deck"]) for side in "AB"}
    discard = {"A": Counter(), "B": Counter()}
    for event in log["events"]:
        kind = event["type"]
        if kind == "half_start":
            discard = {"A": Counter(), "B": Counter()}
        elif kind == "halftime":
            for side in "AB":
                for out, into in event["swaps"][side]:
                    owned[side][out] -= 1
                    owned[side][into] += 1
                owned[side] = +owned[side]
        elif kind == "discard":
            discard[event["side"]].update(event["cards"])
        elif kind == "turn_start":
            for side in "AB":
                held = Counter(event["hands"][side]) + discard[side]
                assert sum(held.values()) + event["deck_counts"][side] == 60
                assert not held - owned[side], "a card appeared from nowhere"
        elif kind == "draw" and event["reason"] == "draw_phase":
            assert event["cards"]  # drawn only when the hand is short
    for side in "AB":
        assert sum(owned[side].values()) == 60


@settings(max_examples=18, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=matches)
def test_every_match_ends_with_a_log_that_validates_and_replays_byte_for_byte(case):
    outcome = play(case)
    log = outcome.log
    assert log["events"][-1]["type"] == "match_end"
    validate_log(log)
    assert json.dumps(replay(log).to_log()) == json.dumps(log)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=matches)
def test_the_referee_accepts_every_generated_log(case):
    outcome = play(case)
    log = outcome.log
    check_log(log)
    check_conservation_and_hands(log)
    assert outcome.result.to_dict() == log["result"]
    without = play(case, log=False)
    assert without.result == outcome.result and without.shots == outcome.shots


@settings(max_examples=30, deadline=None)
@given(case=matches)
def test_hands_hold_exactly_four_after_every_draw_phase(case):
    log = play(case).log
    hands = {"A": 0, "B": 0}
    phase = None
    for event in log["events"]:
        kind = event["type"]
        if kind == "turn_start":
            hands = {side: len(event["hands"][side]) for side in "AB"}
            phase = "draw"
        elif kind == "draw":
            hands[event["side"]] += len(event["cards"])
            if event["reason"] == "draw_phase":
                assert hands[event["side"]] <= HAND_SIZE
        elif kind == "kick" and phase == "draw":
            assert min(hands.values()) >= HAND_SIZE  # R-DRAW-1
            phase = None


@pytest.mark.parametrize(
    "edition", [Options(), Options(empty_timing="ends_phase", deck_out="any_draw")]
)
@pytest.mark.parametrize("seed", range(6))  # x 9 policy pairs x 2 editions: 108 matches
def test_every_edition_ends_conserves_cards_and_validates_over_many_seeds(edition, seed):
    for policies in PAIRS:
        case = {"seed": seed, "deck_a": seed, "deck_b": seed + 77, "policies": policies}
        log = play({**case, "options": edition}).log
        check_conservation_and_hands(log)
        check_log(log)
        validate_log(log)


def test_two_passive_sides_end_thanks_to_the_back_pass_limit():
    case = {
        "seed": 1,
        "deck_a": 1,
        "deck_b": 2,
        "policies": ("passive", "passive"),
        "options": Options(),
    }
    assert play(case, log=False).result is not None


def test_without_the_back_pass_limit_two_passive_sides_never_end():
    case = {
        "seed": 1,
        "deck_a": 1,
        "deck_b": 2,
        "policies": ("passive", "passive"),
        "options": Options(max_back_passes=None),
    }
    try:
        play(case, log=False)
    except MatchStalled:
        return
    raise AssertionError("expected a stall")
