from django import template

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
