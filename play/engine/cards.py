"""Cards as the engine sees them: immutable card data, plus the two sides of a match.

The engine never looks a card up anywhere: whoever builds a match hands it `Card` values,
so the deck builder, the web app and the tests all describe cards the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from play.engine.effects import parse_effect

Side = Literal["A", "B"]
SIDES: tuple[Side, Side] = ("A", "B")
KINDS = ("player", "goalkeeper", "event")


OTHER: dict[str, Side] = {"A": "B", "B": "A"}  # other(side) as a lookup, for hot loops


def other(side: Side) -> Side:
    """Return the other side."""
    return "B" if side == "A" else "A"


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a field player, a goalkeeper (R-CARD-1, R-CARD-2) or an event card."""

    id: str
    kind: str
    person: str | None = None
    shoot: int = 0
    keep: int = 0
    defense: int = 0
    effect: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(
                f"Card {self.id}: kind {self.kind!r} is not one of {', '.join(KINDS)}."
            )
        if self.kind == "event":
            if self.shoot or self.keep or self.defense:
                raise ValueError(
                    f"Card {self.id}: an event card has shoot, keep and defense 0 of its own."
                )
            if self.effect is None:
                raise ValueError(f"Card {self.id}: an event card needs its effect text.")
            parse_effect(self.effect)
        else:
            if not self.person:
                raise ValueError(f"Card {self.id}: a {self.kind} card must name its person.")
            if self.effect is not None:
                raise ValueError(f"Card {self.id}: only event cards carry effect text.")

    def __eq__(self, other: object) -> bool:
        # Written out (not generated) so that unequal ids, the usual case, fail fast.
        if self is other:
            return True
        if other.__class__ is not Card:
            return NotImplemented
        return (
            self.id == other.id
            and self.kind == other.kind
            and self.person == other.person
            and self.shoot == other.shoot
            and self.keep == other.keep
            and self.defense == other.defense
            and self.effect == other.effect
        )

    def __hash__(self) -> int:
        return hash(self.id)

    @property
    def is_player(self) -> bool:
        """Return whether this is a field player card (what R-PLAY-2 counts)."""
        return self.kind == "player"

    def to_log(self) -> dict:
        """Return the match log's CARD object."""
        return {
            "id": self.id,
            "kind": self.kind,
            "person": self.person,
            "shoot": self.shoot,
            "keep": self.keep,
            "defense": self.defense,
            "effect": self.effect,
        }

    @classmethod
    def from_log(cls, data: dict) -> Card:
        """Return the card a match log's CARD object describes."""
        return cls(
            id=data["id"],
            kind=data["kind"],
            person=data["person"],
            shoot=data["shoot"],
            keep=data["keep"],
            defense=data["defense"],
            effect=data["effect"],
        )
