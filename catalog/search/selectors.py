"""Read paths of the catalog: card search for the pages and the API (one parser for both)."""

from collections.abc import Mapping

from django.db.models import QuerySet

from catalog.models import Card
from catalog.search.query import Or, ParsedQuery, QuerySyntaxError, parse_query, quote_value

SAMPLE_TERMS = {"only": "is:sample", "none": "not:sample"}
RANGE_CONTROLS = (
    ("shoot_min", "shoot>="),
    ("shoot_max", "shoot<="),
    ("keep_min", "keep>="),
    ("keep_max", "keep<="),
    ("def_min", "def>="),
    ("def_max", "def<="),
)


def card_search(*, query: str, user=None) -> QuerySet[Card]:
    """Return the cards a search query selects, in its order; raise QuerySyntaxError if bad.

    `user` answers the user-dependent terms (`is:owned`); anonymous users own nothing.
    """
    return card_search_parsed(parsed=parse_query(query, user=user))


def card_search_parsed(*, parsed: ParsedQuery) -> QuerySet[Card]:
    """Return the cards of an already parsed query (for pages that also show its description)."""
    # The search columns are for the database only: decoding each card's JSON list of grams
    # was a large part of rendering a page of results.
    return (
        Card.objects.filter(parsed.q)
        .select_related("card_set", "team")
        .defer("search_text", "search_grams")
        .order_by(*parsed.ordering())
    )


def card_search_rows(*, query: str, columns: tuple[str, ...], user=None) -> QuerySet:
    """Return the rows (`.values(*columns)`) of the cards a query selects, in its order, for
    readers that need no model instances (the card list API); raise QuerySyntaxError."""
    parsed = parse_query(query, user=user)
    return Card.objects.filter(parsed.q).order_by(*parsed.ordering()).values(*columns)


def _control(data: Mapping, name: str) -> str:
    value = data.get(name)
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ",".join(str(item).strip() for item in value if str(item).strip())
    return str(value).strip()


def _box_query(text: str) -> str | None:
    """Return the search box's text, parenthesised when a top-level "or" would swallow
    the controls; None when it does not parse."""
    try:
        parsed = parse_query(text)
    except QuerySyntaxError:
        return None
    return f"({text})" if isinstance(parsed.node, Or) else text


def card_filter_form_to_query(data: Mapping) -> str:
    """Return one query string combining the search box (`q`) and the filter controls.

    Controls: set, kind, pos, team, shoot/keep/def _min/_max, sample (any/only/none),
    order (a key of docs/search.md) and direction (asc/desc). Blank controls add nothing.
    A search box that does not parse is returned alone, so parsing reports its error.
    """
    parts = []
    box = _control(data, "q")
    for name in ("set", "kind", "pos", "team"):
        value = _control(data, name)
        if value:
            parts.append(f"{name}:{quote_value(value)}")
    for name, prefix in RANGE_CONTROLS:
        value = _control(data, name)
        if value:
            parts.append(f"{prefix}{quote_value(value)}")
    sample = SAMPLE_TERMS.get(_control(data, "sample").lower())
    if sample:
        parts.append(sample)
    order = _control(data, "order")
    if order:
        parts.append(f"order:{quote_value(order)}")
    if _control(data, "direction").lower() == "desc":
        parts.append("direction:desc")
    if box and parts:
        combined = _box_query(box)
        if combined is None:
            # Alone, the box gives the same error at the column the user sees; with controls
            # after it, "arai or" + "set:BS" would parse into something never asked for.
            return box
        box = combined
    return " ".join([box, *parts]) if box else " ".join(parts)
