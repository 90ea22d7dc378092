"""The runner: outcomes, determinism, replay, and the engine standing without Django."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from play.touchdown import (
    DEFAULT_OPTIONS,
    Game,
    GameOutcome,
    Options,
    ReplayMismatch,
    get_policy,
    play_game,
    replay,
)
from play.touchdown.options import FIXED_HOUSE_RULES

ROOT = Path(__file__).resolve().parents[3]


def test_an_outcome_has_every_count_a_balance_lab_needs():
    outcome = play_game(Options(), "greedy", 7, log=False)
    assert isinstance(outcome, GameOutcome)
    data = outcome.to_dict()
    for name in (
        "score",
        "winner",
        "draw",
        "kickoffs",
        "onside_attempts",
        "onside_successes",
        "random_kickoffs",
        "onside_kicking_teams",
        "drives",
        "points_per_drive",
        "touchdowns",
        "kick_points",
        "tricks",
    ):
        assert name in data
    json.dumps(data)  # JSON-ready


def test_different_seeds_give_different_games():
    logs = {json.dumps(play_game(Options(), "random", seed).log["events"]) for seed in range(5)}
    assert len(logs) == 5


def test_four_policies_may_be_given_one_per_seat():
    outcome = play_game(Options(), ["greedy", "random", "greedy", "random"], 3)
    assert [seat["policy"] for seat in outcome.log["seats"]] == [
        "greedy",
        "random",
        "greedy",
        "random",
    ]
    with pytest.raises(ValueError, match="Unknown policy"):
        get_policy("clever")


def test_the_log_records_the_rules_house_decisions_and_options():
    options = Options(onside_rolls=2, minimum_kick=True, effects="example")
    log = play_game(options, "greedy", 11).log
    house = log["rules"]["house"]
    assert {name: house[name] for name in FIXED_HOUSE_RULES} == FIXED_HOUSE_RULES
    assert (house["onside_rolls"], house["minimum_kick"], house["kick_floor"]) == (2, True, 7)
    assert house["effects"] == "example"
    assert log["rules"]["effect_set"]["label"] == "An example set of ours, not the designer's"
    assert Options.from_rules(log["rules"]) == options


def test_replay_refuses_a_tampered_log():
    log = play_game(DEFAULT_OPTIONS, "greedy", 5).log
    tampered = copy.deepcopy(log)
    tampered["events"][0]["pile"] = list(reversed(tampered["events"][0]["pile"]))
    with pytest.raises(ReplayMismatch, match="differs at event 0"):
        replay(tampered)
    cut = copy.deepcopy(log)
    cut["actions"] = cut["actions"][:-1]
    with pytest.raises(ReplayMismatch):
        replay(cut)
    wrong = copy.deepcopy(log)
    wrong["rules"]["house"]["ball_far_end"] = "bounces"
    with pytest.raises(ValueError, match="ball_far_end"):
        replay(wrong)


def test_a_game_without_a_log_says_so():
    game = Game.new(seed=1, record_log=False)
    with pytest.raises(ValueError, match="record_log=False"):
        game.to_log()


def test_options_are_checked():
    with pytest.raises(ValueError, match="onside_rolls"):
        Options(onside_rolls=7)
    with pytest.raises(ValueError, match="kickoffs"):
        Options(kickoffs="squib_only")
    with pytest.raises(ValueError, match="random_kick_base") as error:
        Options(random_kick_base=-1, kick_floor=11, onside_ball=True, normal_kick_ball=0)
    for name in ("kick_floor", "onside_ball", "normal_kick_ball"):
        assert name in str(error.value)
    for name, value in [
        ("kickoff_kick_ability", "always"),
        ("kick_play_hand", "nobody"),
        ("suit_change_judges", "sometimes"),
    ]:
        with pytest.raises(ValueError, match=name):
            Options(**{name: value})


def test_every_option_is_named_in_the_log_and_read_back_from_it():
    options = Options(
        onside_rolls=2,
        random_kick_base=0,
        kick_floor=8,
        onside_ball=9,
        normal_kick_ball=7,
        kickoff_kick_ability="both",
        kick_play_hand="every_player",
        suit_change_judges="every_card",
        guarantee_heroes=2,
        guarantee_ball=8,
        effects="example",
    )
    log = play_game(options, "greedy", 4).log
    house = log["rules"]["house"]
    assert {name: house[name] for name in options.variant()} == {
        "onside_rolls": 2,
        "kickoffs": "choice",
        "random_kick_base": 0,
        "kick_floor": 8,
        "onside_ball": 9,
        "normal_kick_ball": 7,
        "kickoff_kick_ability": "both",
        "kick_play_hand": "every_player",
        "suit_change_judges": "every_card",
        "guarantee_heroes": 2,
        "guarantee_ball": 8,
    }
    assert (log["rules"]["random_kick_base"], log["rules"]["normal_kick_ball"]) == (0, 7)
    assert Options.from_rules(log["rules"]) == options
    assert replay(log).result == log["result"]


def test_the_minimum_kick_switch_is_the_floor_of_7():
    assert Options(minimum_kick=True) == Options(kick_floor=7)
    assert Options(kick_floor=7).minimum_kick is True
    assert Options(kick_floor=8).minimum_kick is False


def test_the_engine_imports_no_django():
    code = (
        "import sys; from play.touchdown import play_game, Options; "
        "play_game(Options(effects='example'), 'greedy', 1); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'cardsite')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
    for path in (ROOT / "play/touchdown").rglob("*.py"):
        assert "django" not in path.read_text(), path
