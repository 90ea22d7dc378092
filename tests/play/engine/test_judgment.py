"""The judgment phase (R-JUDGE-1..5) and the end phase (R-END-1)."""

from play.engine.match import GOAL_KICK, SHOT
from play.engine.testing import event, goalkeeper, player, stacked_match

from .scripts import events, last, pass_turn, pass_until, play, shoot

STRIKER = player("A-S5", shoot=5, keep=1)


def shot_against(defender=None, keeper_defense=3):
    """Return a match where A shoots 5 (keep 1) and B answers with `defender` (or nothing)."""
    top_b = [defender] if defender else []
    match = stacked_match([STRIKER], top_b, keeper_b=goalkeeper("GK-B", keeper_defense))
    pass_until(match, SHOT)
    shoot(match)
    play(match, "A-S5")
    if defender:
        play(match, defender.id)  # keep 0 or 1, not above A's 1: the phase ends (R-PLAY-4)
    else:
        pass_turn(match)  # R-PLAY-4: B's and A's later timings pass
    return match


def test_a_shot_compares_shoot_with_defense_plus_the_goalkeeper():  # R-JUDGE-1
    match = shot_against(player("B-D1", defense=1))
    assert last(match, "judge") == {
        "type": "judge",
        "kind": "shot",
        "shoot": 5,
        "defense": 1,
        "goalkeeper_defense": 3,
        "outcome": "goal",
        "half": 1,
        "turn": 3,
    }


def test_a_stronger_shot_scores_and_the_other_side_kicks_off():  # R-JUDGE-2
    match = shot_against()
    assert last(match, "goal") == {
        "type": "goal",
        "side": "A",
        "score": {"A": 1, "B": 0},
        "half": 1,
        "turn": 3,
    }
    assert match.score == {"A": 1, "B": 0}
    turn = last(match, "turn_start")
    assert turn["offense"] == "B" and turn["pending"] == "kickoff"
    assert last(match, "kick")["ball"] == {"zone": 1, "arrow": "A"}


def test_an_equal_shot_gives_a_corner_kick_with_roles_kept():  # R-JUDGE-3
    match = shot_against(player("B-D2", defense=2, keep=1))
    assert last(match, "judge")["outcome"] == "corner_kick"
    turn = last(match, "turn_start")
    assert turn["offense"] == "A" and turn["pending"] == "corner_kick"
    assert match.score == {"A": 0, "B": 0}


def test_a_weaker_shot_swaps_roles_for_a_goal_kick():  # R-JUDGE-4
    match = shot_against(player("B-D3", defense=3, keep=1))
    assert last(match, "judge")["outcome"] == "goal_kick"
    assert match.decision == GOAL_KICK and match.actor == "B"
    assert last(match, "turn_start")["pending"] == "goal_kick"


def test_a_stronger_keep_swaps_roles_and_turns_the_arrow():  # R-JUDGE-5
    match = stacked_match([player("A-K3", keep=3)], [player("B-K4", keep=4)])
    play(match, "A-K3")
    play(match, "B-K4")
    pass_turn(match)
    assert last(match, "judge") == {
        "type": "judge",
        "kind": "keep",
        "offense_keep": 3,
        "defense_keep": 4,
        "outcome": "swap",
        "half": 1,
        "turn": 1,
    }
    turn = last(match, "turn_start")
    assert turn["offense"] == "B" and turn["pending"] is None
    assert turn["ball"] == {"zone": 3, "arrow": "A"}  # the ball stays, the arrow turns
    assert last(match, "kick")["ball"] == {"zone": 2, "arrow": "A"}


def test_an_equal_keep_holds_the_ball():  # R-JUDGE-5
    match = stacked_match([player("A-K3", keep=3)], [player("B-K3", keep=3)])
    play(match, "A-K3")
    play(match, "B-K3")
    assert last(match, "judge")["outcome"] == "hold"
    assert last(match, "turn_start")["offense"] == "A"


def test_winning_the_ball_in_the_defense_penalty_zone_gives_a_shot_chance():  # R-KICK-4
    match = stacked_match([player("A-K2", keep=2)], [player("B-K1", keep=1)])
    pass_until(match, SHOT)
    shoot(match)
    pass_turn(match)  # a shot of 0 fails: B's goal kick
    match.apply_action(match.legal_actions()[0])  # to B's own penalty zone, zone 4
    play(match, "B-K1")
    play(match, "A-K2")
    pass_turn(match)
    assert last(match, "judge")["outcome"] == "swap"
    assert match.decision == SHOT and match.actor == "A"
    assert last(match, "turn_start")["ball"] == {"zone": 4, "arrow": "B"}


def test_used_cards_are_discarded_at_the_end_of_the_turn():  # R-END-1
    match = stacked_match(
        [player("A-K3", keep=3), event("A-E", "keep:+1")], [player("B-K5", keep=5)]
    )
    play(match, "A-E", "A-K3")
    play(match, "B-K5")
    pass_turn(match)
    discards = events(match, "discard", turn=1)
    assert discards == [
        {"type": "discard", "side": "A", "cards": ["A-E", "A-K3"], "half": 1, "turn": 1},
        {"type": "discard", "side": "B", "cards": ["B-K5"], "half": 1, "turn": 1},
    ]
    assert match.discard_count("A") == 2 and match.discard_count("B") == 1
    assert match.in_play("A") == ()


def test_a_side_that_used_no_card_has_no_discard_event():  # R-END-1
    match = stacked_match()
    pass_turn(match)
    assert events(match, "discard") == []
