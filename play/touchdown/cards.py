"""The play cards, the seats and the teams of Touchdown Heroes (TD-COMP-1, TD-SET-1).

A card is an interned `Card(id, suit, number)`; its id is the suit letter (the suit's colour)
plus the number: "R1".."R10" Power (red), "B…" Speed (blue), "Y…" Stamina (yellow), "G…"
Tactics (green). Seats 0..3 sit in a ring; "left" is the next seat clockwise (seat + 1), the
partner is the seat opposite (seat + 2), so seats 0 and 2 are the Eagles, 1 and 3 the Bears.
"""

from __future__ import annotations

from typing import NamedTuple

# TD-COMP-1: suit letter -> (English name, Japanese name, colour)
SUITS: dict[str, tuple[str, str, str]] = {
    "R": ("Power", "パワー", "red"),
    "B": ("Speed", "スピード", "blue"),
    "Y": ("Stamina", "スタミナ", "yellow"),
    "G": ("Tactics", "タクティクス", "green"),
}
SUIT_LETTERS = tuple(SUITS)
NUMBERS = tuple(range(1, 11))

SEATS = (0, 1, 2, 3)  # TD-SET-1
EAGLES = "eagles"
BEARS = "bears"
TEAMS = (EAGLES, BEARS)
TEAM_OF = (EAGLES, BEARS, EAGLES, BEARS)  # TD-SET-1: partners sit opposite
SEATS_OF = {EAGLES: (0, 2), BEARS: (1, 3)}
OTHER_TEAM = {EAGLES: BEARS, BEARS: EAGLES}


class Card(NamedTuple):
    id: str
    suit: str
    number: int


DECK: tuple[Card, ...] = tuple(
    Card(f"{suit}{number}", suit, number) for suit in SUIT_LETTERS for number in NUMBERS
)  # TD-COMP-1: 40 cards, in id order (suit order R, B, Y, G; then number)
CARDS: dict[str, Card] = {card.id: card for card in DECK}
ORDER: dict[str, int] = {card.id: index for index, card in enumerate(DECK)}


def left(seat: int) -> int:
    """Return the seat to the left (next clockwise)."""
    return (seat + 1) & 3


def partner(seat: int) -> int:
    """Return the seat opposite (TD-SET-1)."""
    return (seat + 2) & 3


def card(card_id: str) -> Card:
    """Return the card with this id, or raise ValueError."""
    try:
        return CARDS[card_id]
    except KeyError:
        raise ValueError(f"No play card has the id {card_id!r} (e.g. 'R7', 'G10').") from None
