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


class InIdOrder(tuple):
    """Cards in id order, sorted once when made (stably: copies of an id keep the given order).

    A shuffle starts from the id order; given a deck as one of these, it skips the sort. A
    caller that shuffles one deck many times (every match and shootout of a chunk, see
    DeckPair) makes it once: sorting 60 cards by id before each shuffle made simulated
    shootouts 17% slower (bench/engine.py --cpu, compiled, side by side).
    """

    __slots__ = ()

    def __new__(cls, cards: Iterable[Card]) -> InIdOrder:
        return super().__new__(cls, sorted(cards, key=_BY_ID))


class Chance:
    """The seeded source of all chance in one match."""

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def shuffle(self, cards: Iterable[Card]) -> list[Card]:
        """Return the cards shuffled, top of the deck first."""
        # Stable: copies of an id keep the given order.
        ordered = list(cards) if type(cards) is InIdOrder else sorted(cards, key=_BY_ID)
        rng = self.rng
        if type(rng) is not random.Random:
            rng.shuffle(ordered)
            return ordered
        # random.Random.shuffle written out: the same Fisher-Yates and the same getrandbits
        # calls as its _randbelow, so the same order (tests compare the two). Compiled, the
        # loop runs on C integers with one Python call a card (getrandbits) instead of three.
        # A match shuffles four 60-card decks: with random.Random.shuffle, greedy vs greedy
        # ran 10% slower and simulated shootouts 41% slower (bench/engine.py --cpu, compiled,
        # side by side). `k` is n.bit_length(), kept as n falls (it drops by one each time n
        # goes below `low`, a power of two).
        getrandbits = rng.getrandbits
        i = len(ordered) - 1
        if i < 1:
            return ordered
        n = i + 1
        k = n.bit_length()
        low = 1 << (k - 1)
        while i > 0:
            n = i + 1
            if n < low:
                k -= 1
                low >>= 1
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            card = ordered[i]
            ordered[i] = ordered[j]
            ordered[j] = card
            i -= 1
        return ordered

    def coin_toss(self) -> Side:
        """Return the side the coin favours."""
        return "A" if self.rng.random() < 0.5 else "B"


def as_chance(source: Chance | random.Random) -> Chance:
    """Return a Chance for either a Chance or a plain random.Random."""
    return source if isinstance(source, Chance) else Chance(rng=source)
