"""The adapter from decks to the one legality function (play/engine/legality.py).

Catalog cards become engine `Card` values here; the builder, the API, import and the sample
decks all ask `content_problems`, so every page shows the same problems with the same words.
"""

from collections.abc import Mapping

from catalog.models import Card as CatalogCard
from decks.content import DeckContent
from play.engine.cards import Card
from play.engine.legality import Problem, deck_problems


def engine_card(card: CatalogCard) -> Card:
    """Return the engine's view of a catalog card (empty person/effect become None)."""
    return Card(
        id=card.id,
        kind=card.kind,
        person=card.person or None,
        shoot=card.shoot,
        keep=card.keep,
        defense=card.defense,
        effect=card.effect or None,
    )


def content_problems(content: DeckContent, cards: Mapping[str, CatalogCard]) -> list[Problem]:
    """Return the problems of a content whose card ids are all keys of `cards`."""
    engine = {card_id: engine_card(cards[card_id]) for card_id in content.card_ids()}
    return deck_problems(
        deck=[(engine[c], n) for c, n in content.deck.items()],
        bench=[(engine[c], n) for c, n in content.bench.items()],
        goalkeeper=engine.get(content.goalkeeper) if content.goalkeeper else None,
        pk_goalkeeper=engine.get(content.pk_goalkeeper) if content.pk_goalkeeper else None,
    )
