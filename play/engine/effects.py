"""The event-card effect vocabulary (rules: "Event effects"), defined once: parse, format, total.

An effect is one or more clauses separated by `;`. This module is the only definition of the
grammar: the catalog (importer, proposal form, card faces) and the engine all call it, so a card
that imports is a card the engine can play (ARCHITECTURE.md: the catalog uses the engine's pure
module). Clause numbers are written in canonical form, a whole number from 1 to MAX_AMOUNT
without leading zeros, so `format_effect(parse_effect(text))` gives back the clause text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

POWERS = ("keep", "shoot", "defense")
MAX_AMOUNT = 99
VOCABULARY = "draw:N, keep:+N, shoot:+N, defense:+N, opp_keep:-N, opp_shoot:-N, opp_defense:-N"

_NUMBER = r"[1-9][0-9]?"  # 1..MAX_AMOUNT, no leading zero
_CLAUSE = re.compile(
    rf"(?P<draw>draw):(?P<n1>{_NUMBER})"
    rf"|(?P<own>keep|shoot|defense):\+(?P<n2>{_NUMBER})"
    rf"|opp_(?P<opp>keep|shoot|defense):-(?P<n3>{_NUMBER})"
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


def _clause_problem(part: str) -> str:
    """Return why one stripped clause is not in the vocabulary ("" when it is)."""
    if _CLAUSE.fullmatch(part):
        return ""
    if not part:
        return "an empty clause"
    return (
        f"'{part}' is not a clause; use {VOCABULARY} "
        f"(N a whole number from 1 to {MAX_AMOUNT}, no leading zero), separated by ';'"
    )


def effect_problems(text: str) -> list[str]:
    """Return a message for every clause of an effect text outside the vocabulary."""
    if not isinstance(text, str) or not text.strip():
        return [f"Empty effect {text!r}: write one or more of {VOCABULARY}."]
    problems = []
    for raw in text.split(";"):
        problem = _clause_problem(raw.strip())
        if problem:
            problems.append(problem)
    return problems


def parse_clause(part: str) -> Clause:
    """Return one clause (already stripped), or raise EffectError naming it."""
    match = _CLAUSE.fullmatch(part)
    if match is None:
        raise EffectError(_clause_problem(part))
    number = int(match["n1"] or match["n2"] or match["n3"])
    if match["draw"]:
        return Clause(part, "draw", "self", number)
    if match["own"]:
        return Clause(part, match["own"], "self", number)
    return Clause(part, match["opp"], "opponent", -number)


def parse_effect(text: str) -> tuple[Clause, ...]:
    """Return the clauses of an effect text, or raise EffectError naming the bad clause."""
    if not isinstance(text, str) or not text.strip():
        raise EffectError(f"Empty effect {text!r}: write one or more of {VOCABULARY}.")
    clauses = []
    for raw in text.split(";"):
        part = raw.strip()
        problem = _clause_problem(part)
        if problem:
            raise EffectError(f"Effect {text!r}: {problem}.")
        clauses.append(parse_clause(part))
    return tuple(clauses)


def format_clause(clause: Clause) -> str:
    """Return the canonical text of one clause."""
    if clause.power == "draw":
        return f"draw:{clause.amount}"
    if clause.target == "self":
        return f"{clause.power}:+{clause.amount}"
    return f"opp_{clause.power}:-{-clause.amount}"


def format_effect(clauses: tuple[Clause, ...] | list[Clause]) -> str:
    """Return the canonical effect text of clauses: `;`-separated, no spaces."""
    return ";".join(format_clause(clause) for clause in clauses)


def normalize_effect(text: str) -> str:
    """Return an effect text in canonical form (spaces around clauses dropped)."""
    return format_effect(parse_effect(text))


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
