"""Chance: every shuffle and coin toss of a match, from one seeded `random.Random`.

The match draws on it in a fixed order (see docs/engine.md, "Chance order"). Each shuffle
first puts the cards in id order, so a shuffled deck depends only on which cards it holds and
on the seed, never on the order the caller listed them in; that is what lets a log be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from operator import attrgetter

from play.engine.cards import Card, Side

_BY_ID = attrgetter("id")


class Chance:
    """The seeded source of all chance in one match."""

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def shuffle(self, cards: Iterable[Card]) -> list[Card]:
        """Return the cards shuffled, top of the deck first."""
        ordered = sorted(cards, key=_BY_ID)
        rng = self.rng
        if type(rng) is not random.Random:
            rng.shuffle(ordered)
            return ordered
        # random.Random.shuffle written out (the same Fisher-Yates and the same draws from
        # getrandbits as its _randbelow, so the same order; tests compare the two): about
        # twice as fast without a method call per card.
        getrandbits = rng.getrandbits
        for i in range(len(ordered) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            ordered[i], ordered[j] = ordered[j], ordered[i]
        return ordered

    def coin_toss(self) -> Side:
        """Return the side the coin favours."""
        return "A" if self.rng.random() < 0.5 else "B"


def as_chance(source: Chance | random.Random) -> Chance:
    """Return a Chance for either a Chance or a plain random.Random."""
    return source if isinstance(source, Chance) else Chance(rng=source)
