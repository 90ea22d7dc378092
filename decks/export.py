"""A saved deck as text (the deck format) and as JSON: for downloads, the API and the zip."""

from catalog.models import Card
from decks import summary
from decks.models import Deck
from decks.selectors import deck_content
from decks.text_format import deck_text

JSON_FORMAT = "eleven-stars-deck/1"


def deck_as_text(deck: Deck) -> str:
    """Return the deck in the text format, cards in deck-list order with their names."""
    content = deck_content(deck)
    cards = Card.objects.select_related("card_set").in_bulk(list(content.card_ids()))
    return deck_text(
        name=deck.name,
        content=content,
        card_names={c: card.name for c, card in cards.items()},
        sort_key=lambda c: summary.card_order(cards[c]),
    )


def deck_as_json(deck: Deck) -> dict:
    """Return the deck as JSON data (its text export included)."""
    content = deck_content(deck)
    version = deck.versions.order_by("-number").values_list("number", flat=True).first()
    return {
        "format": JSON_FORMAT,
        "name": deck.name,
        "description": deck.description,
        "owner": deck.owner.username,
        "version": version,
        "legal": deck.is_legal,
        "goalkeeper": content.goalkeeper,
        "pk_goalkeeper": content.pk_goalkeeper,
        "deck": [{"card": c, "quantity": n} for c, n in sorted(content.deck.items())],
        "bench": [{"card": c, "quantity": n} for c, n in sorted(content.bench.items())],
        "text": deck_as_text(deck),
    }
