"""The typed actions and their JSON form."""

import pytest

from play.touchdown import (
    ChooseCard,
    ChooseHero,
    ChooseSuit,
    Follow,
    KickOff,
    Lead,
    ShowCards,
    UseSkill,
    action_from_dict,
    action_to_dict,
)

ACTIONS = [
    ShowCards(0, ("G7", "R3", "B5")),
    KickOff(1, "random"),
    Lead(2, "R10", "kick"),
    Follow(3, "Y4"),
    UseSkill(0),
    ChooseSuit(1, "G"),
    ChooseCard(2, "B1"),
    ChooseHero(3, 1),
]


@pytest.mark.parametrize("action", ACTIONS)
def test_every_action_survives_its_json_form(action):
    assert action_from_dict(action_to_dict(action)) == action


def test_shown_cards_are_kept_in_card_order():
    assert ShowCards(0, ("G7", "R3", "B5")).card_ids == ("R3", "B5", "G7")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "follow", "seat": 4, "card": "R1"}, "seat must be"),
        ({"type": "follow", "seat": True, "card": "R1"}, "seat must be"),
        ({"type": "follow", "seat": 0, "card": "R11"}, "not a play card"),
        ({"type": "lead", "seat": 0, "card": "R1", "play": "punt"}, "declares one of"),
        ({"type": "kickoff", "seat": 0, "kind": "squib"}, "normal, random"),
        ({"type": "choose_suit", "seat": 0, "suit": "X"}, "A suit is one of"),
        ({"type": "lead", "seat": 0, "card": "R1"}, "lacks the field"),
        ({"type": "dance", "seat": 0}, "Unknown action type"),
        ([], "JSON object"),
    ],
)
def test_bad_action_data_is_refused_with_a_reason(data, message):
    with pytest.raises(ValueError, match=message):
        action_from_dict(data)
