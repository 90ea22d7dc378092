"""Effect sets: the file format, its validation, the shipped sets, and each kind of effect."""

import json

import pytest

from play.touchdown import (
    ChooseCard,
    ChooseHero,
    EffectSetError,
    Follow,
    Options,
    UseSkill,
    effect_set_problems,
    load_effect_set,
    play_game,
)
from play.touchdown.game import CHOOSE_CARD, CHOOSE_HERO, FOLLOW, LEAD

from .helpers import effect_data, events, last, options_with, started, trick


def test_both_shipped_sets_load_and_the_example_says_it_is_ours():
    none = load_effect_set("none")
    example = load_effect_set("example")
    assert all(steps == () for steps in none.playbook[1:])
    assert all(hero.skill is None and hero.kick == 0 for hero in none.heroes)
    assert "not the designer's" in example.label
    assert "NOT THE DESIGNER'S" in example.to_dict()["description"]
    assert all(example.playbook[1:]) and all(hero.skill for hero in example.heroes)
    kinds = {step.kind for steps in example.playbook[1:] for step in steps}
    kinds |= {step.kind for hero in example.heroes for step in hero.skill.steps}
    assert kinds == {
        "advance",
        "hold",
        "win_rule",
        "force_failure",
        "intercept",
        "hero_up",
        "change_suit",
        "card_value",
        "cancel_card",
        "kick_minimum",
    }


@pytest.mark.parametrize("effects", ["none", "example"])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_both_shipped_sets_play_whole_games(effects, policy):
    for seed in range(15):
        outcome = play_game(Options(effects=effects), policy, seed)
        assert outcome.log["rules"]["house"]["effects"] == effects
        assert outcome.log["events"][-1]["type"] == "game_end"


def test_a_designers_own_file_is_loaded_from_its_path(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(effect_data({7: [{"kind": "hold"}]}, name="mine")))
    effects = load_effect_set(str(path))
    assert effects.name == "mine" and effects.playbook[7][0].kind == "hold"
    outcome = play_game(Options(effects=path), "greedy", 1)
    assert outcome.log["rules"]["effect_set"]["name"] == "mine"


def problems_of(change):
    data = effect_data()
    change(data)
    return effect_set_problems(data)


def test_a_valid_set_has_no_problems():
    assert effect_set_problems(effect_data()) == []


def test_an_unknown_kind_is_named_with_its_entry_and_step():
    def change(data):
        data["playbook"]["4"]["effect"] = [{"kind": "hold"}, {"kind": "teleport"}]

    assert problems_of(change) == [
        "playbook 4, step 2: unknown kind 'teleport'; the kinds are advance, hold, win_rule, "
        "force_failure, intercept, hero_up, change_suit, card_value, cancel_card, kick_minimum."
    ]


def test_bad_parameters_are_each_reported():
    def change(data):
        data["playbook"]["1"]["effect"] = [{"kind": "advance", "squares": 0, "yards": 3}]
        data["playbook"]["2"]["effect"] = [{"kind": "win_rule"}]
        data["playbook"]["3"]["effect"] = [{"kind": "change_suit", "to": "purple"}]

    problems = problems_of(change)
    assert "playbook 1, step 1: advance has no parameter 'yards' (it takes: squares)." in problems
    assert "playbook 1, step 1: advance 'squares' must be a whole number 1..10, not 0." in problems
    assert "playbook 2, step 1: win_rule needs the parameter 'rule'." in problems
    assert any(
        p.startswith("playbook 3, step 1: change_suit 'to' must be one of") for p in problems
    )


def test_a_missing_number_and_a_duplicate_jersey_are_named():
    def change(data):
        del data["playbook"]["7"]
        data["heroes"][2]["jersey"] = 2

    problems = problems_of(change)
    assert "playbook: no entry for number(s) 7." in problems
    assert "hero 3 (Hero 3): jersey 2 is also hero 2's (TD-SET-4)." in problems


def test_skills_are_checked_for_their_timing():
    def change(data):
        data["heroes"][0]["skill"] = {"when": "kickoff", "effect": [{"kind": "hold"}]}
        data["heroes"][1]["skill"] = {
            "when": "trick",
            "effect": [{"kind": "card_value", "value": 1, "target": "this_card"}],
        }
        data["heroes"][2]["skill"] = {
            "when": "trick",
            "effect": [{"kind": "kick_minimum", "ball": 7}],
        }
        data["heroes"][3]["skill"] = {"when": "halftime", "effect": []}
        data["heroes"][4]["skill"] = {
            "when": "trick",
            "effect": [{"kind": "hero_up", "whose": "own"}],
        }

    problems = problems_of(change)
    assert problems == [
        "hero 1 (Hero 1), skill, step 1: a kick-off skill may use only kick_minimum.",
        "hero 2 (Hero 2), skill, step 1: a skill is used before its holder plays, so no "
        "'this_card'.",
        "hero 3 (Hero 3), skill, step 1: kick_minimum belongs only in a skill used at a kick-off.",
        "hero 4 (Hero 4), skill: 'when' must be one of trick, kickoff, not 'halftime'.",
        "hero 5 (Hero 5), skill, step 1: a skill cannot turn its own hero face up (it would "
        "never end).",
    ]


def test_a_wrong_top_level_is_reported_whole():
    problems = effect_set_problems({"format": "x", "heroes": [], "playbook": []})
    assert "'format' must be 'touchdown-effect-set'." in problems
    assert "'heroes' must be a list of exactly 10 heroes (TD-COMP-2)." in problems
    assert '\'playbook\' must be an object with the keys "1" .. "10".' in problems
    assert effect_set_problems([]) == ["The file must hold one JSON object."]


def test_loading_a_bad_file_raises_with_the_path_and_every_problem(tmp_path):
    path = tmp_path / "bad.json"
    data = effect_data({5: [{"kind": "hold", "squares": 2}]})
    data["heroes"][0]["kick"] = 9
    path.write_text(json.dumps(data))
    with pytest.raises(EffectSetError) as raised:
        load_effect_set(path)
    message = str(raised.value)
    assert str(path) in message
    assert "playbook 5, step 1: hold has no parameter 'squares'" in message
    assert "hero 1 (Hero 1): 'kick' must be a whole number 0..5, not 9." in message
    assert len(raised.value.problems) == 2


def test_a_file_that_is_not_json_says_where(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": ')
    with pytest.raises(EffectSetError, match="not JSON: .* line 1"):
        load_effect_set(path)
    with pytest.raises(EffectSetError, match="cannot read the file"):
        load_effect_set(tmp_path / "missing.json")


# ----- each kind of effect in play ---------------------------------------------------------


def test_force_failure_makes_an_offense_take_a_failure_and_keeps_its_lead():  # TD-JUDGE-3
    game = started(options=options_with({10: [{"kind": "force_failure"}]}))
    trick(game, "R3", "pass", "G10", "R7", "R4")
    judged = last(game, "trick")
    assert (judged["taker"], judged["outcome"], judged["advance"]) == (0, "failure", 0)
    assert (game.lead, game.series, game.ball) == (0, 2, 8)


def test_hold_keeps_the_ball_where_it_is():
    game = started(options=options_with({10: [{"kind": "hold"}]}))
    trick(game, "R3", "pass", "G10", "R7", "R8")
    assert (last(game, "trick")["outcome"], game.ball, game.series) == ("success", 8, 2)


def test_advance_moves_the_ball_for_the_players_team():
    options = options_with(
        {9: [{"kind": "advance", "squares": 2}], 7: [{"kind": "advance", "squares": 2}]}
    )
    game = started(options=options)
    trick(game, "R5", "pass", "B9", "R7", "R8")  # the Bears' B9 pushes back 2
    assert (last(game, "trick")["advance"], game.ball) == (3, 5)
    trick(game, "B5", "pass", "G1", "Y7", "B8")  # the Eagles' Y7 adds 2
    assert last(game, "trick")["advance"] == 7
    assert game.score == {"eagles": 3, "bears": 0}


def test_an_offense_advance_effect_counts_only_on_an_attack_success():  # HOUSE
    game = started(options=options_with({2: [{"kind": "advance", "squares": 3}]}))
    trick(game, "R5", "pass", "R1", "G2", "R8")  # Eagles' G2 advance, but the Bears take
    assert (last(game, "trick")["outcome"], game.ball) == ("failure", 8)


def test_highest_wins_this_trick():
    game = started(options=options_with({10: [{"kind": "win_rule", "rule": "highest"}]}))
    trick(game, "R5", "pass", "G10", "R7", "R8")
    judged = last(game, "trick")
    assert (judged["rule"], judged["taker"], judged["value"]) == ("highest", 3, 8)
    trick(game, "R3", "pass", "R9", "R2", "B8")  # the next trick is back to lowest
    assert last(game, "trick")["rule"] == "lowest"


def test_cancel_card_stops_a_following_card_from_taking():
    game = started(options=options_with({10: [{"kind": "cancel_card", "target": "choose"}]}))
    trick(game, "R5", "pass", "R1", "R7", "B10")
    assert game.decision == CHOOSE_CARD and set(game.choice_targets) == {"R1", "R7"}
    game.apply_action(ChooseCard(3, "R1"))
    assert (last(game, "trick")["taker"], game.ball) == (0, 3)
    assert last(game, "choice") == {
        "type": "choice",
        "seat": 3,
        "kind": "cancel_card",
        "value": "R1",
    }


def test_a_target_outside_the_choices_is_refused():
    game = started(options=options_with({10: [{"kind": "cancel_card", "target": "choose"}]}))
    trick(game, "R5", "pass", "R1", "R7", "B10")
    assert not game.is_legal(ChooseCard(3, "R5"))  # the led card cannot be cancelled


def test_a_skill_is_used_face_down_and_a_playbook_effect_turns_it_up():  # TD-COMP-2
    game = started(
        options=options_with(
            {10: [{"kind": "hero_up", "whose": "choose"}]},
            {2: {"skill": {"when": "trick", "effect": [{"kind": "force_failure"}]}}},
        )
    )
    trick(game, "R3", "pass")
    assert game.decision == FOLLOW and UseSkill(1) in game.legal_actions()
    game.apply_action(UseSkill(1))
    assert game.hero_up[1] is False and UseSkill(1) not in game.legal_actions()
    assert last(game, "skill") == {
        "type": "skill",
        "seat": 1,
        "hero": 2,
        "steps": [{"kind": "force_failure"}],
    }
    game.apply_action(Follow(1, "R9"))
    game.apply_action(Follow(2, "R7"))
    game.apply_action(Follow(3, "B10"))
    assert game.decision == CHOOSE_HERO and game.choice_targets == (1,)
    game.apply_action(ChooseHero(3, 1))
    assert game.hero_up[1] is True
    assert last(game, "trick")["outcome"] == "failure"
    assert game.stats.skills == {"eagles": 0, "bears": 1}


def test_a_skill_cannot_turn_its_own_hero_face_up():  # HOUSE
    skill = {"when": "trick", "effect": [{"kind": "hero_up", "whose": "choose"}]}
    game = started(options=options_with(heroes={1: {"skill": skill}}))
    assert game.decision == LEAD
    game.apply_action(UseSkill(0))
    assert game.decision == LEAD and game.hero_up[0] is False  # no other hero was down
    assert events(game, "choice") == []
