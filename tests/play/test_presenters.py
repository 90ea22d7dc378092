"""Board presenters: event effects read as words on the solo board and the replay viewer."""

import pytest
from django.utils import translation

from catalog.effects import effect_text
from catalog.models import Card
from play.presenters import card_table, narrate_for_page

pytestmark = pytest.mark.django_db


def an_event() -> Card:
    return Card.objects.filter(kind="event", effect__contains="draw:").order_by("id").first()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_board_shows_an_event_effect_in_words_and_keeps_the_clause(language):
    event = an_event()
    with translation.override(language):
        shown = card_table({event.id: {"kind": "event", "effect": event.effect}})[event.id]
    assert shown["effect"] == effect_text(event.effect, language)
    assert shown["effect"] != event.effect
    assert shown["effect_clause"] == event.effect
    if language == "en":
        assert "Draw 1 card." in shown["effect"] or "Draw 2 cards." in shown["effect"]


def test_a_player_has_no_effect_on_the_board():
    player = Card.objects.filter(kind="player").first()
    data = {"kind": "player", "shoot": player.shoot, "keep": player.keep, "defense": player.defense}
    shown = card_table({player.id: data})[player.id]
    assert shown["effect"] == "" and shown["effect_clause"] == ""


def test_the_narration_of_an_effect_uses_the_words():
    event = an_event()
    cards = card_table({event.id: {"kind": "event", "effect": event.effect}})
    events = [
        {"type": "effect", "side": "A", "card": event.id, "effect": event.effect, "delta": {}}
    ]
    with translation.override("en"):
        lines = narrate_for_page(events, cards=cards, labels={"A": "Alice", "B": "Bob"})
    assert effect_text(event.effect, "en") in lines[0].text
    assert f"({event.effect})" not in lines[0].text
