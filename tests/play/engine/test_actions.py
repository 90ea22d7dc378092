"""Typed actions and their JSON form."""

import pytest

from play.engine.actions import (
    ChooseGoalKick,
    ChooseShot,
    HalftimeSwaps,
    PlayCards,
    action_from_dict,
    action_to_dict,
)

ACTIONS = [
    ChooseGoalKick("A", "penalty_zone"),
    ChooseShot("B", False),
    PlayCards("A", ("X-2", "X-1", "X-1")),
    PlayCards("B", ()),
    HalftimeSwaps("A", (("X-9", "X-1"), ("X-3", "X-4"))),
]


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_survives_a_round_trip_through_json(action):
    assert action_from_dict(action_to_dict(action)) == action


def test_the_json_form_is_plain_data():
    assert action_to_dict(PlayCards("A", ("X-2", "X-1"))) == {
        "type": "play_cards",
        "side": "A",
        "card_ids": ["X-1", "X-2"],
    }
    assert action_to_dict(HalftimeSwaps("B", (("o", "i"),))) == {
        "type": "halftime_swaps",
        "side": "B",
        "swaps": [["o", "i"]],
    }


def test_swaps_are_normalised_so_their_order_does_not_matter():
    assert HalftimeSwaps("A", (("b", "x"), ("a", "y"))) == HalftimeSwaps(
        "A", (("a", "y"), ("b", "x"))
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "shot", "side": "C", "shoot": True}, "side must be"),
        ({"type": "shot", "side": "A"}, "lacks the field"),
        ({"type": "shot", "side": "A", "shoot": "yes"}, "true or false"),
        ({"type": "goal_kick", "side": "A", "zone": "center"}, "zone must be"),
        ({"type": "play_cards", "side": "A", "card_ids": "X-1"}, "list of card ids"),
        ({"type": "halftime_swaps", "side": "A", "swaps": [["a"]]}, "pairs"),
        ({"type": "dance", "side": "A"}, "Unknown action type"),
        (["shot"], "JSON object"),
    ],
)
def test_bad_action_data_is_refused_with_a_reason(data, message):
    with pytest.raises(ValueError, match=message):
        action_from_dict(data)
