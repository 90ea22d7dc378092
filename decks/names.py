"""What a deck name may hold: one rule for the builder, the API, text import and every save;
and how a card name is folded to match a pasted list (`normalize`).

A name is shown in lists, page titles and exported files. Characters that change how the text
around them is displayed (right-to-left overrides, zero-width joiners and spaces: Unicode's
"format" characters) or that are not text at all (controls such as NUL, lone surrogates,
private-use code points) could make one deck pass for another, so they are refused.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 100
_REFUSED = {"Cc": "a control character", "Cf": "an invisible formatting character"}
_REFUSED |= {"Cs": "a lone surrogate", "Co": "a private-use character"}
_REFUSED |= {"Zl": "a line separator", "Zp": "a paragraph separator"}


def deck_name_problem(name: str) -> str | None:
    """Return why a deck name is refused, in words for the user, or None when it is fine."""
    if not name or not name.strip():
        return "is empty"
    if len(name) > MAX_NAME:
        return f"is longer than {MAX_NAME} characters"
    for ch in name:
        kind = _REFUSED.get(unicodedata.category(ch))
        if kind:
            return (
                f"holds {kind} (U+{ord(ch):04X}); right-to-left overrides, zero-width "
                "and control characters are not allowed"
            )
    return None


def normalize(name: str) -> str:
    """Return a card name folded for matching a pasted list (width, case and spaces)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
