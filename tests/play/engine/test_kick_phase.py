"""The start of a half and the kick phase (R-MATCH-4, R-FIELD-1..2, R-KICK-1..5)."""

import pytest

from play.engine.actions import ChooseShot
from play.engine.match import GOAL_KICK, PLAY, SHOT, IllegalAction, Match
from play.engine.options import Options
from play.engine.testing import player, sample_side_deck, stacked_match

from .scripts import events, goal_kick, last, pass_turn, pass_until, play, shoot

STRIKER = player("A-S5", shoot=5, keep=1)


def test_the_first_turn_starts_with_a_kickoff_and_no_ball():  # R-MATCH-4
    match = stacked_match(kickoff="B")
    start = events(match, "half_start")[0]
    assert start["half"] == 1 and start["kickoff"] == "B"
    turn = events(match, "turn_start")[0]
    assert turn["offense"] == "B" and turn["pending"] == "kickoff" and turn["ball"] is None


@pytest.mark.parametrize(("kickoff", "zone", "arrow"), [("A", 3, "B"), ("B", 1, "A")])
def test_a_kickoff_puts_the_ball_in_the_defense_middle_zone(kickoff, zone, arrow):  # R-KICK-1
    match = stacked_match(kickoff=kickoff)
    kick = last(match, "kick")
    assert kick == {
        "type": "kick",
        "case": "kickoff",
        "choice": None,
        "ball": {"zone": zone, "arrow": arrow},
        "shot": False,
        "half": 1,
        "turn": 1,
    }
    assert match.ball == (zone, arrow)  # R-FIELD-1, R-FIELD-2
    assert match.decision == PLAY and match.actor == kickoff


@pytest.mark.parametrize(("kickoff", "zones"), [("A", [3, 4, 3]), ("B", [1, 0, 1])])
def test_the_field_has_five_zones_from_a_goal_to_b_goal(kickoff, zones):  # R-DECK-6, R-FIELD-1
    match = stacked_match(kickoff=kickoff)
    pass_until(match, SHOT)
    shoot(match, False)  # a back pass
    # kick-off into the middle zone, advance into the penalty zone, back pass
    assert [kick["ball"]["zone"] for kick in events(match, "kick")] == zones


def test_the_coin_toss_picks_the_first_kickoff_from_the_seed():  # R-MATCH-4
    deck_a, deck_b = sample_side_deck(1), sample_side_deck(2)
    kickoffs = {Match.new(deck_a, deck_b, seed=seed).offense for seed in range(20)}
    assert kickoffs == {"A", "B"}
    again = [Match.new(deck_a, deck_b, seed=seed).offense for seed in range(20)]
    assert again == [Match.new(deck_a, deck_b, seed=seed).offense for seed in range(20)]


def test_otherwise_the_ball_moves_one_zone_along_its_arrow():  # R-KICK-5
    match = stacked_match()
    pass_turn(match)
    kick = last(match, "kick")
    assert kick["case"] == "advance" and kick["ball"] == {"zone": 4, "arrow": "B"}
    assert kick["shot"] is False and kick["turn"] == 2


def test_in_the_defense_penalty_zone_the_offense_chooses_to_shoot():  # R-KICK-4
    match = stacked_match()
    pass_until(match, SHOT)
    assert match.turn == 3 and match.actor == "A"
    assert match.legal_actions() == [ChooseShot("A", True), ChooseShot("A", False)]
    hand_before = len(match.hand("A"))
    shoot(match)
    kick = last(match, "kick")
    assert kick["case"] == "shot_chance" and kick["choice"] == "shoot" and kick["shot"] is True
    assert kick["ball"] == {"zone": 4, "arrow": "B"}
    draw = last(match, "draw")
    assert draw["reason"] == "shoot" and draw["side"] == "A" and len(draw["cards"]) == 2
    assert len(match.hand("A")) == hand_before + 2
    assert match.shot is True


def test_a_back_pass_returns_the_ball_to_the_middle_zone_without_a_shot():  # R-KICK-4
    match = stacked_match()
    pass_until(match, SHOT)
    shoot(match, False)
    kick = last(match, "kick")
    assert kick["choice"] == "back_pass" and kick["shot"] is False
    assert kick["ball"] == {"zone": 3, "arrow": "B"}
    assert match.shot is False
    pass_turn(match)  # the judgment is a keep judgment
    assert last(match, "judge")["kind"] == "keep"


def test_after_the_back_pass_limit_the_shot_is_forced():  # house max_back_passes
    match = stacked_match(options=Options(max_back_passes=2))
    for _ in range(2):
        pass_until(match, SHOT)
        shoot(match, False)
    pass_turn(match)  # the back-pass turn
    pass_turn(match)  # the ball advances into the penalty zone again
    kick = last(match, "kick")
    assert kick["case"] == "shot_chance" and kick["choice"] == "shoot"
    assert match.decision == PLAY and match.shot is True


def test_without_a_back_pass_limit_the_offense_may_pass_back_for_ever():
    match = stacked_match(options=Options(max_back_passes=None))
    for _ in range(10):
        pass_until(match, SHOT)
        shoot(match, False)
    assert match.stats.back_passes["A"] == 10


def test_a_missed_shot_gives_the_other_side_a_goal_kick():  # R-KICK-2
    match = stacked_match([STRIKER])
    pass_until(match, SHOT)
    shoot(match)
    pass_turn(match)  # shoot 0 against the keeper's 3
    assert match.decision == GOAL_KICK and match.actor == "B"
    turn = last(match, "turn_start")
    assert turn["offense"] == "B" and turn["pending"] == "goal_kick"


@pytest.mark.parametrize(
    ("zone", "ball_zone", "extra"), [("penalty_zone", 4, 1), ("middle_zone", 3, 0)]
)
def test_the_goal_kick_zone_decides_the_ball_and_the_extra_card(zone, ball_zone, extra):
    match = stacked_match()
    pass_until(match, SHOT)
    shoot(match)
    pass_turn(match)
    hand = len(match.hand("B"))
    goal_kick(match, zone)
    kick = last(match, "kick")
    assert kick["case"] == "goal_kick" and kick["choice"] == zone
    assert kick["ball"] == {"zone": ball_zone, "arrow": "A"}  # R-KICK-2
    assert len(match.hand("B")) == hand + extra
    if extra:
        assert last(match, "draw")["reason"] == "goal_kick"


def test_a_corner_kick_forces_the_shot_and_draws_two():  # R-KICK-3
    defender = player("B-D2", defense=2, keep=1)
    match = stacked_match([STRIKER], [defender])
    pass_until(match, SHOT)
    shoot(match)
    play(match, "A-S5")
    play(match, "B-D2")  # 5 against 2 + 3: a corner kick
    assert last(match, "judge")["outcome"] == "corner_kick"
    assert match.decision == PLAY and match.actor == "A"  # no shot decision
    kick = last(match, "kick")
    assert kick["case"] == "corner_kick" and kick["choice"] is None and kick["shot"] is True
    assert kick["ball"] == {"zone": 4, "arrow": "B"}
    draw = last(match, "draw")
    assert draw["reason"] == "corner_kick" and len(draw["cards"]) == 2


def test_the_wrong_kind_of_action_is_refused_with_a_reason():
    match = stacked_match()
    with pytest.raises(IllegalAction, match="must now send PlayCards"):
        match.apply_action(ChooseShot("A", True))
    with pytest.raises(IllegalAction, match="side A's decision"):
        play_b = match.legal_actions()[0].__class__("B", ())
        match.apply_action(play_b)
