"""Saved decks as the sides of batches and solo games; decks/engine_input.py builds them.

A snapshot is what a batch or a solo game stores and replays from (CARD dicts as in the match
log), so a game survives a deleted deck or a changed catalog.
"""

from __future__ import annotations

from django.db.models import QuerySet

from decks.engine_input import content_snapshot, version_snapshot
from decks.models import Deck
from decks.selectors import latest_version

__all__ = [
    "content_snapshot",
    "goldfish_deck",
    "latest_snapshot",
    "latest_version",
    "prebuilt_decks",
    "version_snapshot",
]


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
