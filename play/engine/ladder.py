"""The bot ladder: seat-balanced pairings, win rates with 95% intervals, and Elo ratings.

Every pairing plays each deal twice, once with each bot on side A, so neither the seat nor the
decks favour a bot. A draw cannot happen (R-MATCH-1, R-PK-4..6), so a pairing is a count of
wins. The interval is Wilson's score interval; the Elo difference is `400·log10(p/(1−p))`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from play.engine.match import DeckPair, SideDeck
from play.engine.policies import Policy, get_policy
from play.engine.runner import play_match

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Pairing:
    """How `upper` did against `lower` over `matches` seat-balanced matches."""

    upper: str
    lower: str
    matches: int
    wins: int  # matches `upper` won

    @property
    def rate(self) -> float:
        return self.wins / self.matches

    @property
    def interval(self) -> tuple[float, float]:
        """Return the 95% Wilson interval of `upper`'s win rate."""
        n, p = self.matches, self.rate
        centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
        return centre - half, centre + half

    @property
    def clear(self) -> bool:
        """Return whether the whole interval is above 50%."""
        return self.interval[0] > 0.5

    @property
    def elo(self) -> float:
        """Return `upper`'s Elo advantage (clamped at a rate of 1/(2n) from 0 and 1)."""
        eps = 1 / (2 * self.matches)
        p = min(max(self.rate, eps), 1 - eps)
        return 400 * math.log10(p / (1 - p))


def pairing(
    upper: str | Policy,
    lower: str | Policy,
    deals: Sequence[tuple[SideDeck, SideDeck, int]],
    *,
    play: Callable = play_match,
) -> Pairing:
    """Play every deal (deck A, deck B, seed) twice, swapping the bots' seats."""
    first = get_policy(upper) if isinstance(upper, str) else upper
    second = get_policy(lower) if isinstance(lower, str) else lower
    wins = 0
    for deck_a, deck_b, seed in deals:
        decks = DeckPair(deck_a, deck_b)  # both seats play the same deal
        a_first = play(
            deck_a, deck_b, policy_a=first, policy_b=second, seed=seed, log=False, decks=decks
        )
        wins += a_first.winner == "A"
        b_first = play(
            deck_a, deck_b, policy_a=second, policy_b=first, seed=seed, log=False, decks=decks
        )
        wins += b_first.winner == "B"
    return Pairing(first.name, second.name, 2 * len(deals), wins)


def ratings(pairings: Sequence[Pairing], base: float = 0.0) -> dict[str, float]:
    """Return Elo ratings up a chain of pairings (each `lower` is the previous `upper`)."""
    result: dict[str, float] = {}
    for item in pairings:
        result.setdefault(item.lower, base)
        result[item.upper] = result[item.lower] + item.elo
    return result
