"""Deck fixtures: a minimal legal deck made from the loaded catalog, and decks of each
visibility owned by alice."""

import pytest

from catalog.models import Card
from decks.content import DeckContent
from decks.models import Deck
from decks.services import deck_create


def ten_persons(set_code: str = "BS") -> list[Card]:
    """Return player cards of 10 different persons, in catalog order."""
    seen, cards = set(), []
    for card in Card.objects.filter(card_set_id=set_code, kind="player").order_by("number"):
        if card.person not in seen:
            seen.add(card.person)
            cards.append(card)
        if len(cards) == 10:
            break
    return cards


@pytest.fixture
def legal_content(db) -> DeckContent:
    """Return the smallest legal deck: 6 copies each of 10 persons' cards and a goalkeeper."""
    keeper = Card.objects.filter(card_set_id="BS", kind="goalkeeper").order_by("number").first()
    return DeckContent(goalkeeper=keeper.id, deck={c.id: 6 for c in ten_persons()})


@pytest.fixture
def decks_by_visibility(alice, legal_content) -> dict[str, Deck]:
    return {
        visibility: deck_create(
            owner=alice, name=f"Alice {visibility}", visibility=visibility, content=legal_content
        )
        for visibility in ("private", "unlisted", "public")
    }
