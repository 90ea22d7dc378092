"""The bots a batch can use, strongest first, and the rule options a batch can choose.

The engine's one registry (`play.engine.policies.LADDER`, weakest first) orders the bots by
strength (measured by `bench/engine.py ladder`, docs/engine.md); here they get the words a
person reads. The rule options are the second edition's (R-PLAY-4 `empty_timing`, R-DRAW-2
`deck_out`), the second edition's reading first.
"""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from play.engine.options import DECK_OUTS, EMPTY_TIMINGS
from play.engine.policies import SEARCH_BUDGETS
from play.simulations import core as simulation

BOTS = simulation.POLICIES  # strongest first


def _bot_words(name: str) -> str:
    """Return the words for a bot in the active language (its name if it is not one of ours)."""
    if name == "search-strong":
        return _("Strong search bot (%(n)s rollouts a decision)") % {"n": SEARCH_BUDGETS[name]}
    if name == "search":
        return _("Search bot (%(n)s rollouts a decision)") % {"n": SEARCH_BUDGETS[name]}
    labels = {
        "greedy": _("Greedy bot"),
        "random": _("Random bot"),
        "passive": _("Passive (never plays)"),
    }
    return str(labels.get(name, name))


bot_label = lazy(_bot_words, str)  # read in the language of the page that shows it


def bot_choices() -> list[tuple[str, str]]:
    """Return (name, label) of every bot, strongest first."""
    return [(name, bot_label(name)) for name in BOTS]


RULE_CHOICES = {
    "empty_timing": (  # R-PLAY-4
        _("A timing with no card used"),
        {
            "passes": _("passes to the opponent (second edition)"),
            "ends_phase": _("ends the play phase (first edition)"),
        },
    ),
    "deck_out": (  # R-DRAW-2
        _("A half ends when a deck runs out"),
        {
            "draw_phase": _("in the draw phase (second edition)"),
            "any_draw": _("at any draw (first edition)"),
        },
    ),
}
ENGINE_RULE_VALUES = {"empty_timing": EMPTY_TIMINGS, "deck_out": DECK_OUTS}  # default first


def rules_text(options: dict | None) -> list[tuple[str, str]]:
    """Return (option's question, the chosen reading) for a batch's rule options."""
    options = options or {}
    shown = []
    for name, (question, readings) in RULE_CHOICES.items():
        value = options.get(name, next(iter(readings)))
        shown.append((str(question), str(readings.get(value, value))))
    return shown
