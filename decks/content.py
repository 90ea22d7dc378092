"""A deck's content as plain data: what a version snapshots, the builder drafts, and diffs compare.

Pure Python (no ORM), so the builder, import, the API and the history all speak one shape:
`{"goalkeeper": id | None, "pk_goalkeeper": id | None, "deck": {id: n}, "bench": {id: n}}`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ZONES = ("deck", "bench")
# The one quantity rule (deck-format.md): a card appears 1 to 60 times in a zone, however the
# copies are written (one line or several, text, builder or API). 60 is the whole deck (R-DECK-1).
MAX_QUANTITY = 60
# A catalog card id as the deck content stores it ("BS-012"): ASCII, short.
CARD_ID = re.compile(r"[A-Z0-9][A-Z0-9_-]{0,15}")


class ContentError(ValueError):
    """Content data that is not of the expected shape; `messages` says every problem."""

    def __init__(self, messages: list[str]):
        self.messages = messages
        super().__init__("; ".join(messages))


@dataclass(frozen=True)
class DeckContent:
    goalkeeper: str | None = None
    pk_goalkeeper: str | None = None
    deck: dict[str, int] = field(default_factory=dict)
    bench: dict[str, int] = field(default_factory=dict)

    def zone(self, zone: str) -> dict[str, int]:
        return self.deck if zone == "deck" else self.bench

    def card_ids(self) -> set[str]:
        """Return every card id the content names (entries and goalkeepers)."""
        ids = set(self.deck) | set(self.bench)
        ids.update(i for i in (self.goalkeeper, self.pk_goalkeeper) if i)
        return ids

    def quantity_problems(self) -> list[str]:
        """Return a message for every card whose copies in a zone are not from 1 to 60."""
        return [
            f"{zone}: {card} has {count} copies; a card has 1 to {MAX_QUANTITY} in a zone."
            for zone in ZONES
            for card, count in sorted(self.zone(zone).items())
            if not 1 <= count <= MAX_QUANTITY
        ]

    def to_json(self) -> dict:
        """Return the snapshot as JSON data, entries sorted by card id."""
        return {
            "goalkeeper": self.goalkeeper,
            "pk_goalkeeper": self.pk_goalkeeper,
            "deck": dict(sorted(self.deck.items())),
            "bench": dict(sorted(self.bench.items())),
        }

    @classmethod
    def from_json(cls, data) -> DeckContent:
        """Return content from JSON data; raise ContentError naming every bad part.

        Zones may be `{id: n}` or `[{"card": id, "quantity": n}]`; ids are upper-cased,
        quantities of 0 drop the card, repeated ids add up.
        """
        if not isinstance(data, dict):
            raise ContentError(["The deck content must be a JSON object."])
        problems: list[str] = []
        keepers = {}
        for key in ("goalkeeper", "pk_goalkeeper"):
            value = data.get(key)
            if value in (None, ""):
                keepers[key] = None
            elif isinstance(value, str) and CARD_ID.fullmatch(value.strip().upper()):
                keepers[key] = value.strip().upper()
            else:
                problems.append(f"{key} must be a card id or null.")
                keepers[key] = None
        zones = {}
        for zone in ZONES:
            zones[zone] = _read_zone(zone, data.get(zone) or {}, problems)
        if problems:
            raise ContentError(problems)
        return cls(keepers["goalkeeper"], keepers["pk_goalkeeper"], zones["deck"], zones["bench"])


def _read_zone(zone: str, raw, problems: list[str]) -> dict[str, int]:
    if isinstance(raw, dict):
        items = list(raw.items())
    elif isinstance(raw, list):
        items = []
        for item in raw:
            if not isinstance(item, dict) or "card" not in item:
                problems.append(f"{zone}: each entry needs a card and a quantity.")
                return {}
            items.append((item["card"], item.get("quantity", 1)))
    else:
        problems.append(f"{zone} must be a list of entries or an object of card: quantity.")
        return {}
    counted: dict[str, int] = {}
    for card, quantity in items:
        if not isinstance(card, str) or not CARD_ID.fullmatch(card.strip().upper()):
            shown = card[:20] if isinstance(card, str) else card
            problems.append(f"{zone}: {shown!r} is not a card id like BS-012.")
            continue
        if (
            isinstance(quantity, bool)
            or not isinstance(quantity, int)
            or not 0 <= quantity <= MAX_QUANTITY
        ):
            problems.append(
                f"{zone}: the quantity of {card} must be a whole number from 0 to {MAX_QUANTITY}."
            )
            continue
        if quantity:
            key = card.strip().upper()
            counted[key] = counted.get(key, 0) + quantity
    for card, count in counted.items():
        if count > MAX_QUANTITY:
            problems.append(
                f"{zone}: {card} adds up to {count} copies; a card has at most "
                f"{MAX_QUANTITY} in a zone."
            )
    return counted


@dataclass(frozen=True)
class ZoneChange:
    card: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class ContentDiff:
    """What changed between two contents: per zone, cards added and removed; the keepers."""

    added: dict[str, list[ZoneChange]]
    removed: dict[str, list[ZoneChange]]
    goalkeeper: tuple[str | None, str | None] | None
    pk_goalkeeper: tuple[str | None, str | None] | None

    @property
    def is_empty(self) -> bool:
        return not (
            any(self.added.values())
            or any(self.removed.values())
            or self.goalkeeper
            or self.pk_goalkeeper
        )

    def summary(self) -> str:
        """Return a one-line description, e.g. "deck +4 BS-012 −2 BS-013; goalkeeper …"."""
        parts = []
        for zone in ZONES:
            changes = [f"+{c.delta} {c.card}" for c in self.added[zone]]
            changes += [f"−{-c.delta} {c.card}" for c in self.removed[zone]]
            if changes:
                parts.append(f"{zone} " + " ".join(changes))
        for label, change in (
            ("goalkeeper", self.goalkeeper),
            ("PK goalkeeper", self.pk_goalkeeper),
        ):
            if change:
                parts.append(f"{label} {change[0] or '—'} → {change[1] or '—'}")
        return "; ".join(parts)


def content_diff(before: DeckContent, after: DeckContent) -> ContentDiff:
    """Return the changes that turn `before` into `after`."""
    added: dict[str, list[ZoneChange]] = {}
    removed: dict[str, list[ZoneChange]] = {}
    for zone in ZONES:
        old, new = before.zone(zone), after.zone(zone)
        changes = [ZoneChange(c, old.get(c, 0), new.get(c, 0)) for c in sorted(set(old) | set(new))]
        added[zone] = [c for c in changes if c.delta > 0]
        removed[zone] = [c for c in changes if c.delta < 0]
    keeper = (before.goalkeeper, after.goalkeeper)
    pk = (before.pk_goalkeeper, after.pk_goalkeeper)
    return ContentDiff(
        added,
        removed,
        keeper if keeper[0] != keeper[1] else None,
        pk if pk[0] != pk[1] else None,
    )
