"""Properties over many seeds, policies and options: every game ends, cards are conserved,
scores move by 1, 2 or 3, hands only shrink, and logs replay byte for byte."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play.touchdown import DECK, Options, play_game, replay

pytestmark = pytest.mark.slow

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "policies": st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4),
        "options": st.builds(
            Options,
            onside_rolls=st.sampled_from([0, 1, 2]),
            minimum_kick=st.booleans(),
            kickoffs=st.sampled_from(["choice", "normal_only"]),
            effects=st.sampled_from(["none", "example"]),
            random_kick_base=st.sampled_from([0, 3, 5]),
            kick_floor=st.sampled_from([0, 7, 8]),
            onside_ball=st.sampled_from([0, 7, 10]),
            normal_kick_ball=st.sampled_from([6, 8]),
            kickoff_kick_ability=st.sampled_from(["none", "random", "both"]),
            kick_play_hand=st.sampled_from(["lead_only", "every_player"]),
            suit_change_judges=st.sampled_from(["cards_played_after", "every_card"]),
        ),
    }
)


def check_log(log):
    """Walk the events, checking conservation, hand sizes and score steps."""
    hands = None
    played = set()
    pile = []
    score = {"eagles": 0, "bears": 0}
    for event in log["events"]:
        kind = event["type"]
        if kind == "half_start":
            hands = [list(hand) for hand in event["hands"]]
            pile = event["pile"]
            played = set()
            dealt = [card for hand in hands for card in hand] + pile
            assert sorted(dealt) == sorted(card.id for card in DECK)  # all 40, once each
            assert [len(hand) for hand in hands] == [9, 9, 9, 9]
        elif kind in ("lead", "follow"):
            hands[event["seat"]].remove(event["card"])  # raises if it was not in that hand
            assert event["card"] not in played
            played.add(event["card"])
        elif kind == "trick":
            held = [card for hand in hands for card in hand]
            assert len(held) + len(played) + len(pile) == 40
            assert len(set(held) | played | set(pile)) == 40
        elif kind == "score":
            assert event["points"] in (1, 2, 3)
            before = dict(score)
            score[event["team"]] += event["points"]
            assert event["score"] == score
            assert sum(score.values()) - sum(before.values()) == event["points"]
    assert log["events"][-1]["type"] == "game_end"
    assert log["result"]["score"] == score
    return score


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=games)
def test_every_game_ends_conserves_cards_and_replays_byte_for_byte(case):
    outcome = play_game(case["options"], case["policies"], case["seed"])
    score = check_log(outcome.log)
    assert outcome.score == score
    eagles, bears = score["eagles"], score["bears"]
    assert outcome.winner == (None if eagles == bears else "eagles" if eagles > bears else "bears")
    assert json.dumps(replay(outcome.log).to_log()) == json.dumps(outcome.log)


@settings(max_examples=100, deadline=None)
@given(case=games)
def test_the_outcome_counts_agree_with_the_log(case):
    outcome = play_game(case["options"], case["policies"], case["seed"])
    events = outcome.log["events"]
    kickoffs = [e for e in events if e["type"] == "kickoff"]
    by_team = {
        team: {
            kind: sum(1 for e in kickoffs if e["team"] == team and e["choice"] == kind)
            for kind in ("normal", "random")
        }
        for team in ("eagles", "bears")
    }
    assert outcome.kickoffs == by_team
    assert outcome.onside_kicking_teams == tuple(e["team"] for e in kickoffs if e["onside"])
    assert outcome.tricks == sum(1 for e in events if e["type"] == "trick")
    for team in ("eagles", "bears"):
        points = [p for who, _, p, _ in outcome.drives if who == team]
        assert sum(points) == outcome.score[team]  # every point belongs to a drive
        tds = outcome.touchdowns[team]
        assert 2 * tds["2"] + 3 * tds["3"] + outcome.kick_points[team] == outcome.score[team]
    if case["options"].kickoffs == "normal_only":
        assert all(k["random"] == 0 for k in outcome.kickoffs.values())


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), effects=st.sampled_from(["none", "example"]))
def test_the_same_seed_gives_the_same_game_with_or_without_a_log(seed, effects):
    options = Options(effects=effects)
    first = play_game(options, "greedy", seed)
    second = play_game(options, "greedy", seed)
    quiet = play_game(options, "greedy", seed, log=False)
    assert json.dumps(first.log) == json.dumps(second.log)
    assert quiet.log is None
    assert quiet.to_dict() == first.to_dict()
