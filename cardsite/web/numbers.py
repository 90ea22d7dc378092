"""One reader for the whole numbers users send: query parameters, form fields, CSV cells, headers.

`str.isdigit()` says yes to "²" and "٣", which `int()` then refuses (or, for "٣", reads as 3),
and `int()` refuses a number of more than 4,300 digits with a ValueError: each ad-hoc
`isdigit()` + `int()` was a 500 waiting for its input. Here only ASCII digits are digits, and
the length is checked before `int()` sees the text, so a bad value is always a
`NotAWholeNumber` whose message names the field and the range.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

MAX_DIGITS = 9  # a page, a position, a quantity, a version: never a billion


class NotAWholeNumber(ValueError):
    """A user's text that is not a whole number in the range asked for (the message says so)."""


def parse_whole_number(
    text,
    *,
    field: str = "",
    low: int | None = 0,
    high: int | None = None,
    max_digits: int = MAX_DIGITS,
    signed: bool = False,
) -> int:
    """Return the whole number `text` writes in ASCII digits, from `low` to `high`.

    None for `low` or `high` leaves that end open; `signed` allows a leading + or -. Anything
    else (other digits, spaces, underscores, more than `max_digits` digits, a value out of
    range) raises NotAWholeNumber naming `field`.
    """
    raw = text if isinstance(text, str) else ""
    digits = raw[1:] if signed and raw[:1] in ("+", "-") else raw
    if not (digits.isascii() and digits.isdigit() and len(digits) <= max_digits):
        raise NotAWholeNumber(_range_message(field, low, high))
    value = int(raw)
    if (low is not None and value < low) or (high is not None and value > high):
        raise NotAWholeNumber(_range_message(field, low, high))
    return value


def whole_number_or(text, default, **bounds):
    """Return `parse_whole_number(text, **bounds)`, or `default` when it is not one.

    For values where a bad number quietly means "none given" (an optional page parameter).
    """
    try:
        return parse_whole_number(text, **bounds)
    except NotAWholeNumber:
        return default


def _range_message(field: str, low: int | None, high: int | None) -> str:
    if low is None:
        return _("%(field)s: give a whole number.") % {"field": field}
    if high is None:
        return _("%(field)s: give a whole number from %(low)s.") % {"field": field, "low": low}
    return _("%(field)s: give a whole number from %(low)s to %(high)s.") % {
        "field": field,
        "low": low,
        "high": high,
    }
