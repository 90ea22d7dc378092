from django import template

from play.simulations import bots as bot_words
from play.simulations import kinds
from play.studies import labels as lab_labels

register = template.Library()


@register.filter
def pct(value, digits=1):
    """Format a 0..1 fraction as a percentage."""
    if value is None or value == "":
        return "–"
    return f"{float(value) * 100:.{int(digits)}f}%"


@register.filter
def points(value, digits=1):
    """Format a 0..1 change in win rate as signed percentage points: 0.031 -> "+3.1"."""
    if value is None or value == "":
        return "–"
    return f"{float(value) * 100:+.{int(digits)}f}"


@register.filter
def sub(value, other):
    return (value or 0) - (other or 0)


@register.filter
def rules_text(options):
    """Return (question, reading) pairs of a batch's rule options (R-PLAY-4, R-DRAW-2)."""
    return bot_words.rules_text(options)


@register.filter
def kind_label(batch):
    """Return the name of a batch's kind ("Deck vs deck", "PK shootouts", ...)."""
    kind = kinds.get(batch.kind)
    return str(kind.label) if kind else batch.kind


@register.filter
def heading_labels(batch):
    """Return the labels a batch's heading and the batch list show (the lab's variants)."""
    kind = kinds.get(batch.kind)
    return kind.heading_labels(batch) if kind else (batch.params or {}).get("variants", [])


@register.filter
def lab_variant_label(summary):
    """Return a lab results column's variant (a summary of play.studies.variants) in words."""
    variant = summary.get("variant")
    return lab_labels.variant_label(variant) if variant else summary.get("label", "")


@register.filter
def opponent_text(batch):
    """Return what a batch played against, in words, for lists of batches."""
    kind = kinds.get(batch.kind)
    return kind.opponent_text(batch) if kind else ""
