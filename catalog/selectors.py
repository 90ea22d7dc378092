"""Read paths of the catalog: card search for the pages and the API (one parser for both)."""

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import QuerySet

from catalog.extensions import mentions_user_terms
from catalog.models import Card
from catalog.search import Or, ParsedQuery, QuerySyntaxError, parse_query, quote_value

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
    return (
        Card.objects.filter(parsed.q)
        .select_related("card_set", "team")
        .order_by(*parsed.ordering())
    )


# The columns the card list API shows, read as tuples: building 50 model instances and running
# them through a DRF serializer cost most of an uncached search (docs/performance.md).
CARD_LIST_COLUMNS = (
    "id",
    "name",
    "name_ja",
    "name_kana",
    "card_set_id",
    "number",
    "kind",
    "position",
    "person",
    "team_id",
    "team__name",
    "team__name_ja",
    "shoot",
    "keep",
    "defense",
    "effect",
    "rarity",
    "is_sample",
    "source",
)


@dataclass(frozen=True)
class SearchStatements:
    """The SQL of one search page and of its COUNT, as the ORM compiles them."""

    page_sql: str
    page_params: tuple
    count_sql: str
    count_params: tuple


# Compiling the two statements was the largest part of an uncached search (docs/performance.md).
# The SQL of a query text is a pure function of the text, page and database, so it is kept
# per process; the statements still run every time, so the answer is always the live catalog.
_STATEMENTS: OrderedDict[tuple, SearchStatements] = OrderedDict()
STATEMENT_CACHE_SIZE = 512


def _statements(query: str, offset: int, limit: int, user=None) -> SearchStatements:
    """Return the compiled statements of a search page; raise QuerySyntaxError if bad."""
    # A user-dependent term (catalog/extensions.py) compiles to SQL naming the user.
    who = getattr(user, "pk", None) if mentions_user_terms(query) else None
    key = (query, offset, limit, connection.alias, connection.vendor, who)
    found = _STATEMENTS.get(key)
    if found is not None:
        _STATEMENTS.move_to_end(key)
        return found
    parsed = parse_query(query, user=user)
    cards = Card.objects.filter(parsed.q)
    page = cards.order_by(*parsed.ordering()).values_list(*CARD_LIST_COLUMNS)
    try:
        page_sql, page_params = page[offset : offset + limit].query.sql_with_params()
        count_sql, count_params = cards.order_by().values("id").query.sql_with_params()
    except EmptyResultSet:  # a filter the ORM knows matches nothing, e.g. `id__in=[]`
        found = SearchStatements("", (), "", ())
    else:
        found = SearchStatements(
            page_sql,
            tuple(page_params),
            f"SELECT COUNT(*) FROM ({count_sql}) AS matches",
            tuple(count_params),
        )
    _STATEMENTS[key] = found
    if len(_STATEMENTS) > STATEMENT_CACHE_SIZE:
        _STATEMENTS.popitem(last=False)
    return found


def card_search_page(*, query: str, offset: int, limit: int, user=None) -> tuple[list[tuple], int]:
    """Return one page of a search as CARD_LIST_COLUMNS tuples, and the total match count.

    Raise QuerySyntaxError for a query that does not parse. The count query runs only when
    the page is full: a shorter page already tells the total, so most searches cost one query.
    """
    statements = _statements(query, offset, max(limit, 1), user)
    if not statements.page_sql:
        return [], 0
    with connection.cursor() as cursor:
        cursor.execute(statements.page_sql, statements.page_params)
        rows = cursor.fetchall()[:limit]
        if len(rows) < limit and (rows or offset == 0):
            return rows, offset + len(rows)
        cursor.execute(statements.count_sql, statements.count_params)
        return rows, cursor.fetchone()[0]


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
