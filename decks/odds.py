"""Draw odds: the exact hypergeometric chance of holding at least k cards of some kind.

Exact fractions from `math.comb`, so a test can compare with values it computes itself and a
page can round only when it shows them.
"""

from fractions import Fraction
from math import comb

OPENING_HAND = 4  # R-DRAW-1: hands are filled to 4 cards


def exactly(*, population: int, successes: int, draws: int, hits: int) -> Fraction:
    """Return P(exactly `hits` successes) drawing `draws` cards from `population` cards."""
    if not (0 <= successes <= population and 0 <= draws <= population):
        raise ValueError("need 0 ≤ successes ≤ population and 0 ≤ draws ≤ population")
    if hits < 0 or hits > draws or hits > successes or draws - hits > population - successes:
        return Fraction(0)
    return Fraction(
        comb(successes, hits) * comb(population - successes, draws - hits), comb(population, draws)
    )


def at_least(*, population: int, successes: int, draws: int, hits: int) -> Fraction:
    """Return P(at least `hits` successes) drawing `draws` cards from `population` cards."""
    if hits <= 0:
        return Fraction(1)
    return sum(
        (
            exactly(population=population, successes=successes, draws=draws, hits=i)
            for i in range(hits, min(draws, successes) + 1)
        ),
        Fraction(0),
    )


def seen_after(draws: int) -> int:
    """Return how many cards a player has seen: the opening hand plus `draws` more."""
    return OPENING_HAND + draws
