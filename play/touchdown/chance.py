"""Chance: every shuffle and die roll of a game, from one seeded `random.Random`.

The game draws on it in a fixed order (docs/touchdown.md, "Chance order"): at each half, the
heroes, then the play cards; then the die rolls as they happen. Shuffles start from a fixed
order (heroes by jersey, cards by id), so a deal depends only on the seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from play.touchdown.cards import DECK, ORDER, Card
from play.touchdown.effects import Hero
from play.touchdown.options import HAND_SIZE


class Chance:
    """The seeded source of all chance in one game."""

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def deal_heroes(self, heroes: Sequence[Hero]) -> tuple[list[Hero], list[Hero]]:
        """TD-SET-2: return (one hero per seat, the heroes left out unseen)."""
        order = list(heroes)
        self.rng.shuffle(order)
        return order[:4], order[4:]

    def deal_cards(self) -> tuple[list[list[Card]], list[Card]]:
        """TD-SET-2: return (9 cards per seat, each hand in card order; the 4 unused)."""
        order = list(DECK)
        self.rng.shuffle(order)
        dealt = 4 * HAND_SIZE
        hands = [sorted(order[seat:dealt:4], key=_order) for seat in range(4)]
        return hands, order[dealt:]

    def roll(self) -> int:
        """Return a six-sided die roll."""
        return 1 + int(self.rng.random() * 6)


def _order(card: Card) -> int:
    return ORDER[card.id]
