"""Narration of match-log events: plain sentences with their numbers and rule IDs."""

import pytest

from play.engine import play_match
from play.engine.testing import sample_side_deck
from play.narrate import group_by_turn, narrate

LABELS = {"A": "Reds", "B": "Blues"}
CARDS = {
    "P-1": {
        "id": "P-1",
        "kind": "player",
        "person": "Arai",
        "shoot": 5,
        "keep": 3,
        "defense": 1,
        "effect": None,
    },
    "E-1": {
        "id": "E-1",
        "kind": "event",
        "person": None,
        "shoot": 0,
        "keep": 0,
        "defense": 0,
        "effect": "shoot:+2",
    },
}


def turn(offense="A", **extra):
    return {
        "type": "turn_start",
        "offense": offense,
        "pending": None,
        "ball": {"zone": 3, "arrow": "B"},
        "score": {"A": 0, "B": 0},
        "hands": {"A": [], "B": []},
        "deck_counts": {"A": 50, "B": 50},
        "half": 1,
        "turn": 3,
        **extra,
    }


def text(events, **kwargs):
    return [line.text for line in narrate(events, cards=CARDS, labels=LABELS, **kwargs)]


def judge(shoot, defense, keeper, outcome):
    return {
        "type": "judge",
        "kind": "shot",
        "shoot": shoot,
        "defense": defense,
        "goalkeeper_defense": keeper,
        "outcome": outcome,
        "half": 1,
        "turn": 3,
    }


def test_an_equal_shot_is_a_corner_kick():
    lines = text([turn(), judge(7, 4, 3, "corner_kick")])
    assert lines[1] == "Shot 7 vs defense 4 + keeper 3: equal → corner kick (R-JUDGE-3)"


@pytest.mark.parametrize(
    ("shoot", "outcome", "expected"),
    [
        (8, "goal", "Shot 8 vs defense 4 + keeper 3: greater → goal (R-JUDGE-2)"),
        (6, "goal_kick", "Shot 6 vs defense 4 + keeper 3: less → goal kick for Blues (R-JUDGE-4)"),
    ],
)
def test_a_shot_states_its_comparison_and_rule(shoot, outcome, expected):
    assert text([turn(), judge(shoot, 4, 3, outcome)])[1] == expected


def test_a_keep_judgment_names_who_has_the_ball():
    swap = {
        "type": "judge",
        "kind": "keep",
        "offense_keep": 2,
        "defense_keep": 5,
        "outcome": "swap",
        "half": 1,
        "turn": 3,
    }
    hold = {**swap, "defense_keep": 2, "outcome": "hold"}
    lines = text([turn(), swap, turn("B"), hold])
    assert "Keep 2 vs 5" in lines[1] and "Blues wins the ball" in lines[1]
    assert "(R-JUDGE-5)" in lines[1]
    assert "Blues keeps the ball" in lines[3]


def test_the_play_phase_end_gives_the_keep_totals():
    play = {
        "type": "play",
        "side": "B",
        "timing": 2,
        "cards": [],
        "player_cards_this_turn": 0,
        "totals": {
            "A": {"keep": 3, "shoot": 5, "defense": 1},
            "B": {"keep": 0, "shoot": 0, "defense": 0},
        },
        "half": 1,
        "turn": 3,
    }
    end = {"type": "play_end", "reason": "not_ahead", "timing": 2, "half": 1, "turn": 3}
    lines = narrate([turn(), play, end], cards=CARDS, labels=LABELS)
    assert lines[2].text == (
        "Blues is not ahead on keep (0 ≤ 3), so the play phase ends after timing 2."
    )
    assert lines[2].rule == "R-PLAY-4"
    assert "Reds keep 3 · shoot 5 · defense 1" in lines[1].text


def test_cards_used_show_their_numbers_and_effects():
    play = {
        "type": "play",
        "side": "A",
        "timing": 1,
        "cards": ["E-1", "P-1"],
        "player_cards_this_turn": 1,
        "totals": {
            "A": {"keep": 3, "shoot": 7, "defense": 1},
            "B": {"keep": 0, "shoot": 0, "defense": 0},
        },
        "half": 1,
        "turn": 3,
    }
    effect = {
        "type": "effect",
        "side": "A",
        "card": "E-1",
        "effect": "shoot:+2",
        "delta": {
            "A": {"keep": 0, "shoot": 2, "defense": 0},
            "B": {"keep": 0, "shoot": 0, "defense": 0},
        },
        "half": 1,
        "turn": 3,
    }
    lines = narrate([turn(), play, effect], cards=CARDS, labels=LABELS)
    assert "Arai (5/3/1)" in lines[1].text and "[shoot:+2]" in lines[1].text
    assert lines[2].text == "E-1 takes effect (shoot:+2): Reds shoot +2."
    assert lines[2].rule == "R-PLAY-3"


def test_the_viewer_does_not_see_the_opponents_draws():
    draw = {
        "type": "draw",
        "side": "B",
        "cards": ["P-1", "P-1"],
        "reason": "shoot",
        "deck_count": 40,
        "half": 1,
        "turn": 3,
    }
    hidden = text([turn("B"), draw], viewer="A")[1]
    shown = text([turn("B"), draw])[1]
    assert "Arai" not in hidden and "2 card(s)" in hidden
    assert "Arai, Arai" in shown


def test_a_forced_shot_after_the_back_pass_limit_is_explained():
    rules = {"house": {"max_back_passes": 3}}
    back = {
        "type": "kick",
        "case": "shot_chance",
        "choice": "back_pass",
        "ball": {"zone": 3, "arrow": "B"},
        "shot": False,
        "half": 1,
        "turn": 3,
    }
    shot = {**back, "choice": "shoot", "ball": {"zone": 4, "arrow": "B"}, "shot": True}
    lines = text([turn(), back, turn(), back, turn(), back, turn(), shot], rules=rules)
    assert "must shoot (house rule)" in lines[-1]


def test_every_event_of_whole_matches_is_narrated_with_its_rule():
    kinds = set()
    for seed in range(4):
        log = play_match(
            sample_side_deck(seed),
            sample_side_deck(seed + 100),
            policy_a="greedy",
            policy_b="random",
            seed=seed,
        ).log
        lines = narrate(log["events"], cards=log["cards"], labels=LABELS, rules=log["rules"])
        assert len(lines) == len(log["events"])
        for line, event in zip(lines, log["events"], strict=True):
            kinds.add(event["type"])
            assert line.text and "Unknown event" not in line.text
            if event["type"] not in ("turn_start",):
                assert line.rule and line.rule.startswith("R-"), event
        goals = [line for line in lines if line.type == "goal"]
        assert all(line.tone == "goal" and line.key for line in goals)
        groups = group_by_turn(lines)
        assert sum(len(g["lines"]) for g in groups) == len(lines)
    assert {"kick", "play", "judge", "discard", "half_end", "match_end"} <= kinds


def test_a_shootout_is_narrated_kick_by_kick():
    log = play_match(
        sample_side_deck(1), sample_side_deck(2), policy_a="passive", policy_b="passive", seed=1
    ).log
    assert log["result"]["pk"] is not None
    lines = narrate(log["events"], cards=log["cards"], labels=LABELS, rules=log["rules"])
    kicks = [line for line in lines if line.type == "pk_kick"]
    assert kicks and all(line.rule == "R-PK-3" for line in kicks)
    assert all(("scores" in line.text) != ("saved" in line.text) for line in kicks)
    assert lines[-1].type == "match_end" and "shootout" in lines[-1].text


def test_an_empty_timing_that_passes_reads_as_a_pass_to_the_other_side():
    # R-PLAY-4 (empty_timing: passes): the defense's timing follows an empty offense timing.
    empty = {
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
        "turn": 3,
    }
    rules = {"house": {"empty_timing": "passes"}}
    lines = text([turn(), empty], rules=rules)
    assert lines[1].startswith(
        "Timing 1 (offense): Reds uses no card and passes; Blues has the next timing."
    )
    first_edition = text([turn(), empty])
    assert first_edition[1].startswith("Timing 1 (offense): Reds uses no card.")
