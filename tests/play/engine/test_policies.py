"""The bot policies: random, greedy, passive."""

import random

import pytest

from play.engine.actions import ChooseGoalKick, ChooseShot, HalftimeSwaps, PlayCards
from play.engine.match import HALFTIME, SHOT, Match
from play.engine.policies import POLICIES, get_policy
from play.engine.runner import play_match
from play.engine.testing import event, goalkeeper, player, sample_side_deck, stacked_match

from .scripts import pass_turn, pass_until, play, shoot

RNG = random.Random(0)


def test_policies_are_found_by_name():
    assert set(POLICIES) == {"random", "greedy", "passive"}
    assert get_policy("greedy").name == "greedy"
    with pytest.raises(ValueError, match="Unknown policy 'clever'"):
        get_policy("clever")


@pytest.mark.parametrize("name", ["random", "greedy", "passive"])
def test_every_policy_only_chooses_legal_actions(name):
    policy = get_policy(name)
    match = Match.new(sample_side_deck(3), sample_side_deck(4), seed=1)
    rng = random.Random(1)
    while not match.is_terminal():
        action = policy.choose(match, rng)
        assert match.is_legal(action), action
        match.apply_action(action)


def test_passive_never_uses_a_card_never_shoots_and_kicks_to_the_middle():
    passive = get_policy("passive")
    match = stacked_match()
    assert passive.choose(match, RNG) == PlayCards("A", ())
    pass_until(match, SHOT)
    assert passive.choose(match, RNG) == ChooseShot("A", False)
    shoot(match)
    pass_turn(match)
    assert passive.choose(match, RNG) == ChooseGoalKick("B", "middle_zone")


def test_greedy_shoots_with_its_best_two_shooters():
    greedy = get_policy("greedy")
    top = [
        player("A-S5", shoot=5, keep=1),
        player("A-S7", shoot=7, keep=2),
        player("A-S2", shoot=2),
        event("A-B", "shoot:+2"),
    ]
    match = stacked_match(top)
    pass_until(match, SHOT)
    assert greedy.choose(match, RNG) == ChooseShot("A", True)
    shoot(match)
    assert greedy.choose(match, RNG) == PlayCards("A", ("A-B", "A-S5", "A-S7"))


def test_greedy_defends_a_shot_with_the_cheapest_cards_that_stop_it():
    greedy = get_policy("greedy")
    match = stacked_match(
        [player("A-S6", shoot=6, keep=1)],
        [
            player("B-D2", defense=2, keep=0),
            player("B-D9", defense=9, keep=9),
            player("B-D4", defense=4, keep=0),
        ],
        keeper_b=goalkeeper("GK-B", 3),
    )
    pass_until(match, SHOT)
    shoot(match)
    play(match, "A-S6")
    # 6 against the keeper's 3: B needs 4 more to stop it; 2 would only force a corner kick.
    assert greedy.choose(match, RNG) == PlayCards("B", ("B-D4",))


def test_greedy_holds_the_ball_by_playing_nothing_when_not_shooting():
    greedy = get_policy("greedy")
    match = stacked_match([player("A-K9", keep=9)])
    assert greedy.choose(match, RNG) == PlayCards("A", ())


def test_greedy_cycles_pure_draw_events_while_holding_the_ball():
    greedy = get_policy("greedy")
    match = stacked_match([event("A-D", "draw:2"), event("A-K", "keep:+2")])
    assert greedy.choose(match, RNG) == PlayCards("A", ("A-D",))


def test_greedy_takes_the_ball_when_it_is_cheap():
    greedy = get_policy("greedy")
    match = stacked_match([player("A-K2", keep=2)], [player("B-K3", keep=3)])
    play(match, "A-K2")
    assert greedy.choose(match, RNG) == PlayCards("B", ("B-K3",))


def test_greedy_and_passive_make_no_halftime_swaps():
    for name in ("greedy", "passive"):
        match = stacked_match([event("A-DRAIN", "draw:56")])
        play(match, "A-DRAIN")
        pass_until(match, HALFTIME)
        assert get_policy(name).choose(match, RNG) == HalftimeSwaps("A", ())


def test_greedy_beats_random_most_of_the_time():
    wins = sum(
        play_match(
            sample_side_deck(seed),
            sample_side_deck(seed + 500),
            policy_a="greedy",
            policy_b="random",
            seed=seed,
            log=False,
        ).winner
        == "A"
        for seed in range(40)
    )
    assert wins >= 30
