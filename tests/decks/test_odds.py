"""Draw odds against values computed here from first principles."""

from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

from decks import odds


def test_one_event_among_ten_in_the_opening_four():
    # P(no event in 4 from 60 with 10 events) = C(50,4)/C(60,4); at least one is the rest.
    expected = 1 - Fraction(comb(50, 4), comb(60, 4))
    assert odds.at_least(population=60, successes=10, draws=4, hits=1) == expected
    assert float(expected) == pytest.approx(0.5277, abs=1e-4)


def test_at_least_five_shooters_after_four_draws():
    # 8 cards seen (opening 4 + 4 draws), 20 shooters among 60, at least 5 of them.
    expected = sum(Fraction(comb(20, i) * comb(40, 8 - i), comb(60, 8)) for i in range(5, 9))
    got = odds.at_least(population=60, successes=20, draws=odds.seen_after(4), hits=5)
    assert got == expected


def test_exact_values_match_counting_every_hand_of_a_small_deck():
    deck = ["hit"] * 3 + ["miss"] * 5
    hands = list(combinations(range(len(deck)), 3))
    for k in range(0, 4):
        good = sum(1 for hand in hands if sum(deck[i] == "hit" for i in hand) >= k)
        expected = Fraction(good, len(hands))
        assert odds.at_least(population=8, successes=3, draws=3, hits=k) == expected


def test_impossible_and_certain_cases():
    assert odds.at_least(population=60, successes=2, draws=4, hits=3) == 0
    assert odds.at_least(population=60, successes=60, draws=4, hits=4) == 1
    assert odds.at_least(population=60, successes=0, draws=4, hits=0) == 1
    assert sum(odds.exactly(population=60, successes=10, draws=8, hits=i) for i in range(0, 9)) == 1
    with pytest.raises(ValueError):
        odds.at_least(population=60, successes=61, draws=4, hits=1)
