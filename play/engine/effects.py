"""The event-card effect vocabulary (rules: "Event effects"): parse, validate, and total it.

An effect is one or more clauses separated by `;`. The catalog importer and the engine both
call `parse_effect`, so a card that imports is a card the engine can play.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

POWERS = ("keep", "shoot", "defense")
VOCABULARY = "draw:N, keep:+N, shoot:+N, defense:+N, opp_keep:-N, opp_shoot:-N, opp_defense:-N"

_CLAUSE = re.compile(
    r"(?P<draw>draw):(?P<n1>\d+)"
    r"|(?P<own>keep|shoot|defense):\+(?P<n2>\d+)"
    r"|opp_(?P<opp>keep|shoot|defense):-(?P<n3>\d+)"
)


class EffectError(ValueError):
    """An effect text that is not in the vocabulary."""


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause: `draw` N cards, or add `amount` to the user's or the opponent's `power`."""

    text: str
    power: str  # "draw", "keep", "shoot" or "defense"
    target: str  # "self" or "opponent"
    amount: int  # cards to draw, or the signed change to the total


@dataclass(frozen=True, slots=True)
class Effect:
    """A whole effect summed up: the change to each side's totals, then the cards to draw."""

    text: str
    own: tuple[int, int, int]  # keep, shoot, defense added to the user's totals
    opponent: tuple[int, int, int]  # keep, shoot, defense added to the opponent's totals
    draw: int


def parse_effect(text: str) -> tuple[Clause, ...]:
    """Return the clauses of an effect text, or raise EffectError naming the bad clause."""
    if not isinstance(text, str) or not text.strip():
        raise EffectError(f"Empty effect {text!r}: write one or more of {VOCABULARY}.")
    clauses = []
    for raw in text.split(";"):
        part = raw.strip()
        match = _CLAUSE.fullmatch(part)
        if match is None:
            shown = f"'{part}'" if part else "an empty clause"
            raise EffectError(
                f"Effect {text!r}: {shown} is not a clause; use {VOCABULARY} "
                "(N a whole number from 1), separated by ';'."
            )
        number = int(match["n1"] or match["n2"] or match["n3"])
        if number < 1:
            raise EffectError(f"Effect {text!r}: '{part}' must use a number of 1 or more.")
        if match["draw"]:
            clauses.append(Clause(part, "draw", "self", number))
        elif match["own"]:
            clauses.append(Clause(part, match["own"], "self", number))
        else:
            clauses.append(Clause(part, match["opp"], "opponent", -number))
    return tuple(clauses)


@lru_cache(maxsize=4096)
def compile_effect(text: str) -> Effect:
    """Return the effect text summed into total changes and a draw count."""
    own = dict.fromkeys(POWERS, 0)
    opponent = dict.fromkeys(POWERS, 0)
    draw = 0
    for clause in parse_effect(text):
        if clause.power == "draw":
            draw += clause.amount
        elif clause.target == "self":
            own[clause.power] += clause.amount
        else:
            opponent[clause.power] += clause.amount
    return Effect(
        text=text,
        own=(own["keep"], own["shoot"], own["defense"]),
        opponent=(opponent["keep"], opponent["shoot"], opponent["defense"]),
        draw=draw,
    )
