"""Read paths of the catalog: card search for the pages and the API (one parser for both)."""

import hashlib
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connection, connections
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
    # The search columns (and the API's stored JSON) are for the database only: decoding each
    # card's JSON list of grams was a large part of rendering a page of results.
    return (
        Card.objects.filter(parsed.q)
        .select_related("card_set", "team")
        .defer("search_text", "search_grams", "api_head", "api_tail", "team__api_json")
        .order_by(*parsed.ordering())
    )


# The columns of one card in the card list API, in the order of _CARD_JSON below: the card's
# stored JSON around its team and the team's (Card.api_head/api_tail, Team.api_json, written by
# database triggers, migration 0008).
CARD_LIST_COLUMNS = ("api_head", "team__api_json", "api_tail")
_C = {name: f"c{i}" for i, name in enumerate(CARD_LIST_COLUMNS)}
# One card as the API shows it (CardSerializer's fields and order). Decoding 50 × 19 values
# into Python and encoding them again was most of an uncached search after the ORM had gone;
# building the 50 objects with json_build_object then was most of PostgreSQL's share, so the
# JSON is stored and a page is text joined by the database (docs/performance.md). The team is
# joined live, so a renamed team needs no card rewritten. `effect_text` carries the clause
# here; `card_list_json` puts the words in.
_CARD_JSON = "c0 || COALESCE(c1, 'null') || c2"
_AGGREGATE = {"postgresql": "string_agg({card}, ',')", "sqlite": "group_concat({card}, ',')"}


# The count of the unfiltered list: the trigger-kept total (CardTotal, migration 0009), or a
# count when its row is missing (a flushed database; the next write puts it back).
_ALL_CARDS_COUNT = (
    "COALESCE((SELECT cards FROM catalog_cardtotal WHERE id = 1), "
    "(SELECT COUNT(*) FROM catalog_card))"
)


def _page_statement(vendor: str, page_sql: str, count_sql: str | None) -> str:
    """Return one statement answering (match count, the page's cards as JSON objects);
    `count_sql` None means every card matches."""
    aggregate = _AGGREGATE[vendor]
    columns = ", ".join(_C.values())
    # Counting in the same statement costs one round trip, not two; when the page is short
    # there are fewer than `limit` matches to count. The page's ORDER BY … LIMIT inside the
    # CTE gives the aggregate its rows in order (a single scan of a sorted subquery).
    count = (
        _ALL_CARDS_COUNT
        if count_sql is None
        else f"(SELECT COUNT(*) FROM ({count_sql}) AS matches)"
    )
    return (
        f"WITH page({columns}) AS ({page_sql}) "
        f"SELECT {count}, (SELECT {aggregate.format(card=_CARD_JSON)} FROM page)"
    )


@dataclass
class SearchStatement:
    """The one statement of a search page, as the ORM compiles it, and how often it ran."""

    sql: str
    params: tuple
    name: str = ""  # of its prepared statement on PostgreSQL
    literal: str = ""  # sql with the params inlined (PostgreSQL)
    execute: bytes = b""  # `EXECUTE name`, for libpq (_execute_prepared)
    runs: int = 0


# Compiling the statement was the largest part of an uncached search (docs/performance.md).
# The SQL of a query text is a pure function of the text, page and database, so it is kept
# per process; the statement still runs every time, so the answer is always the live catalog.
_STATEMENTS: OrderedDict[tuple, SearchStatement] = OrderedDict()
STATEMENT_CACHE_SIZE = 512
_NOTHING = SearchStatement("", ())


def _statement(query: str, offset: int, limit: int, user=None) -> SearchStatement:
    """Return the compiled statement of a search page; raise QuerySyntaxError if bad."""
    # A user-dependent term (catalog/extensions.py) compiles to SQL naming the user.
    who = getattr(user, "pk", None) if mentions_user_terms(query) else None
    db = connections[DEFAULT_DB_ALIAS]  # what `connection` proxies, looked up once
    key = (query, offset, limit, db.alias, db.vendor, who)
    found = _STATEMENTS.get(key)
    if found is not None:
        _STATEMENTS.move_to_end(key)
        return found
    parsed = parse_query(query, user=user)
    cards = Card.objects.filter(parsed.q)
    page = cards.order_by(*parsed.ordering()).values_list(*CARD_LIST_COLUMNS)
    try:
        page_sql, page_params = page[offset : offset + limit].query.sql_with_params()
        if cards.query.where:
            count_sql, count_params = cards.order_by().values("id").query.sql_with_params()
        else:  # no filter: counting every card was the costliest COUNT of the mix
            count_sql, count_params = None, ()
    except EmptyResultSet:  # a filter the ORM knows matches nothing, e.g. `id__in=[]`
        found = _NOTHING
    else:
        sql = _page_statement(db.vendor, page_sql, count_sql)
        found = SearchStatement(sql, (*page_params, *count_params))
        if db.vendor == "postgresql":
            found.literal = db.ops.compose_sql(sql, found.params)
            digest = hashlib.blake2b(found.literal.encode(), digest_size=10).hexdigest()
            found.name = f"card_search_{digest}"
            found.execute = f"EXECUTE {found.name}".encode()
    _STATEMENTS[key] = found
    if len(_STATEMENTS) > STATEMENT_CACHE_SIZE:
        _STATEMENTS.popitem(last=False)
    return found


# Prepared statements per PostgreSQL connection (the server keeps them for the session, also
# across rolled-back transactions): a repeated search skips parsing and planning, which cost
# as much PostgreSQL CPU as running it. Bounded, the oldest deallocated.
_PREPARED: WeakKeyDictionary = WeakKeyDictionary()
PREPARED_PER_CONNECTION = 128


def _run(cursor, statement: SearchStatement) -> tuple:
    """Run a search statement (prepared from its second run on PostgreSQL); return its row."""
    if not statement.name:
        cursor.execute(statement.sql, statement.params)
        return cursor.fetchone()
    statement.runs += 1
    if statement.runs == 1:  # a query seen once may never come back: do not prepare it
        cursor.execute(statement.literal)
        return cursor.fetchone()
    prepared = _PREPARED.setdefault(connection.connection, OrderedDict())
    if statement.name in prepared:
        prepared.move_to_end(statement.name)
        cursor.execute(f"EXECUTE {statement.name}")
        return cursor.fetchone()
    # One round trip: deallocate the oldest if full, prepare, execute; the row is the last
    # result of the batch.
    sql = f"PREPARE {statement.name} AS {statement.literal}; EXECUTE {statement.name}"
    prepared[statement.name] = None
    if len(prepared) > PREPARED_PER_CONNECTION:
        oldest, _ = prepared.popitem(last=False)
        sql = f"DEALLOCATE {oldest}; {sql}"
    cursor.execute(sql)
    while cursor.description is None and cursor.nextset():
        pass
    return cursor.fetchone()


def _execute_prepared(statement: SearchStatement) -> tuple[int, bytes] | None:
    """Run a search already prepared on this connection straight through libpq, or return
    None when the ordinary cursor must run it.

    After the SQL had been made cheap, Django's cursor and psycopg's execute and decoding of
    the page's 20 kB of JSON were a third of an uncached search's Python (docs/performance.md).
    A prepared statement needs none of it: no parameters to adapt, one text row, and the JSON
    is wanted as bytes anyway. Only outside transactions (in autocommit the statement is its
    own transaction, as through the cursor), with no query logging (DEBUG, tests counting
    queries) and no execute wrappers, so nothing that watches Django's cursor misses a query;
    errors become Django's database errors as through the cursor.
    """
    from psycopg import errors as psycopg_errors
    from psycopg import pq

    db = connections[DEFAULT_DB_ALIAS]
    if db.queries_logged or db.execute_wrappers or db.in_atomic_block:
        return None
    db.close_if_health_check_failed()  # as the cursor does before it connects
    db.ensure_connection()
    raw = db.connection
    prepared = _PREPARED.get(raw)
    if not db.autocommit or prepared is None or statement.name not in prepared:
        return None
    pgconn = raw.pgconn
    if pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return None
    prepared.move_to_end(statement.name)
    statement.runs += 1
    with db.wrap_database_errors, raw.lock:
        result = pgconn.exec_(statement.execute)
        if result.status != pq.ExecStatus.TUPLES_OK:
            raise psycopg_errors.error_from_result(result, encoding=raw.info.encoding)
        return int(result.get_value(0, 0)), result.get_value(0, 1) or b""


def card_search_page(*, query: str, offset: int, limit: int, user=None) -> tuple[bytes, int]:
    """Return one page of a search as the UTF-8 JSON objects of its cards joined by commas
    (with each `effect_text` still the clause, see card_list_json) and the total match count.

    One statement, one query. Raise QuerySyntaxError for a query that does not parse.
    """
    statement = _statement(query, offset, max(limit, 1), user)
    if not statement.sql:
        return b"", 0
    if statement.execute:
        done = _execute_prepared(statement)
        if done is not None:
            total, cards = done
            return cards, total
    with connection.cursor() as cursor:
        total, cards = _run(cursor, statement)
    return (cards or "").encode(), total


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
