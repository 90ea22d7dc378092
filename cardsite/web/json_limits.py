"""Bounds on what one request may make the server parse: one JSON reader for every JSON input.

Python's `json` module happily reads 10^5000 (and then `int()` refuses it with a ValueError past
4,300 digits), NaN and Infinity (which PostgreSQL's jsonb then refuses), and nesting deep
enough to raise RecursionError, and keeps the last of two equal keys in one object silently.
`loads_bounded` refuses all of these with a `JSONLimitError`
whose message names the limit, before any of them reaches a service. DRF reads JSON with
`BoundedJSONParser` (settings), and every view that reads a JSON field or file calls
`loads_bounded` itself (the deck builder's draft, an uploaded match log).
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_JSON_BYTES = 1_000_000
MAX_JSON_DEPTH = 32
MAX_INT_DIGITS = 20
MAX_NUMBER_CHARS = 40

_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class JSONLimitError(ValueError):
    """JSON text that is not read: malformed, too big, too deep, or with numbers out of bounds."""


def has_nul(value) -> bool:
    """Return whether a string (or any string inside parsed JSON) holds a NUL character."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_nul(v) for v in value)
    return False


def _depth(text: str) -> int:
    deepest = depth = 0
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _parse_int(raw: str) -> int:
    if len(raw.lstrip("-")) > MAX_INT_DIGITS:
        raise JSONLimitError(_("a number has more than %(n)s digits") % {"n": MAX_INT_DIGITS})
    return int(raw)


def _parse_float(raw: str) -> float:
    if len(raw) > MAX_NUMBER_CHARS:
        raise JSONLimitError(
            _("a number is longer than %(n)s characters") % {"n": MAX_NUMBER_CHARS}
        )
    value = float(raw)
    if value in (float("inf"), float("-inf")):
        raise JSONLimitError(_("a number is too large"))
    return value


def _refuse_constant(name: str):
    raise JSONLimitError(_("%(name)s is not a JSON number") % {"name": name})


def _object_without_repeats(pairs: list[tuple[str, object]]) -> dict:
    """Return an object's pairs as a dict, refusing a key given twice.

    Python keeps the last of two equal keys, silently: `{"quantity": 1, "quantity": 60}` would
    save 60 though a reader of the text may well see 1. The request is refused instead.
    """
    data: dict = {}
    for key, value in pairs:
        if key in data:
            shown = key if len(key) <= 40 else key[:40] + "…"
            raise JSONLimitError(
                _("the key “%(key)s” appears twice in one object") % {"key": shown}
            )
        data[key] = value
    return data


def loads_bounded(
    text: str | bytes,
    *,
    max_bytes: int = MAX_JSON_BYTES,
    max_depth=MAX_JSON_DEPTH,
    refuse_nul: bool = True,
):
    """Return parsed JSON, or raise JSONLimitError saying which bound or syntax rule it breaks.

    `refuse_nul=False` leaves NUL characters in strings to the caller, which can then name the
    field that holds one (the open-data import names the card and the field)."""
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise JSONLimitError(_("the JSON is larger than %(n)s bytes") % {"n": f"{max_bytes:,}"})
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JSONLimitError(_("the JSON is not UTF-8 text")) from None
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise JSONLimitError(_("the JSON is larger than %(n)s bytes") % {"n": f"{max_bytes:,}"})
    if _depth(text) > max_depth:
        raise JSONLimitError(_("the JSON is nested deeper than %(n)s levels") % {"n": max_depth})
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
            object_pairs_hook=_object_without_repeats,
        )
    except JSONLimitError:
        raise
    except RecursionError:
        raise JSONLimitError(
            _("the JSON is nested deeper than %(n)s levels") % {"n": max_depth}
        ) from None
    except json.JSONDecodeError as exc:
        # Where, in words a reader of either language follows: Python's own text ("Expecting
        # value: line 1 column 1 (char 0)") is English on a Japanese page.
        raise JSONLimitError(
            _("the JSON is malformed at line %(line)s, column %(column)s")
            % {"line": f"{exc.lineno:,}", "column": f"{exc.colno:,}"}
        ) from None
    except ValueError as exc:
        raise JSONLimitError(_("the JSON is malformed (%(e)s)") % {"e": exc}) from None
    if refuse_nul and has_nul(data):
        raise JSONLimitError(_("the JSON holds a NUL character"))
    return data


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with the bounds of `loads_bounded` (size, depth, numbers, NUL, keys)."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = getattr(settings, "API_MAX_JSON_BYTES", MAX_JSON_BYTES)
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise ParseError(f"The request body is larger than {limit:,} bytes.")
        try:
            return loads_bounded(raw, max_bytes=limit)
        except JSONLimitError as exc:
            raise ParseError(f"JSON parse error: {exc}.") from None
