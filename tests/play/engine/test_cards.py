"""Cards (R-CARD-1..3) and sides."""

import pytest

from play.engine.cards import Card, other
from play.engine.effects import EffectError
from play.engine.testing import event, goalkeeper, player


def test_other_side_is_the_opponent():
    assert other("A") == "B"
    assert other("B") == "A"


def test_card_kinds_are_player_goalkeeper_and_event():  # R-CARD-1
    for kind in ("player", "goalkeeper"):
        assert Card("X-001", kind, "Someone", 1, 2, 3).kind == kind
    assert Card("X-002", "event", None, effect="draw:1").kind == "event"
    with pytest.raises(ValueError, match="kind 'field'"):
        Card("X-003", "field", "Someone")


def test_a_player_card_carries_shoot_keep_and_defense():  # R-CARD-2
    card = player("X-001", shoot=5, keep=3, defense=1)
    assert (card.shoot, card.keep, card.defense) == (5, 3, 1)


def test_event_cards_have_no_powers_of_their_own():  # R-CARD-2
    with pytest.raises(ValueError, match="event card has shoot, keep and defense 0"):
        Card("X-001", "event", None, keep=1, effect="draw:1")


def test_event_cards_need_effect_text_in_the_vocabulary():
    with pytest.raises(ValueError, match="needs its effect"):
        Card("X-001", "event", None)
    with pytest.raises(EffectError, match="heal"):
        Card("X-001", "event", None, effect="heal:+1")


def test_player_cards_name_a_person_and_carry_no_effect():  # R-CARD-3
    with pytest.raises(ValueError, match="must name its person"):
        Card("X-001", "player", None, 1, 1, 1)
    with pytest.raises(ValueError, match="only event cards"):
        Card("X-001", "player", "Someone", effect="draw:1")


def test_to_log_gives_the_log_card_object_and_back():
    card = goalkeeper("GK-009", 5)
    data = card.to_log()
    assert data == {
        "id": "GK-009",
        "kind": "goalkeeper",
        "person": "Keeper GK-009",
        "shoot": 0,
        "keep": 0,
        "defense": 5,
        "effect": None,
    }
    assert Card.from_log(data) == card
    assert event("EV-001", "draw:1").to_log()["effect"] == "draw:1"


def test_cards_with_the_same_id_but_other_numbers_differ():
    assert player("X-001", 1) != player("X-001", 2)
    assert player("X-001", 1) == player("X-001", 1)
