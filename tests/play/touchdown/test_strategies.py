"""Kick-off strategies as team policies: always normal, always random, own, adaptive."""

from collections import Counter

import pytest

from play.touchdown import KickOff, Options, get_policy, play_game, replay
from play.touchdown import strategies as strategies_module
from play.touchdown.game import KICKOFF_CHOICE
from play.touchdown.strategies import kickoff_table, stage_of, team_policy

DRAFT = Options()
NO_THREE_PLUS = Options(random_kick_base=0)  # the guarantee read as the "3 +" of 3 + d6


def kickoff_choices(options, policy, seeds):
    chosen = Counter()
    for seed in seeds:
        for kinds in play_game(options, policy, seed, log=False).kickoffs.values():
            chosen.update(kinds)
    return chosen


@pytest.fixture
def quick_calibration(monkeypatch):
    """Calibrate the adaptive tables on 800 games instead of ADAPTIVE_GAMES (test speed)."""
    monkeypatch.setattr(strategies_module, "ADAPTIVE_GAMES", 800)


def test_team_policies_are_named_bot_plus_strategy():
    assert get_policy("greedy+normal").name == "greedy+normal"
    assert get_policy("random+adaptive").strategy == "adaptive"
    assert get_policy("greedy") is not team_policy("greedy")  # the bare bot is the bot itself
    assert team_policy("greedy").name == "greedy"
    with pytest.raises(ValueError, match="kick-off strategy 'sometimes'"):
        get_policy("greedy+sometimes")
    with pytest.raises(ValueError, match="Unknown policy 'clever'"):
        get_policy("clever+normal")


@pytest.mark.parametrize(("strategy", "kind"), [("normal", "normal"), ("random", "random")])
def test_always_normal_and_always_random_kick_as_named(strategy, kind):
    chosen = kickoff_choices(DRAFT, f"greedy+{strategy}", range(5))
    assert set(chosen) == {kind} or chosen[kind] == sum(chosen.values())
    assert chosen[kind] > 20


def test_a_team_policy_game_replays_and_names_its_policies():
    log = play_game(DRAFT, ["greedy+normal", "random+random"] * 2, 3).log
    assert [seat["policy"] for seat in log["seats"]] == ["greedy+normal", "random+random"] * 2
    assert replay(log).result == log["result"]


def test_the_greedy_bots_own_choice_follows_the_variants_kick_offs():
    # the old fixed table chose random at every kick-off in every variant
    draft = kickoff_choices(DRAFT, "greedy", range(30))
    no_three = kickoff_choices(NO_THREE_PLUS, "greedy", range(30))
    assert 0.5 < draft["random"] / sum(draft.values()) < 1.0  # ahead late, it kicks normal
    assert no_three["random"] / sum(no_three.values()) < 0.2


def test_the_adaptive_table_is_measured_for_the_variant(quick_calibration):
    draft = kickoff_table(DRAFT, "greedy")
    assert draft.games == 800
    assert sum(n for _, n in draft.normal) > 1500 and sum(n for _, n in draft.random) > 1500
    assert draft.gain(stage_of(9)) > 0  # early in a half, random kicking pays in the draft
    no_three = kickoff_table(NO_THREE_PLUS, "greedy")
    assert all(no_three.gain(stage) < 0 for stage in range(3))
    assert kickoff_table(DRAFT, "greedy") is draft  # measured once


def test_the_adaptive_strategy_kicks_random_in_the_draft_and_rarely_without_the_3_plus(
    quick_calibration,
):
    draft = kickoff_choices(DRAFT, "greedy+adaptive", range(20))
    no_three = kickoff_choices(NO_THREE_PLUS, "greedy+adaptive", range(20))
    assert draft["random"] / sum(draft.values()) > 0.5
    assert no_three["random"] / sum(no_three.values()) < 0.1


def test_always_random_uses_a_kick_off_skill_that_raises_the_floor():
    from .helpers import options_with, started

    skill = {"when": "kickoff", "effect": [{"kind": "kick_minimum", "ball": 8}]}
    game = started(kickoff=None, rolls=[2], options=options_with(heroes={2: {"skill": skill}}))
    assert game.decision == KICKOFF_CHOICE
    policy = team_policy("greedy+random")
    first = policy.choose(game, None)
    assert type(first).__name__ == "UseSkill"
    game.apply_action(first)
    assert policy.choose(game, None) == KickOff(1, "random")
