"""The event-effect vocabulary as the catalog validates it on import.

The engine (play/engine/effects.py) parses the same vocabulary to apply it; the catalog may not
import the engine (ARCHITECTURE.md), so it checks the grammar here, and a test asserts that both
accept and reject exactly the same clauses.
"""

import re

CLAUSE = re.compile(r"^(draw:[1-9]\d*|(keep|shoot|defense):\+\d+|opp_(keep|shoot|defense):-\d+)$")


def effect_errors(text: str) -> list[str]:
    """Return a message for every clause of an effect text that is not in the vocabulary."""
    if not text.strip():
        return ["an event card needs an effect"]
    errors = []
    for clause in text.split(";"):
        clause = clause.strip()
        if not CLAUSE.match(clause):
            errors.append(
                f"unknown effect clause {clause!r} (expected draw:N, keep:+N, shoot:+N, "
                "defense:+N, opp_keep:-N, opp_shoot:-N or opp_defense:-N)"
            )
    return errors
