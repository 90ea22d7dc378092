"""The event-effect vocabulary as the catalog uses it: checks for the importer and forms, words.

The grammar itself is defined once, in the engine's pure module (play/engine/effects.py,
ARCHITECTURE.md); these are thin wrappers with the catalog's messages, plus the effect in
words for people ("Draw 1 card. Your keep +2 this play phase.") in English and Japanese. The
clause form stays the file format and the API's `effect`.
"""

from functools import lru_cache

from django.utils import translation
from django.utils.translation import gettext, ngettext

from play.engine.effects import (
    VOCABULARY,
    Clause,
    EffectError,
    format_effect,
    parse_clause,
    parse_effect,
)

__all__ = ["effect_errors", "effect_normalize", "effect_text", "effect_texts", "EffectError"]


def effect_errors(text: str) -> list[str]:
    """Return a message for every clause of an effect text that is not in the vocabulary."""
    if not isinstance(text, str) or not text.strip():
        return ["an event card needs an effect"]
    errors = []
    for raw in text.split(";"):
        clause = raw.strip()
        try:
            parse_clause(clause)
        except EffectError:
            shown = repr(clause) if clause else "(empty)"
            errors.append(
                f"unknown effect clause {shown} (expected {VOCABULARY}; "
                "N a whole number from 1 to 99 without leading zeros)"
            )
    return errors


def effect_normalize(text: str) -> str:
    """Return an effect in canonical clause form (`draw:1;keep:+2`); raise EffectError if bad."""
    return format_effect(parse_effect(text))


def _clause_words(clause: Clause) -> str:
    n = abs(clause.amount)
    if clause.power == "draw":
        return ngettext("Draw %(n)d card.", "Draw %(n)d cards.", n) % {"n": n}
    if clause.target == "self":
        templates = {
            "keep": gettext("Your keep +%(n)d this play phase."),
            "shoot": gettext("Your shoot +%(n)d this play phase."),
            "defense": gettext("Your defense +%(n)d this play phase."),
        }
    else:
        templates = {
            "keep": gettext("Opponent's keep −%(n)d this play phase."),
            "shoot": gettext("Opponent's shoot −%(n)d this play phase."),
            "defense": gettext("Opponent's defense −%(n)d this play phase."),
        }
    return templates[clause.power] % {"n": n}


@lru_cache(maxsize=2048)
def _words(text: str, language: str) -> str:
    with translation.override(language):
        sentences = [_clause_words(clause) for clause in parse_effect(text)]
    joiner = "" if language == "ja" else " "
    return joiner.join(sentences)


def effect_text(text: str, language: str | None = None) -> str:
    """Return an effect in words in `language` (default: the active one); "" if none or bad."""
    if not text:
        return ""
    language = (language or translation.get_language() or "en").split("-")[0]
    try:
        return _words(text, "ja" if language == "ja" else "en")
    except EffectError:
        return ""


def effect_texts(text: str) -> dict[str, str]:
    """Return an effect in words in both languages: {"en": …, "ja": …}."""
    return {"en": effect_text(text, "en"), "ja": effect_text(text, "ja")}
