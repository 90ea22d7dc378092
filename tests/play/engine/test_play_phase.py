"""The play phase (R-MATCH-2, R-PLAY-1..4) and the effect clauses."""

import pytest

from play.engine.actions import PlayCards
from play.engine.match import PLAY, SHOT, IllegalAction
from play.engine.options import Options
from play.engine.testing import event, player, stacked_match

from .scripts import events, last, pass_until, play, shoot


def keeper_card(card_id, keep):
    return player(card_id, keep=keep)


ENDS_PHASE = Options(empty_timing="ends_phase")  # R-PLAY-4, first edition


def test_ends_phase_an_offense_that_plays_nothing_ends_the_phase_at_timing_1():  # R-PLAY-4
    match = stacked_match(options=ENDS_PHASE)
    play(match)
    assert last(match, "play") == {
        "type": "play",
        "side": "A",
        "timing": 1,
        "cards": [],
        "player_cards_this_turn": 0,
        "totals": {
            "A": {"keep": 0, "shoot": 0, "defense": 0},
            "B": {"keep": 0, "shoot": 0, "defense": 0},
        },
        "half": 1,
        "turn": 1,
    }
    assert last(match, "play_end") == {
        "type": "play_end",
        "reason": "not_ahead",
        "timing": 1,
        "half": 1,
        "turn": 1,
    }


def test_passes_an_offense_that_plays_nothing_gives_the_defense_the_next_timing():  # R-PLAY-4
    match = stacked_match()
    play(match)
    assert events(match, "play_end") == []
    assert (match.decision, match.actor, match.timing) == (PLAY, "B", 2)


def test_passes_a_defense_takes_the_ball_after_an_empty_offense_timing():  # R-PLAY-4, R-JUDGE-5
    match = stacked_match([], [keeper_card("B-K2", 2)])
    play(match)  # A plays nothing: the timing passes
    play(match, "B-K2")  # B is ahead, 2 > 0: timing 3 follows
    assert (match.actor, match.timing) == ("A", 3)
    play(match)
    play(match)  # timing 4, empty: the phase ends after the fourth timing
    assert last(match, "play_end") == {
        "type": "play_end",
        "reason": "timings_done",
        "timing": 4,
        "half": 1,
        "turn": 1,
    }
    judge = last(match, "judge")
    assert (judge["offense_keep"], judge["defense_keep"], judge["outcome"]) == (0, 2, "swap")
    assert match.offense == "B"


def test_passes_four_empty_timings_end_the_phase_with_timings_done_and_the_ball_held():
    # R-PLAY-4, R-JUDGE-5: 0 against 0 holds the ball.
    match = stacked_match()
    for _ in range(4):
        play(match)
    assert [e["timing"] for e in events(match, "play", turn=1)] == [1, 2, 3, 4]
    assert last(match, "play_end")["reason"] == "timings_done"
    assert last(match, "judge")["outcome"] == "hold" and match.offense == "A"


def test_passes_a_timing_with_cards_is_still_judged_at_once():  # R-PLAY-4
    match = stacked_match([keeper_card("A-K3", 3)], [keeper_card("B-K1", 1)])
    play(match)
    play(match, "B-K1")  # 1 > 0: B is ahead
    play(match, "A-K3")  # 3 > 1: A is ahead
    play(match)  # B passes at timing 4: the phase ends after the fourth timing
    assert last(match, "play_end")["reason"] == "timings_done"
    assert last(match, "judge")["outcome"] == "hold"


def test_ends_phase_a_defense_never_acts_when_the_offense_plays_nothing():  # R-PLAY-4
    match = stacked_match([], [keeper_card("B-K2", 2)], options=ENDS_PHASE)
    play(match)
    assert last(match, "judge")["outcome"] == "hold"
    assert match.turn == 2 and match.offense == "A"


def test_timings_alternate_and_the_defense_acts_too():  # R-PLAY-1, R-MATCH-2
    match = stacked_match([keeper_card("A-K3", 3)], [keeper_card("B-K4", 4)])
    play(match, "A-K3")
    assert (match.actor, match.timing) == ("B", 2)
    play(match, "B-K4")
    assert (match.actor, match.timing) == ("A", 3)


def test_a_defense_that_ties_the_keep_total_ends_the_phase():  # R-PLAY-4
    match = stacked_match([keeper_card("A-K3", 3)], [keeper_card("B-K3", 3)])
    play(match, "A-K3")
    play(match, "B-K3")
    assert last(match, "play_end")["reason"] == "not_ahead"
    assert last(match, "play_end")["timing"] == 2
    assert match.turn == 2  # the next turn began


def test_all_four_timings_end_with_timings_done():  # R-PLAY-1, R-PLAY-4
    match = stacked_match(
        [keeper_card("A-K3", 3), keeper_card("A-K2", 2)],
        [keeper_card("B-K4", 4), keeper_card("B-K2", 2)],
    )
    play(match, "A-K3")
    play(match, "B-K4")
    play(match, "A-K2")
    play(match, "B-K2")
    assert last(match, "play_end") == {
        "type": "play_end",
        "reason": "timings_done",
        "timing": 4,
        "half": 1,
        "turn": 1,
    }


def test_at_the_last_timing_not_ahead_wins_over_timings_done():  # R-PLAY-4
    match = stacked_match(
        [keeper_card("A-K3", 3), keeper_card("A-K2", 2)],
        [keeper_card("B-K4", 4), keeper_card("B-K1", 1)],
    )
    for card in ("A-K3", "B-K4", "A-K2", "B-K1"):
        play(match, card)
    assert last(match, "play_end")["reason"] == "not_ahead"
    assert last(match, "play_end")["timing"] == 4


def test_a_third_player_card_in_one_turn_is_refused():  # R-PLAY-2
    cards = [keeper_card("A-K1", 1), keeper_card("A-K2", 2), keeper_card("A-K3", 3)]
    match = stacked_match(cards, [keeper_card("B-K9", 9)])
    assert not match.is_legal(PlayCards("A", ("A-K1", "A-K2", "A-K3")))
    assert PlayCards("A", ("A-K1", "A-K2")) in match.legal_actions()
    play(match, "A-K1", "A-K2")
    play(match, "B-K9")
    with pytest.raises(IllegalAction, match="at most 2"):
        play(match, "A-K3")
    assert all("A-K3" not in action.card_ids for action in match.legal_actions())


def test_any_number_of_event_cards_may_be_used():  # R-PLAY-2
    boosts = [event(f"A-E{n}", "keep:+1") for n in range(4)]
    match = stacked_match(boosts)
    play(match, "A-E0", "A-E1", "A-E2", "A-E3")
    assert match.totals("A").keep == 4


def test_cards_not_in_hand_are_refused():
    match = stacked_match()
    with pytest.raises(IllegalAction, match="not in side A's hand"):
        play(match, "B-NOPE")


def test_legal_actions_list_every_sub_multiset_once():
    cards = [keeper_card("A-K1", 1), keeper_card("A-K1", 1), event("A-E", "draw:1")]
    match = stacked_match(cards)
    actions = match.legal_actions()
    assert len(actions) == len(set(actions))
    # players: 0, 1 or 2 copies of A-K1; filler: 0 or 1 (3 players at most 2): 3*2-1 = 5, x2 events
    assert len(actions) == 10
    assert all(match.is_legal(action) for action in actions)


def test_play_cards_are_normalised_so_equal_multisets_are_equal():
    assert PlayCards("A", ("b", "a", "b")) == PlayCards("A", ("b", "b", "a"))
    assert PlayCards("A", ("b", "a")).card_ids == ("a", "b")


def test_an_effect_applies_at_once_and_is_logged_after_the_play():  # R-PLAY-3
    match = stacked_match([event("A-E", "keep:+2;draw:1")])
    play(match, "A-E")
    kinds = [e["type"] for e in events(match, turn=1)][-3:]
    assert kinds == ["play", "effect", "draw"]
    assert last(match, "play")["totals"]["A"]["keep"] == 2
    assert last(match, "effect") == {
        "type": "effect",
        "side": "A",
        "card": "A-E",
        "effect": "keep:+2;draw:1",
        "delta": {
            "A": {"keep": 2, "shoot": 0, "defense": 0},
            "B": {"keep": 0, "shoot": 0, "defense": 0},
        },
        "half": 1,
        "turn": 1,
    }
    draw = last(match, "draw")
    assert draw["reason"] == "effect" and draw["side"] == "A" and len(draw["cards"]) == 1
    assert match.actor == "B"  # A is ahead 2 to 0: the phase goes on


def test_a_card_drawn_by_an_effect_can_be_used_at_a_later_timing():  # R-PLAY-3
    top_a = [
        event("A-E", "keep:+1;draw:1"),
        player("A-F1"),
        player("A-F2"),
        player("A-F3"),
        player("A-NEW", keep=5),
    ]
    match = stacked_match(top_a, [keeper_card("B-K3", 3)])
    play(match, "A-E")
    assert "A-NEW" in [card.id for card in match.hand("A")]
    play(match, "B-K3")
    play(match, "A-NEW")
    assert match.totals("A").keep == 6


@pytest.mark.parametrize(
    ("effect", "a_totals", "b_totals"),
    [
        ("keep:+3", (3, 0, 0), (0, 0, 0)),
        ("shoot:+3", (0, 3, 0), (0, 0, 0)),
        ("defense:+3", (0, 0, 3), (0, 0, 0)),
        ("opp_keep:-3", (0, 0, 0), (-3, 0, 0)),
        ("opp_shoot:-3", (0, 0, 0), (0, -3, 0)),
        ("opp_defense:-3", (0, 0, 0), (0, 0, -3)),
    ],
)
def test_each_effect_clause_changes_the_right_total(effect, a_totals, b_totals):
    match = stacked_match([event("A-E", effect)])
    play(match, "A-E")
    play_event = last(match, "play")
    assert tuple(play_event["totals"]["A"].values()) == a_totals  # totals may go below 0
    assert tuple(play_event["totals"]["B"].values()) == b_totals


def test_an_effect_draw_gives_the_user_cards():
    match = stacked_match([event("A-E", "draw:3")])
    play(match, "A-E")
    assert len(last(match, "draw")["cards"]) == 3
    assert len(match.hand("A")) == 6


def test_the_shot_totals_count_only_this_play_phase():  # R-JUDGE-1 inputs
    match = stacked_match([player("A-S5", shoot=5, keep=1)])
    pass_until(match, SHOT)
    shoot(match)
    play(match, "A-S5")
    assert match.decision == PLAY and match.actor == "B"
    assert match.totals("A") == (1, 5, 0)
