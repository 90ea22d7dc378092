from django import template

from play.simulations import bots as bot_words

register = template.Library()


@register.filter
def pct(value, digits=1):
    """Format a 0..1 fraction as a percentage."""
    if value is None or value == "":
        return "–"
    return f"{float(value) * 100:.{int(digits)}f}%"


@register.filter
def sub(value, other):
    return (value or 0) - (other or 0)


@register.filter
def rules_text(options):
    """Return (question, reading) pairs of a batch's rule options (R-PLAY-4, R-DRAW-2)."""
    return bot_words.rules_text(options)
