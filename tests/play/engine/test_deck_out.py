"""Draws and the end of a half (R-DRAW-1, R-DRAW-2, R-MATCH-3), under both readings of
R-DRAW-2: `deck_out: draw_phase` (second edition, the default) and `any_draw` (first edition).
"""

from play.engine.match import HALFTIME, Match, SideDeck
from play.engine.options import Options
from play.engine.testing import FILLER, StackedChance, event, goalkeeper, player, stacked_match

from .referee import check_log
from .scripts import events, goal_kick, last, pass_turn, pass_until, play, shoot, types_since

KEEP1 = player("A-K1", keep=1)
ANY_DRAW = Options(deck_out="any_draw")  # R-DRAW-2, first edition


def test_the_draw_phase_fills_each_hand_to_exactly_four():  # R-DRAW-1
    match = stacked_match([player("A-K3", keep=3), player("A-K4", keep=4)])
    first = events(match, "draw")
    assert [(d["side"], len(d["cards"]), d["reason"]) for d in first] == [
        ("A", 4, "draw_phase"),
        ("B", 4, "draw_phase"),
    ]
    assert first[0]["cards"][:2] == ["A-K3", "A-K4"]  # the top of the deck first
    play(match, "A-K3", "A-K4")
    pass_turn(match)
    assert [(d["side"], len(d["cards"])) for d in events(match, "draw", turn=2)] == [("A", 2)]
    assert len(match.hand("A")) == 4


def test_a_hand_above_four_draws_nothing():  # R-DRAW-1
    match = stacked_match()
    pass_until(match, "shot")
    shoot(match)  # six cards in hand now
    pass_turn(match)  # B's goal kick next
    goal_kick(match, "middle_zone")
    assert events(match, "draw", turn=4) == []
    assert len(match.hand("A")) == 6


def test_any_draw_a_shot_draw_that_meets_an_empty_deck_ends_the_half_at_once():  # R-DRAW-2
    match = stacked_match([event("A-DRAIN", "draw:56")], options=ANY_DRAW)
    play(match, "A-DRAIN")
    assert match.deck_count("A") == 0 and match.half == 1  # empty, but no draw met it yet
    pass_until(match, "shot")
    shoot(match)
    assert types_since(match, "kick") == ["kick", "half_end"]
    assert last(match, "half_end") == {
        "type": "half_end",
        "half": 1,
        "reason": "deck_out",
        "side": "A",
        "score": {"A": 0, "B": 0},
    }
    assert match.decision == HALFTIME and match.actor == "A"
    check_log(match.to_log(), complete=False)


def test_any_draw_a_partial_draw_is_logged_before_the_half_ends():  # R-DRAW-2
    match = stacked_match([event("A-DRAIN", "draw:55")], options=ANY_DRAW)
    play(match, "A-DRAIN")
    pass_until(match, "shot")
    shoot(match)
    assert types_since(match, "kick") == ["kick", "draw", "half_end"]
    draw = last(match, "draw")
    assert len(draw["cards"]) == 1 and draw["deck_count"] == 0 and draw["reason"] == "shoot"


def test_any_draw_an_effect_draw_that_meets_an_empty_deck_ends_the_half_mid_timing():  # R-DRAW-2
    match = stacked_match(
        [event("A-DRAIN", "draw:60"), event("A-KEEP", "keep:+5")], options=ANY_DRAW
    )
    play(match, "A-DRAIN", "A-KEEP")
    assert types_since(match, "play") == ["play", "effect", "draw", "half_end"]
    # The later card's effect never resolved, and the play event's totals say so.
    assert last(match, "play")["totals"]["A"]["keep"] == 0
    assert len(last(match, "draw")["cards"]) == 56
    # The rest of the turn is not played: no play_end, judgment or discard.
    assert events(match, "discard") == [] and events(match, "judge") == []
    assert {card.id for card in match.in_play("A")} == {"A-DRAIN", "A-KEEP"}
    check_log(match.to_log(), complete=False)


def test_any_draw_a_goal_kick_draw_that_meets_an_empty_deck_ends_the_half():  # R-DRAW-2
    def reach_goal_kick():
        match = stacked_match([KEEP1], [event("B-DRAIN", "draw:56")], options=ANY_DRAW)
        play(match, "A-K1")
        play(match, "B-DRAIN")  # B empties its deck as the defense
        pass_until(match, "shot")
        shoot(match)
        pass_turn(match)
        return match

    match = reach_goal_kick()
    goal_kick(match, "penalty_zone")
    assert types_since(match, "kick") == ["kick", "half_end"]
    assert last(match, "half_end")["side"] == "B"
    match = reach_goal_kick()
    goal_kick(match, "middle_zone")  # no draw, so the half goes on
    assert match.half == 1 and match.decision == "play_cards"


def test_any_draw_a_corner_kick_draw_that_meets_an_empty_deck_ends_the_half():  # R-DRAW-2, R-KICK-3
    match = stacked_match(
        [event("A-DRAIN", "draw:54"), player("A-S3", shoot=3)],
        keeper_b=goalkeeper("GK-B", 3),
        options=ANY_DRAW,
    )
    play(match, "A-DRAIN")
    pass_until(match, "shot")
    shoot(match)  # the last two cards
    play(match, "A-S3")  # keep 0 ends the phase: 3 against 0 + 3
    assert last(match, "judge")["outcome"] == "corner_kick"
    assert types_since(match, "turn_start") == ["turn_start", "kick", "half_end"]
    assert last(match, "kick")["case"] == "corner_kick"


def test_a_draw_phase_that_meets_an_empty_deck_ends_the_half():  # R-DRAW-2, R-MATCH-3
    boost = event("A-EV", "keep:+1")
    deck_a = SideDeck(
        "A", (event("A-DRAIN", "draw:56"), *[boost] * 49, *FILLER), goalkeeper("G", 3)
    )
    deck_b = SideDeck("B", tuple(FILLER) * 6, goalkeeper("G", 3))
    first = Options(empty_timing="ends_phase", deck_out="any_draw")
    match = Match.new(deck_a, deck_b, seed=0, options=first, chance=StackedChance())
    while match.half == 1 and match.decision != HALFTIME:
        if match.decision == "shot":
            shoot(match, False)
        elif match.actor == "A" and match.timing == 1:
            hand = [card.id for card in match.hand("A")]
            events_ = [c for c in hand if not c.startswith("FIL")]
            players = [c for c in hand if c.startswith("FIL")][:2]
            play(match, *events_, *players)
        else:
            play(match)
    assert types_since(match, "turn_start") == ["turn_start", "half_end"]
    assert last(match, "turn_start")["hands"]["A"] == ["FIL-009", "FIL-010"]
    assert last(match, "half_end")["side"] == "A"
    check_log(match.to_log(), complete=False)


# ----- R-DRAW-2 `deck_out: draw_phase` (second edition, the default) -----------------------


def test_draw_phase_an_empty_deck_ends_the_half_at_the_next_draw_phase_before_any_draw():
    # R-DRAW-2, R-MATCH-3: A's hand is full, but its deck is empty when the draw phase comes.
    match = stacked_match([event("A-DRAIN", "draw:56")], [event("B-DRAW", "draw:1")])
    play(match, "A-DRAIN")  # A's deck is now empty, and nothing ends yet
    assert match.deck_count("A") == 0 and match.half == 1
    assert match.decision == "play_cards" or match.turn == 2
    pass_turn(match)
    assert types_since(match, "turn_start") == ["turn_start", "half_end"]
    assert last(match, "half_end")["side"] == "A"
    assert events(match, "draw", turn=2) == []  # nobody drew, B's short hand included
    assert match.decision == HALFTIME
    check_log(match.to_log(), complete=False)


def test_draw_phase_a_shot_draw_takes_what_is_left_and_the_shot_is_judged():  # R-DRAW-2
    match = stacked_match(
        [event("A-DRAIN", "draw:55"), player("A-S9", shoot=9)], keeper_b=goalkeeper("GK-B", 3)
    )
    play(match, "A-DRAIN")
    pass_until(match, "shot")
    shoot(match)
    draw = last(match, "draw")
    assert (draw["reason"], len(draw["cards"]), draw["deck_count"]) == ("shoot", 1, 0)
    assert match.decision == "play_cards" and match.half == 1  # the turn goes on
    play(match, "A-S9")
    pass_turn(match)
    judge = last(match, "judge")
    assert (judge["kind"], judge["outcome"]) == ("shot", "goal")
    assert match.score["A"] == 1
    # The next draw phase finds A's deck empty and ends the half.
    assert types_since(match, "turn_start") == ["turn_start", "half_end"]
    check_log(match.to_log(), complete=False)


def test_draw_phase_an_effect_draw_takes_what_is_left_and_later_cards_still_resolve():
    # R-DRAW-2, R-PLAY-3
    match = stacked_match([event("A-DRAIN", "draw:60"), event("A-KEEP", "keep:+5")])
    play(match, "A-DRAIN", "A-KEEP")
    assert types_since(match, "play") == ["play", "effect", "draw", "effect"]
    assert last(match, "play")["totals"]["A"]["keep"] == 5
    assert len(last(match, "draw")["cards"]) == 56 and match.deck_count("A") == 0
    assert match.decision == "play_cards" and match.actor == "B" and match.half == 1
    check_log(match.to_log(), complete=False)


def test_draw_phase_a_goal_kick_to_the_penalty_zone_from_an_empty_deck_goes_on():
    # R-DRAW-2, R-KICK-2: the extra draw finds nothing, and the turn goes on.
    match = stacked_match([KEEP1], [event("B-DRAIN", "draw:56"), player("B-K2", keep=2)])
    play(match, "A-K1")
    play(match, "B-DRAIN", "B-K2")  # B takes the ball (keep 2 > 1) and empties its deck
    pass_turn(match)
    assert match.offense == "B"
    # The next draw phase ends the half: B's deck is empty.
    assert last(match, "half_end")["side"] == "B"
