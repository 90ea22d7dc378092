"""Chance: a shuffle is random.Random.shuffle of the cards in id order, as they come or not."""

import random
from operator import attrgetter

import pytest

from play.engine.chance import Chance, InIdOrder
from play.engine.testing import player


def _deck(rng: random.Random) -> list:
    kinds = [player(f"C{i:02d}", i % 4, person=f"p{i}") for i in range(12)]
    twins = [player(f"C{i:02d}", i % 4, person=f"p{i}") for i in range(0, 12, 3)]  # equal copies
    return [rng.choice(kinds + twins) for _ in range(rng.randint(0, 70))]


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 60, 64, 65, 70])
def test_a_shuffle_is_random_shuffle_of_the_cards_in_id_order(length):
    cards = [player(f"P{i:03d}", 1, 1, 1, person=f"p{i}") for i in range(length)]
    for seed in range(60):
        expected = sorted(cards, key=lambda c: c.id)
        rng = random.Random(seed)
        rng.shuffle(expected)
        chance = Chance(seed)
        assert chance.shuffle(reversed(cards)) == expected
        assert chance.rng.getstate() == rng.getstate()  # the same draws, no more, no fewer


def test_a_shuffle_of_equal_copies_keeps_their_given_order_before_shuffling():
    rng = random.Random(3)
    for seed in range(100):
        cards = _deck(rng)
        expected = sorted(cards, key=attrgetter("id"))  # stable
        reference = random.Random(seed)
        reference.shuffle(expected)
        chance = Chance(seed)
        assert [id(c) for c in chance.shuffle(cards)] == [id(c) for c in expected]
        assert chance.rng.getstate() == reference.getstate()


def test_a_deck_sorted_once_shuffles_as_the_deck_itself():
    rng = random.Random(5)
    for seed in range(100):
        cards = _deck(rng)
        once = InIdOrder(cards)
        assert [id(c) for c in once] == [id(c) for c in sorted(cards, key=attrgetter("id"))]
        given, sorted_once = Chance(seed), Chance(seed)
        for _ in range(3):  # the same deck again and again, as a chunk's shootouts do
            expected = given.shuffle(cards)
            assert [id(c) for c in sorted_once.shuffle(once)] == [id(c) for c in expected]
        assert given.rng.getstate() == sorted_once.rng.getstate()


def test_a_random_subclass_keeps_its_own_shuffle():
    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    cards = [player(f"P{i}", 1, person=f"p{i}") for i in range(5)]
    shuffled = Chance(rng=Reversing(1)).shuffle(cards)
    assert [c.id for c in shuffled] == [f"P{i}" for i in range(5)][::-1]
