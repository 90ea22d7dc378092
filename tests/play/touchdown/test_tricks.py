"""Run, pass, the judgement, the series and touchdowns (TD-PLAY-1..4, TD-JUDGE-1..3,
TD-SERIES-1, TD-SCORE-1)."""

import pytest

from play.touchdown import ChooseCard, ChooseSuit, Follow, IllegalAction, Lead
from play.touchdown.game import CHOOSE_CARD, CHOOSE_SUIT, FOLLOW, KICKOFF_CHOICE, LEAD
from play.touchdown.testing import set_field

from .helpers import DEAL, events, last, options_with, started, trick


def test_the_lead_may_play_any_card_declaring_run_pass_or_kick():  # TD-PLAY-1
    game = started()
    actions = game.legal_actions()
    assert len(actions) == 9 * 3
    assert Lead(0, "G7", "kick") in actions
    assert not game.is_legal(Lead(0, "R1", "run"))  # not in seat 0's hand
    assert not game.is_legal(Lead(0, "R3", "punt"))


def test_a_run_must_follow_the_led_suit():  # TD-PLAY-2
    game = started()
    trick(game, "R5", "run")
    assert (game.decision, game.actor) == (FOLLOW, 1)
    assert game.legal_actions() == [Follow(1, "R1"), Follow(1, "R9")]
    with pytest.raises(IllegalAction, match="must follow"):
        game.apply_action(Follow(1, "G10"))


def test_a_pass_may_follow_with_any_card():  # TD-PLAY-3
    game = started()
    trick(game, "R5", "pass")
    assert len(game.legal_actions()) == 9


def test_a_run_player_who_cannot_follow_plays_any_card_and_applies_its_effect():  # TD-PLAY-2
    hands = (DEAL[0], ("B1", "B9", "Y1", "Y9", "G1", "G9", "G10", "B6", "Y6"), DEAL[2], DEAL[3])
    game = started(hands, options=options_with({10: [{"kind": "advance", "squares": 1}]}))
    trick(game, "R5", "run")
    assert len(game.legal_actions()) == 9
    trick_cards = ("G10", "R7", "R8")
    for card_id in trick_cards:
        game.apply_action(Follow(game.actor, card_id))
    assert last(game, "follow") == {"type": "follow", "seat": 3, "card": "R8", "follows": True}
    assert events(game, "effect") == [
        {"type": "effect", "seat": 1, "card": "G10", "steps": [{"kind": "advance", "squares": 1}]}
    ]
    # seat 0 takes with R5; the Bears' effect pushes the ball back one square
    assert last(game, "trick")["advance"] == 4 and game.ball == 4


def test_in_a_pass_only_a_card_of_another_suit_applies_its_effect():  # TD-PLAY-3
    game = started(options=options_with({n: [{"kind": "hold"}] for n in range(1, 11)}))
    trick(game, "R5", "pass", "R9", "G2", "R4")
    assert [e["card"] for e in events(game, "effect")] == ["G2"]
    assert last(game, "trick")["advance"] == 0  # the hold applied; R4 took it anyway


def test_after_the_led_suit_changes_following_is_judged_against_the_new_suit():  # TD-PLAY-4
    hands = (DEAL[0], ("B1", "B9", "Y1", "Y9", "G1", "G9", "G10", "B6", "Y6"), DEAL[2], DEAL[3])
    game = started(hands, options=options_with({10: [{"kind": "change_suit", "to": "choose"}]}))
    trick(game, "R5", "run", "G10")
    assert (game.decision, game.actor) == (CHOOSE_SUIT, 1)
    game.apply_action(ChooseSuit(1, "B"))
    assert game.led_suit == "B"
    assert game.legal_actions() == [Follow(2, "B2"), Follow(2, "B7")]
    game.apply_action(Follow(2, "B7"))
    game.apply_action(Follow(3, "B4"))
    judged = last(game, "trick")
    assert judged["led_suit"] == "B"
    assert (judged["taker"], judged["value"], judged["outcome"]) == (3, 4, "failure")


def test_the_lowest_following_number_takes_the_trick():  # TD-JUDGE-1
    game = started()
    trick(game, "R5", "run", "R9", "R7", "R4")
    judged = last(game, "trick")
    assert (judged["taker"], judged["value"], judged["rule"]) == (3, 4, "lowest")


def test_a_card_that_does_not_follow_cannot_take_the_trick():  # TD-JUDGE-1
    game = started()
    trick(game, "R5", "pass", "R9", "G2", "R8")
    assert (last(game, "trick")["taker"], last(game, "trick")["value"]) == (0, 5)


def test_a_tie_goes_to_the_player_farther_clockwise_from_the_lead():  # TD-JUDGE-1
    game = started(
        options=options_with({10: [{"kind": "card_value", "value": 3, "target": "choose"}]})
    )
    trick(game, "R3", "pass", "R9", "R7", "B10")
    assert game.decision == CHOOSE_CARD
    assert set(game.choice_targets) == {"R3", "R9", "R7", "B10"}
    game.apply_action(ChooseCard(3, "R9"))  # R9 now counts as 3, like the led R3
    judged = last(game, "trick")
    assert (judged["taker"], judged["value"], judged["outcome"]) == (1, 3, "failure")


def test_attack_success_advances_by_the_taking_number():  # TD-JUDGE-2
    game = started()
    trick(game, "R3", "run", "R9", "R7", "R8")
    judged = last(game, "trick")
    assert (judged["outcome"], judged["combo"], judged["advance"], judged["ball"]) == (
        "success",
        False,
        3,
        5,
    )
    assert (game.lead, game.series, game.ball, game.offense) == (0, 2, 5, "eagles")


def test_the_leads_partner_taking_adds_the_combination_bonus():  # TD-JUDGE-2
    game = started()
    trick(game, "R5", "run", "R9", "R2", "R8")
    judged = last(game, "trick")
    assert (judged["taker"], judged["combo"], judged["advance"]) == (2, True, 4)
    assert (game.lead, game.ball) == (2, 4)
    assert (game.decision, game.actor) == (LEAD, 2)


def test_attack_failure_turns_a_series_card_and_the_lead_goes_left_of_the_taker():  # TD-JUDGE-3
    game = started()
    trick(game, "R5", "run", "R1", "R7", "R8")
    judged = last(game, "trick")
    assert (judged["taker"], judged["outcome"], judged["advance"]) == (1, "failure", 0)
    assert (game.lead, game.series, game.ball, game.offense) == (2, 2, 8, "eagles")


def test_an_interception_on_an_attack_failure_changes_possession_at_once():  # TD-JUDGE-3
    game = started(options=options_with({10: [{"kind": "intercept"}]}))
    trick(game, "R5", "pass", "G10", "R7", "R4")
    assert last(game, "possession") == {
        "type": "possession",
        "reason": "interception",
        "offense": "bears",
        "lead": 1,
        "ball": 3,
    }
    assert (game.series, game.stats.interceptions["bears"]) == (3, 1)


def test_an_interception_does_nothing_when_the_offense_takes_the_trick():  # TD-JUDGE-3 (HOUSE)
    game = started(options=options_with({10: [{"kind": "intercept"}]}))
    trick(game, "R3", "pass", "G10", "R7", "R4")
    assert (game.offense, game.series, game.ball) == ("eagles", 2, 5)


def test_three_series_cards_down_change_possession():  # TD-SERIES-1
    game = started()
    trick(game, "R5", "run", "R9", "R7", "R4")
    trick(game, "B5", "run", "B9", "B7", "B4")
    assert (game.series, game.lead) == (1, 0)
    trick(game, "Y5", "run", "Y9", "Y7", "Y4")
    assert last(game, "possession") == {
        "type": "possession",
        "reason": "series",
        "offense": "bears",
        "lead": 1,  # left of the taker (seat 0), then left again for the turnover
        "ball": 3,  # 11 - 8
    }
    assert (game.series, game.decision, game.actor) == (3, LEAD, 1)


@pytest.mark.parametrize(("ball", "points"), [(4, 2), (3, 3), (1, 3)])
def test_a_touchdown_scores_2_exactly_at_0_and_3_past_it(ball, points):  # TD-SCORE-1
    game = started()
    set_field(game, ball=ball)
    trick(game, "R5", "run", "R9", "R2", "R8")  # advance 2 + 2
    assert game.score == {"eagles": points, "bears": 0}
    assert last(game, "score")["kind"] == "touchdown"
    assert game.stats.touchdowns["eagles"] == ([1, 0] if points == 2 else [0, 1])
    # HOUSE: a kick-off follows; the scoring team kicks to the other
    assert last(game, "possession")["reason"] == "touchdown"
    assert (game.offense, game.lead, game.ball) == ("bears", 3, None)
    assert (game.decision, game.actor) == (KICKOFF_CHOICE, 0)


def test_the_ball_stops_at_the_far_end():  # HOUSE
    game = started(options=options_with({9: [{"kind": "advance", "squares": 5}]}))
    trick(game, "R5", "pass", "B9", "R7", "R4")  # the Bears push back 5 from 8
    assert game.ball == 10


# TD-PLAY-4's two readings: seat 2's 10 turns the led suit to blue after seat 1 played B1
SUIT_CHANGE_HANDS = (
    DEAL[0],
    ("B1", "B9", "Y1", "Y9", "G1", "G9", "B6", "Y6", "R9"),
    ("R2", "R7", "B2", "B7", "Y2", "Y7", "G2", "G4", "G10"),
    DEAL[3],
)


@pytest.mark.parametrize(
    ("reading", "taker", "value", "lead"),
    [("cards_played_after", 3, 4, 0), ("every_card", 1, 1, 2)],
)
def test_a_suit_change_judges_earlier_cards_again_only_in_that_reading(
    reading, taker, value, lead
):  # TD-PLAY-4 (HOUSE: both readings are options)
    options = options_with(
        {10: [{"kind": "change_suit", "to": "choose"}]}, suit_change_judges=reading
    )
    game = started(SUIT_CHANGE_HANDS, options=options)
    trick(game, "R5", "pass", "B1", "G10")
    game.apply_action(ChooseSuit(2, "B"))
    game.apply_action(Follow(3, "B4"))
    judged = last(game, "trick")
    assert (judged["led_suit"], judged["outcome"]) == ("B", "failure")
    assert (judged["taker"], judged["value"], judged["lead"]) == (taker, value, lead)
