"""The search indexes of migration 0002 on PostgreSQL, and a constant query count per API page.

The index tests are PostgreSQL-only (SQLite has neither pg_trgm nor GIN; they are skipped).
They check the planner *can* use each index for the SQL `card_search` produces: the session
catalog is small, so with default settings PostgreSQL may rightly prefer a sequential scan;
`SET LOCAL enable_seqscan = off` (undone with the test's transaction) takes that choice away.
Timings are measured by bench/search.py, never asserted here (docs/performance.md).
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.models import Card
from catalog.search.selectors import card_search

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL search indexes (pg_trgm, GIN)"
)
SEARCH_INDEXES = ("card_search_grams", "card_search_trgm")


def fetch(sql: str, params=None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def execute(sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql)


def plan_without_seqscan(query: str) -> str:
    """Return the EXPLAIN of the page `card_search(query)` gives, sequential scans disabled.

    Cards loaded after CREATE INDEX wait in each GIN index's pending list (fastupdate) until
    (auto)vacuum merges them; the planner prices a long pending list as a slow index, so the
    list is merged first, as autovacuum would on a live database.
    """
    for name in SEARCH_INDEXES:
        fetch("SELECT gin_clean_pending_list(%s::regclass)", [name])
    execute("SET LOCAL enable_seqscan = off")
    return card_search(query=query)[:50].explain()


@postgresql_only
@pytest.mark.django_db
def test_search_indexes_exist_after_migration():
    rows = dict(
        fetch(
            "SELECT indexname, indexdef FROM pg_indexes "
            "WHERE tablename = 'catalog_card' AND indexname = ANY(%s)",
            [list(SEARCH_INDEXES)],
        )
    )
    assert set(rows) == set(SEARCH_INDEXES)
    assert "USING gin (search_text gin_trgm_ops)" in rows["card_search_trgm"]
    assert "USING gin (search_grams jsonb_path_ops)" in rows["card_search_grams"]


@postgresql_only
@pytest.mark.django_db
def test_database_ctype_lets_pg_trgm_see_japanese():
    # Under a non-UTF-8 ctype (e.g. "C") pg_trgm drops every non-ASCII character, so
    # Japanese text gets no trigrams and the index cannot narrow a Japanese search.
    ((ctype, trigrams),) = fetch(
        "SELECT datctype, show_trgm('鈴木 ドリブル') FROM pg_database "
        "WHERE datname = current_database()"
    )
    assert trigrams, f"pg_trgm sees no Japanese under ctype {ctype!r}; use a UTF-8 ctype"


@postgresql_only
@pytest.mark.django_db
@pytest.mark.parametrize("query", ["鈴木", "鈴"])
def test_planner_can_use_the_gram_index_for_one_or_two_characters(query):
    assert Card.objects.filter(search_text__contains=query).exists()
    plan = plan_without_seqscan(query)
    assert "Bitmap Index Scan on card_search_grams" in plan, plan


@postgresql_only
@pytest.mark.django_db
@pytest.mark.parametrize("query", ["ドリブル", "鈴木 大"])
def test_planner_can_use_the_trigram_index_for_three_characters_or_more(query):
    assert card_search(query=f'"{query}"').exists()
    plan = plan_without_seqscan(f'"{query}"')
    assert "Bitmap Index Scan on card_search_trgm" in plan, plan
    assert "search_grams" not in plan  # 3+ characters: no gram condition, trigrams alone


# --- the API ---------------------------------------------------------------------------------

LIST_REQUESTS = [
    {},
    {"q": "pos:FW shoot>=7"},
    {"q": "鈴"},
    {"q": "鈴木"},
    {"q": "ドリブル"},
    {"q": "suzuki"},
    {"q": "set:BS kind:event"},
    {"q": "team:鹿島 order:-shoot"},
    {"q": "pos:MF", "page": "2"},
]


@pytest.mark.django_db
@pytest.mark.parametrize("params", LIST_REQUESTS, ids=lambda p: " ".join(p.values()) or "all")
def test_card_list_needs_three_queries_whatever_the_search_and_one_when_cached(client, params):
    # The catalog version (the cache key), the count, and the page (teams joined, not fetched
    # per card); a repeated request only reads the version.
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/api/cards/", params, HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response.json()["results"], params
    assert len(captured.captured_queries) == 3, [q["sql"] for q in captured.captured_queries]
    with CaptureQueriesContext(connection) as captured:
        again = client.get("/api/cards/", params, HTTP_ACCEPT="application/json")
    assert again.json() == response.json()
    assert len(captured.captured_queries) == 1
