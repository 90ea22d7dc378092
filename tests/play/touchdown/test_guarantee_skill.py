"""The draft's remedy: the minimum-kick guarantee as a hero skill (TD-COMP-2, TD-KICK-1)."""

import pytest

from play.touchdown import KickOff, Options, UseSkill, play_game
from play.touchdown.effects import guarantee_holders
from play.touchdown.game import KICKOFF_CHOICE
from play.touchdown.options import rules_object

from .helpers import last, started


@pytest.mark.parametrize(
    ("count", "positions"),
    [(0, ()), (1, (5,)), (2, (2, 7)), (3, (1, 5, 8)), (5, (1, 3, 5, 7, 9)), (10, tuple(range(10)))],
)
def test_the_holders_are_spread_over_the_jersey_order(count, positions):  # TD-COMP-2 (HOUSE)
    assert guarantee_holders(count) == positions


def test_k_heroes_carry_the_kick_off_skill_and_the_others_none():  # TD-COMP-2
    options = Options(guarantee_heroes=2)
    carriers = [hero.jersey for hero in options.effects.heroes if hero.skill is not None]
    assert carriers == [3, 8]  # the bare rules' heroes are jerseys 1..10
    skill = options.effects.heroes[2].skill
    assert skill.when == "kickoff"
    assert [step.to_dict() for step in skill.steps] == [{"kind": "kick_minimum", "ball": 7}]
    assert options.effects.name == "none+guarantee2@7"
    assert Options().effects.name == "none"  # the draft: no hero carries it


@pytest.mark.parametrize(("roll", "ball"), [(2, 7), (3, 7), (4, 7), (5, 8), (6, 9)])
def test_the_holder_turns_the_hero_down_and_the_kick_lands_at_7_or_further(roll, ball):
    # TD-COMP-2 (a skill turns the hero face down), TD-KICK-1 (3 + roll, floored by the skill)
    game = started(kickoff=None, rolls=[roll], options=Options(guarantee_heroes=5))
    assert (game.decision, game.actor) == (KICKOFF_CHOICE, 1)  # seat 1 holds jersey 2, a carrier
    game.apply_action(UseSkill(1))
    assert game.hero_up[1] is False
    game.apply_action(KickOff(1, "random"))
    assert game.ball == ball
    assert last(game, "kickoff")["minimum"] == 7


def test_without_the_skill_the_same_kick_lands_at_3_plus_the_roll():  # TD-KICK-1
    game = started(kickoff=None, rolls=[2], options=Options(guarantee_heroes=1))
    assert UseSkill(1) not in game.legal_actions()  # jersey 2 does not carry it with k = 1
    game.apply_action(KickOff(1, "random"))
    assert game.ball == 5


def test_the_skill_never_stops_an_onside_kick():  # TD-KICK-1 (HOUSE: onside on the roll alone)
    game = started(kickoff=None, rolls=[1], options=Options(guarantee_heroes=5))
    game.apply_action(UseSkill(1))
    game.apply_action(KickOff(1, "random"))
    kick = last(game, "kickoff")
    assert (kick["onside"], kick["offense"], kick["ball"]) == (True, "bears", 7)


def test_a_used_skill_is_gone_for_the_next_kick_off_of_the_half():  # TD-COMP-2
    game = started(kickoff=None, rolls=[3], options=Options(guarantee_heroes=10, guarantee_ball=9))
    game.apply_action(UseSkill(1))
    game.apply_action(KickOff(1, "random"))
    assert game.ball == 9
    assert UseSkill(1) not in game.legal_actions()


def test_a_log_names_the_option_and_reads_back_to_the_same_options():  # log `rules.house`
    options = Options(guarantee_heroes=3, guarantee_ball=8)
    rules = rules_object(options)
    assert rules["house"]["guarantee_heroes"] == 3 and rules["house"]["guarantee_ball"] == 8
    assert Options.from_rules(rules) == options
    old = rules_object(Options())
    del old["house"]["guarantee_heroes"], old["house"]["guarantee_ball"]  # a log from before
    assert Options.from_rules(old) == Options()


@pytest.mark.parametrize(("field", "value"), [("guarantee_heroes", 11), ("guarantee_ball", 0)])
def test_bad_values_name_the_option(field, value):
    with pytest.raises(ValueError, match=field):
        Options(**{field: value})


def test_greedy_always_random_uses_the_skill_before_kicking():  # strategies: `random` uses it
    outcome = play_game(
        Options(guarantee_heroes=10), ("greedy+random", "greedy+normal") * 2, seed=3
    )
    assert outcome.skills_used["eagles"] > 0  # the bare rules have no other skill
    assert outcome.skills_used["bears"] == 0  # a normal kick has no use for it
