"""The deck pages show event effects in words, in both languages (the clause as a title)."""

import pytest

from catalog.effects import effect_text
from catalog.models import Card
from decks.content import DeckContent
from decks.services import deck_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_deck_page_shows_an_event_effect_in_words(alice, alice_client, legal_content, language):
    event = Card.objects.filter(kind="event", effect__contains="draw:").order_by("id").first()
    content = DeckContent(
        goalkeeper=legal_content.goalkeeper, deck={**legal_content.deck, event.id: 1}
    )
    deck = deck_create(owner=alice, name="With an event", visibility="private", content=content)
    response = alice_client.get(deck.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
    body = response.content.decode()
    assert response.status_code == 200
    assert effect_text(event.effect, language) in body
    assert f">{event.effect}<" not in body
