"""Merge a stale edit into the deck as it was saved meanwhile (three-way, pure Python).

Two tabs (or an API client and a tab) start from version N; one saves N+1; the other's save is
refused as stale (DeckConflict). Merging applies *your* changes (N → yours) on top of *theirs*
(N+1): per card and zone, the copies you added or removed are added to or removed from theirs;
a goalkeeper, the name, the description and the visibility take your value where you changed
it and theirs otherwise. When both changed the same field to different values, yours wins and
the field is listed in `conflicts` so the page can say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from decks.content import MAX_QUANTITY, ZONES, DeckContent


@dataclass(frozen=True)
class DeckState:
    content: DeckContent
    name: str
    description: str
    visibility: str


@dataclass(frozen=True)
class Merged:
    state: DeckState
    conflicts: list[str] = field(default_factory=list)


def _pick(label: str, base, yours, theirs, conflicts: list[str]):
    if yours == base:
        return theirs
    if theirs not in (base, yours):
        conflicts.append(label)
    return yours


def deck_merge(*, base: DeckState, yours: DeckState, theirs: DeckState) -> Merged:
    """Return theirs with your changes since base applied, and the fields both changed."""
    conflicts: list[str] = []
    zones = {}
    for zone in ZONES:
        b, y, t = base.content.zone(zone), yours.content.zone(zone), theirs.content.zone(zone)
        merged = {}
        for card in sorted(set(b) | set(y) | set(t)):
            delta = y.get(card, 0) - b.get(card, 0)
            count = max(0, min(MAX_QUANTITY, t.get(card, 0) + delta))
            if count:
                merged[card] = count
        zones[zone] = merged
    content = DeckContent(
        goalkeeper=_pick(
            "goalkeeper",
            base.content.goalkeeper,
            yours.content.goalkeeper,
            theirs.content.goalkeeper,
            conflicts,
        ),
        pk_goalkeeper=_pick(
            "pk_goalkeeper",
            base.content.pk_goalkeeper,
            yours.content.pk_goalkeeper,
            theirs.content.pk_goalkeeper,
            conflicts,
        ),
        deck=zones["deck"],
        bench=zones["bench"],
    )
    state = DeckState(
        content=content,
        name=_pick("name", base.name, yours.name, theirs.name, conflicts),
        description=_pick(
            "description", base.description, yours.description, theirs.description, conflicts
        ),
        visibility=_pick("visibility", base.visibility, yours.visibility, theirs.visibility, []),
    )
    return Merged(state=state, conflicts=conflicts)
