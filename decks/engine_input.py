"""A saved deck as engine input, in one place: the sides snapshot batches and solo games play.

A snapshot holds the deck's cards as the match log's CARD dicts (shared/spec/match-log.md), so
a batch or a solo game replays from it even after the deck or the catalog changed. Problems
(R-DECK-1..5, R-PK-1) come from the one legality function and block play.
"""

from __future__ import annotations

from decks.content import DeckContent
from decks.legality import engine_card
from decks.models import DeckVersion
from decks.selectors import UnknownCards, cards_of
from play.engine.legality import deck_problems


def side_snapshot(
    *, name: str, cards: list[dict], goalkeeper: dict, pk_goalkeeper: dict | None, bench: list
) -> dict:
    """Return the JSON snapshot of one side (CARD dicts as in the match log)."""
    extra = [pk_goalkeeper] if pk_goalkeeper else []
    data = {c["id"]: c for c in [*cards, goalkeeper, *bench, *extra]}
    return {
        "name": name,
        "cards": [c["id"] for c in cards],
        "goalkeeper": goalkeeper["id"],
        "pk_goalkeeper": pk_goalkeeper["id"] if pk_goalkeeper else None,
        "bench": [c["id"] for c in bench],
        "card_data": data,
    }


def version_snapshot(version: DeckVersion) -> tuple[dict, list]:
    """Return (engine-ready snapshot, problems) for a deck version as the catalog stands."""
    return content_snapshot(name=version.name, content=DeckContent.from_json(version.content))


def content_snapshot(*, name: str, content: DeckContent) -> tuple[dict, list[str]]:
    """Return (engine-ready snapshot, problems) for deck content; problems block play."""
    try:
        cards = cards_of(content)
    except UnknownCards as exc:
        return {}, [f"unknown card id(s) {', '.join(exc.ids)}"]
    engine = {card_id: engine_card(card) for card_id, card in cards.items()}
    deck_cards = [engine[c] for c in sorted(content.deck) for _ in range(content.deck[c])]
    bench_cards = [engine[c] for c in sorted(content.bench) for _ in range(content.bench[c])]
    goalkeeper = engine.get(content.goalkeeper) if content.goalkeeper else None
    pk_goalkeeper = engine.get(content.pk_goalkeeper) if content.pk_goalkeeper else None
    problems = deck_problems(
        deck=[(c, 1) for c in deck_cards],
        bench=[(c, 1) for c in bench_cards],
        goalkeeper=goalkeeper,
        pk_goalkeeper=pk_goalkeeper,
    )
    if problems:
        return {}, [f"{p.rule}: {p.message}" for p in problems]
    snapshot = side_snapshot(
        name=name,
        cards=[c.to_log() for c in deck_cards],
        goalkeeper=goalkeeper.to_log(),
        pk_goalkeeper=pk_goalkeeper.to_log() if pk_goalkeeper else None,
        bench=[c.to_log() for c in bench_cards],
    )
    return snapshot, []
