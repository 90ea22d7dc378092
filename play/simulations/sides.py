"""Saved decks as engine input for batches and solo games: the sides snapshot of a deck.

A snapshot is what a batch or a solo game stores and replays from (CARD dicts as in the match
log), so a game survives a deleted deck or a changed catalog.
"""

from __future__ import annotations

from django.db.models import QuerySet

from decks.content import DeckContent
from decks.legality import engine_card
from decks.models import Deck, DeckVersion
from decks.selectors import UnknownCards, cards_of
from play.engine.legality import deck_problems
from play.simulations import core as simulation


def latest_version(deck: Deck) -> DeckVersion | None:
    """Return the deck's newest saved version, or None."""
    return deck.versions.order_by("-number").first()


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
    snapshot = simulation.side_snapshot(
        name=name,
        cards=[c.to_log() for c in deck_cards],
        goalkeeper=goalkeeper.to_log(),
        pk_goalkeeper=pk_goalkeeper.to_log() if pk_goalkeeper else None,
        bench=[c.to_log() for c in bench_cards],
    )
    return snapshot, []


def prebuilt_decks() -> QuerySet[Deck]:
    """Return the public prebuilt (sample) decks, in a fixed order (by slug).

    A gauntlet plays all of them; the goldfish (batches and solo play) is the first.
    """
    return Deck.objects.filter(
        is_sample=True, visibility=Deck.Visibility.PUBLIC, is_legal=True
    ).order_by("slug")


def goldfish_deck() -> Deck | None:
    """Return the goldfish's deck: the first public prebuilt deck."""
    return prebuilt_decks().first()


def latest_snapshot(deck: Deck, field: str, errors: dict, *, verb: str) -> tuple:
    """Return (latest version, snapshot) of a deck; add its problems to `errors[field]`."""
    version = latest_version(deck)
    snapshot, problems = version_snapshot(version) if version else ({}, ["never saved"])
    if problems:
        errors.setdefault(field, []).append(
            f"{deck.name} is not legal, so it cannot be {verb}: " + "; ".join(problems)
        )
    return version, snapshot
