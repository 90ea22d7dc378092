"""Kick-offs (TD-KICK-1) and kick plays (TD-KICK-2)."""

import pytest

from play.touchdown import Follow, IllegalAction, KickOff, Lead, Options, UseSkill, play_game
from play.touchdown.game import FOLLOW, KICKOFF_CHOICE, LEAD

from .helpers import events, last, options_with, started, trick


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


# ----- every kick-off parameter is an option (TD-KICK-1); known answers from the draft ------


@pytest.mark.parametrize(("roll", "ball"), [(2, 2), (4, 4), (6, 6)])
def test_without_the_3_plus_a_random_kick_lands_at_the_roll(roll, ball):  # TD-KICK-1, option
    game = started(kickoff="random", rolls=[roll], options=Options(random_kick_base=0))
    assert (game.offense, game.ball, last(game, "kickoff")["onside"]) == ("eagles", ball, False)


def test_without_the_3_plus_an_onside_kick_puts_the_ball_at_11_minus_1():  # TD-KICK-1 (HOUSE)
    game = started(kickoff="random", rolls=[1], options=Options(random_kick_base=0))
    assert (game.offense, game.ball, last(game, "kickoff")["onside"]) == ("bears", 10, True)


@pytest.mark.parametrize(("roll", "ball"), [(2, 8), (4, 8), (5, 8), (6, 9)])
def test_a_floor_of_8_keeps_a_random_kick_at_8_or_further(roll, ball):  # option
    game = started(kickoff="random", rolls=[roll], options=Options(kick_floor=8))
    assert game.ball == ball
    assert last(game, "kickoff")["minimum"] == 8


def test_a_floor_never_stops_an_onside_kick():  # option (HOUSE: onside is judged on the roll)
    game = started(kickoff="random", rolls=[1], options=Options(kick_floor=8))
    assert (game.offense, game.ball) == ("bears", 7)


def test_no_onside_range_makes_a_1_an_ordinary_short_kick():  # option
    game = started(kickoff="random", rolls=[1], options=Options(onside_rolls=0))
    assert (game.offense, game.ball, last(game, "kickoff")["onside"]) == ("eagles", 4, False)


@pytest.mark.parametrize(("rolls", "roll", "ball"), [(1, 1, 9), (2, 2, 9)])
def test_the_ball_after_an_onside_kick_can_be_fixed(rolls, roll, ball):  # option
    options = Options(onside_rolls=rolls, onside_ball=ball)
    game = started(kickoff="random", rolls=[roll], options=options)
    assert (game.offense, game.ball) == ("bears", ball)


def test_the_ball_after_a_normal_kick_is_an_option():  # TD-KICK-1 (draft 8), option
    game = started(kickoff="normal", options=Options(normal_kick_ball=6))
    assert (game.offense, game.ball, last(game, "kickoff")["ball"]) == ("eagles", 6, 6)


@pytest.mark.parametrize(
    ("ability", "kind", "rolls", "ball", "kick"),
    [
        ("none", "random", [4], 7, 0),
        ("random", "random", [4], 9, 2),  # 3 + 4 + the kicker's kick 2
        ("random", "random", [6], 10, 2),  # stops at the far end
        ("random", "random", [1], 7, 0),  # onside is judged on the roll; no kick added
        ("random", "normal", [], 8, 0),
        ("both", "normal", [], 10, 2),
    ],
)
def test_a_heros_kick_ability_can_lengthen_kick_offs(ability, kind, rolls, ball, kick):
    # TD-COMP-2 at TD-KICK-1: the kicker (seat 1) holds hero 2, kick ability 2
    options = options_with(heroes={2: {"kick": 2}}, kickoff_kick_ability=ability)
    game = started(kickoff=kind, rolls=rolls, options=options)
    assert (game.ball, last(game, "kickoff")["kick"]) == (ball, kick)


def test_in_the_every_player_reading_a_kick_play_takes_a_card_from_everyone():  # TD-KICK-2
    skill = {"name": "Block", "when": "trick", "effect": [{"kind": "hold"}]}
    options = options_with(
        {9: [{"kind": "hold"}]}, heroes={2: {"skill": skill}}, kick_play_hand="every_player"
    )
    game = started(rolls=[3], options=options)
    game.apply_action(Lead(0, "G7", "kick"))
    assert (game.decision, game.actor) == (FOLLOW, 1)
    assert UseSkill(1) not in game.legal_actions()  # no skill in a kick play
    assert Follow(1, "R9") in game.legal_actions()  # any card, no suit to follow
    for card_id in ("R9", "B2", "B4"):
        game.apply_action(Follow(game.actor, card_id))
    assert not events(game, "effect")  # a kick play's cards apply no effect
    kick = last(game, "kick_play")
    assert (kick["roll"], kick["ball_before"], kick["ball"]) == (3, 8, 5)
    assert (game.offense, game.lead, game.ball) == ("bears", 1, 6)
    assert [len(game.hand(seat)) for seat in range(4)] == [8, 8, 8, 8]


def test_every_player_spending_a_card_leaves_no_trick_unfinished_at_half_time():  # TD-END-1
    unfinished = {}
    for hand_rule in ("lead_only", "every_player"):
        options = Options(kick_play_hand=hand_rule)
        games = [play_game(options, "greedy", seed, log=False) for seed in range(40)]
        unfinished[hand_rule] = sum(game.unfinished_tricks for game in games)
    assert unfinished["every_player"] == 0
    assert unfinished["lead_only"] > 10
