"""Chance: every shuffle and coin toss of a match, from one seeded `random.Random`.

The match draws on it in a fixed order (see docs/engine.md, "Chance order"). Each shuffle
first puts the cards in id order, so a shuffled deck depends only on which cards it holds and
on the seed, never on the order the caller listed them in; that is what lets a log be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from play.engine.cards import Card, Side

# The id order of the card sequences shuffled lately, keyed by their length and the identity
# of their first and last cards, and checked card by card by identity: a deck is shuffled
# again as the very same card objects in the same order (its second half; the next match
# of a batch with the same deck), and its id order is then not sorted again. The entries
# hold their cards, so no identity in them can be reused by another object meanwhile.
_ORDERS: dict[tuple[int, int, int], tuple[list[Card], list[Card]]] = {}
_ORDERS_MAX = 512


def _id_order(cards: Iterable[Card]) -> list[Card]:
    """Return a new list of the cards in id order, stably: `sorted(cards, key=attrgetter("id"))`."""
    given = cards if type(cards) is list else list(cards)
    count = len(given)
    if count == 0:
        return []
    table = _ORDERS
    key = (count, id(given[0]), id(given[count - 1]))
    known = table.get(key)
    if known is not None:
        seen = known[0]
        i = 0
        while i < count and seen[i] is given[i]:
            i += 1
        if i == count:
            return list(known[1])
    ordered = _sorted_by_id(given)
    if len(table) >= _ORDERS_MAX:
        table.clear()
    table[key] = (list(given), list(ordered))
    return ordered


def _sorted_by_id(cards: list[Card]) -> list[Card]:
    """Return the cards in id order, stably: what `sorted(cards, key=attrgetter("id"))` gives,
    but sorting each distinct id once (a deck holds a few of each card)."""
    groups: dict[str, list[Card]] = {}
    for card in cards:
        key = card.id
        group = groups.get(key)
        if group is None:
            groups[key] = [card]
        else:
            group.append(card)
    ordered: list[Card] = []
    for key in sorted(groups):
        ordered.extend(groups[key])
    return ordered


class Chance:
    """The seeded source of all chance in one match."""

    def __init__(self, seed: int | None = None, *, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def shuffle(self, cards: Iterable[Card]) -> list[Card]:
        """Return the cards shuffled, top of the deck first."""
        ordered = _id_order(cards)
        rng = self.rng
        if type(rng) is not random.Random:
            rng.shuffle(ordered)
            return ordered
        # random.Random.shuffle written out (the same Fisher-Yates and the same draws from
        # getrandbits as its _randbelow, so the same order; tests compare the two): about
        # twice as fast without a method call per card. `k` is n.bit_length(), kept as n
        # falls (it drops by one each time n goes below `low`, a power of two).
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


def below(rng: random.Random, n: int) -> int:
    """Return `rng._randbelow(n)` for n ≥ 1: what `rng.choice` and `rng.randint` draw with.

    random.Random's own steps written out for a plain `random.Random` (the same getrandbits
    calls, so the same numbers; tests compare them), without its Python-level method calls;
    any other rng is asked itself.
    """
    if type(rng) is not random.Random:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def choice_of(rng: random.Random, seq):
    """Return `rng.choice(seq)`, drawn as `below` draws."""
    if type(rng) is not random.Random:
        return rng.choice(seq)
    if not len(seq):
        raise IndexError("Cannot choose from an empty sequence")
    return seq[below(rng, len(seq))]


def as_chance(source: Chance | random.Random) -> Chance:
    """Return a Chance for either a Chance or a plain random.Random."""
    return source if isinstance(source, Chance) else Chance(rng=source)
