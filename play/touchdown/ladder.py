"""A Touchdown Heroes bot ladder: paired seeds with the seats swapped, and a 95% interval.

Each seed is played twice, once with `upper` as the Eagles (seats 0 and 2) and once as the
Bears (seats 1 and 3), so neither the deal nor the seats favour a bot. A game can end in a
draw (TD-END-2), so `upper`'s score counts a win as 1 and a draw as 1/2; its interval is
Wilson's score interval, as the Eleven Stars ladder (play/engine/ladder.py) uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from play.touchdown.cards import TEAMS
from play.touchdown.options import DEFAULT_OPTIONS, Options
from play.touchdown.outcome import play_out
from play.touchdown.policies import Policy
from play.touchdown.strategies import get_policy

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Pairing:
    """How `upper` did against `lower` over `games` seat-swapped games."""

    upper: str
    lower: str
    games: int
    wins: int
    draws: int

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def rate(self) -> float:
        """Return `upper`'s score rate: (wins + draws / 2) / games."""
        return (self.wins + self.draws / 2) / self.games

    @property
    def interval(self) -> tuple[float, float]:
        """Return the 95% Wilson interval of `upper`'s score rate."""
        n, p = self.games, self.rate
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return centre - half, centre + half

    @property
    def clear(self) -> bool:
        """Return whether the whole interval is above 50%."""
        return self.interval[0] > 0.5

    def __add__(self, other: Pairing) -> Pairing:
        if (self.upper, self.lower) != (other.upper, other.lower):
            raise ValueError("Only pairings of the same two bots add up.")
        return Pairing(
            self.upper,
            self.lower,
            self.games + other.games,
            self.wins + other.wins,
            self.draws + other.draws,
        )


def pairing(
    upper: str | Policy,
    lower: str | Policy,
    seeds: Iterable[int],
    options: Options = DEFAULT_OPTIONS,
) -> Pairing:
    """Play every seed twice, `upper` once on each team, and count `upper`'s results."""
    first = get_policy(upper) if isinstance(upper, str) else upper
    second = get_policy(lower) if isinstance(lower, str) else lower
    games = wins = draws = 0
    for seed in seeds:
        for team, seats in ((TEAMS[0], (first, second)), (TEAMS[1], (second, first))):
            outcome = play_out(options, [seats[0], seats[1], seats[0], seats[1]], seed, False)
            games += 1
            wins += outcome.winner == team
            draws += outcome.draw
    return Pairing(first.name, second.name, games, wins, draws)


__all__ = ["Pairing", "pairing"]
