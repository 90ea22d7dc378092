"""Kick-offs (TD-KICK-1) and kick plays (TD-KICK-2)."""

import pytest

from play.touchdown import IllegalAction, KickOff, Options, UseSkill
from play.touchdown.game import KICKOFF_CHOICE, LEAD

from .helpers import last, options_with, started, trick


def test_the_defense_seat_left_of_the_lead_declares_the_kick_off():  # TD-KICK-1 (HOUSE)
    game = started(kickoff=None)
    assert (game.decision, game.actor) == (KICKOFF_CHOICE, 1)
    assert set(game.legal_actions()) == {KickOff(1, "normal"), KickOff(1, "random")}
    with pytest.raises(IllegalAction):
        game.apply_action(KickOff(0, "normal"))


def test_a_normal_kick_puts_the_ball_at_the_offenses_8():  # TD-KICK-1
    game = started(kickoff="normal")
    kick = last(game, "kickoff")
    assert (kick["choice"], kick["roll"], kick["onside"], kick["ball"]) == (
        "normal",
        None,
        False,
        8,
    )
    assert (game.offense, game.lead, game.ball, game.series) == ("eagles", 0, 8, 3)


@pytest.mark.parametrize("roll", [2, 3, 4, 5, 6])
def test_a_random_kick_puts_the_ball_at_3_plus_the_roll(roll):  # TD-KICK-1
    game = started(kickoff="random", rolls=[roll])
    assert (game.offense, game.lead, game.ball) == ("eagles", 0, 3 + roll)
    assert last(game, "kickoff")["onside"] is False


def test_a_random_kick_rolling_1_is_an_onside_kick():  # TD-KICK-1
    game = started(kickoff="random", rolls=[1])
    kick = last(game, "kickoff")
    assert (kick["onside"], kick["offense"], kick["lead"], kick["ball"]) == (True, "bears", 1, 7)
    assert (game.decision, game.actor, game.ball) == (LEAD, 1, 7)
    assert game.stats.onside_successes == {"eagles": 0, "bears": 1}
    assert game.stats.random_kickoffs == [("bears", True)]


def test_onside_on_1_or_2_gives_the_ball_at_11_minus_5_on_a_2():  # TD-KICK-1 (option, HOUSE)
    game = started(kickoff="random", rolls=[2], options=Options(onside_rolls=2))
    kick = last(game, "kickoff")
    assert (kick["onside"], kick["offense"], kick["ball"]) == (True, "bears", 6)
    game = started(kickoff="random", rolls=[3], options=Options(onside_rolls=2))
    assert (last(game, "kickoff")["onside"], game.ball) == (False, 6)


@pytest.mark.parametrize(("roll", "ball"), [(2, 7), (3, 7), (4, 7), (5, 8), (6, 9)])
def test_the_minimum_kick_keeps_a_random_kick_at_7_or_further(roll, ball):  # option (HOUSE)
    game = started(kickoff="random", rolls=[roll], options=Options(minimum_kick=True))
    assert game.ball == ball
    assert last(game, "kickoff")["minimum"] == 7


def test_the_minimum_kick_does_not_stop_an_onside_kick():  # option (HOUSE)
    game = started(kickoff="random", rolls=[1], options=Options(minimum_kick=True))
    assert (game.offense, game.ball) == ("bears", 7)


def test_normal_only_kick_offs_need_no_decision():  # option
    game = started(kickoff=None, options=Options(kickoffs="normal_only"))
    assert (game.decision, game.actor, game.ball) == (LEAD, 0, 8)
    assert last(game, "kickoff")["choice"] == "normal"


def test_a_kick_off_skill_sets_a_minimum_for_this_kick():  # TD-COMP-2, skill
    skill = {"when": "kickoff", "effect": [{"kind": "kick_minimum", "ball": 8}]}
    game = started(kickoff=None, rolls=[2], options=options_with(heroes={2: {"skill": skill}}))
    assert UseSkill(1) in game.legal_actions()
    game.apply_action(UseSkill(1))
    assert game.hero_up[1] is False and UseSkill(1) not in game.legal_actions()
    game.apply_action(KickOff(1, "random"))
    assert game.ball == 8


def test_a_kick_play_that_does_not_score_turns_the_ball_over_at_11_minus_it():  # TD-KICK-2
    game = started(rolls=[3])
    trick(game, "G7", "kick")
    kick = last(game, "kick_play")
    assert (kick["roll"], kick["ball_before"], kick["ball"], kick["scored"]) == (3, 8, 5, False)
    assert (game.offense, game.lead, game.ball, game.series) == ("bears", 1, 6, 3)
    assert last(game, "possession")["reason"] == "kick"
    # HOUSE: only the led card is spent; the others keep their cards
    assert [len(game.hand(seat)) for seat in range(4)] == [8, 9, 9, 9]
    assert (game.decision, game.actor) == (LEAD, 1)


def test_a_kick_play_reaching_0_scores_1_and_the_scorers_kick_off():  # TD-KICK-2
    from play.touchdown.testing import set_field

    game = started(rolls=[4])
    set_field(game, ball=4)
    trick(game, "G7", "kick")
    assert game.score == {"eagles": 1, "bears": 0}
    assert last(game, "score") == {
        "type": "score",
        "team": "eagles",
        "points": 1,
        "kind": "kick",
        "score": {"eagles": 1, "bears": 0},
    }
    assert (game.offense, game.lead) == ("bears", 1)
    assert (game.decision, game.actor) == (KICKOFF_CHOICE, 2)


def test_a_heros_kick_ability_adds_to_the_kick_play_roll():  # TD-COMP-2 (HOUSE)
    game = started(rolls=[3], options=options_with(heroes={1: {"kick": 2}}))
    trick(game, "G7", "kick")
    assert last(game, "kick_play")["ball"] == 3
    assert game.ball == 8
