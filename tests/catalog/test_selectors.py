"""The card-list statement: one query a page, prepared on PostgreSQL from its second run."""

from types import SimpleNamespace

import pytest

from catalog import selectors
from catalog.selectors import SearchStatement, _run


class RecordingCursor:
    """A cursor that records what it is asked to run and answers one row."""

    def __init__(self):
        self.sql = []
        self.description = None

    def execute(self, sql, params=None):
        self.sql.append(sql)
        self.description = None if sql.startswith(("DEALLOCATE", "PREPARE")) else ("row",)

    def nextset(self):
        self.description = ("row",)
        return True

    def fetchone(self):
        return (3, '{"id":"BS-001"}')


class DriverConnection:
    """Stands for a psycopg connection: the prepared statements belong to one of these."""


@pytest.fixture
def pg_connection(monkeypatch):
    fake = SimpleNamespace(connection=DriverConnection())
    monkeypatch.setattr(selectors, "connection", fake)
    return fake


def statement(name: str) -> SearchStatement:
    return SearchStatement("SELECT %s", (1,), name=name, literal="SELECT 1")


def test_a_statement_seen_once_runs_as_it_is_and_is_prepared_when_it_comes_back(pg_connection):
    cursor, search = RecordingCursor(), statement("card_search_a")
    assert _run(cursor, search) == (3, '{"id":"BS-001"}')
    assert cursor.sql == ["SELECT 1"]
    _run(cursor, search)
    assert cursor.sql[-1] == "PREPARE card_search_a AS SELECT 1; EXECUTE card_search_a"
    _run(cursor, search)
    assert cursor.sql[-1] == "EXECUTE card_search_a"


def test_the_oldest_prepared_statement_is_deallocated_when_a_connection_holds_too_many(
    pg_connection, monkeypatch
):
    monkeypatch.setattr(selectors, "PREPARED_PER_CONNECTION", 2)
    cursor = RecordingCursor()
    searches = [statement(f"card_search_{i}") for i in range(3)]
    for search in searches:
        _run(cursor, search)
        _run(cursor, search)
    assert cursor.sql[-1] == (
        "DEALLOCATE card_search_0; PREPARE card_search_2 AS SELECT 1; EXECUTE card_search_2"
    )
    _run(cursor, searches[0])  # deallocated: prepared again
    assert cursor.sql[-1].endswith("PREPARE card_search_0 AS SELECT 1; EXECUTE card_search_0")


def test_a_new_database_connection_prepares_again(pg_connection):
    cursor, search = RecordingCursor(), statement("card_search_b")
    _run(cursor, search)
    _run(cursor, search)
    pg_connection.connection = DriverConnection()  # reconnected: the server forgot everything
    _run(cursor, search)
    assert cursor.sql[-1] == "PREPARE card_search_b AS SELECT 1; EXECUTE card_search_b"


def test_sqlite_statements_run_with_their_parameters(pg_connection):
    cursor = RecordingCursor()
    _run(cursor, SearchStatement("SELECT %s", (1,)))
    _run(cursor, SearchStatement("SELECT %s", (1,)))
    assert cursor.sql == ["SELECT %s", "SELECT %s"]
