"""Database down → 503 (cardsite/web/database_outage.py): while the database cannot be reached,
pages and the API answer 503 with Retry-After in the usual error shape and the visitor's
language, the outage is logged once, and a write cut off half-way leaves nothing saved."""

import json
import logging
import re
import socket

import pytest
from django.db import OperationalError, connection
from django.test import Client

from cardsite.web import database_outage
from decks.models import Deck, DeckVersion

LAYOUT = 'class="site-header"'
PAGE_WORDS = {"en": "Back in a moment", "ja": "しばらくお待ちください"}
API_WORDS = {"en": "The database is unavailable", "ja": "データベースが使えません"}
API_DECK = {"name": "Cut off"}
FORM_DECK = {"name": "Cut off", "visibility": "private", "description": "", "draft": "{}"}
WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


@pytest.fixture(autouse=True)
def fresh_outage_log(monkeypatch):
    """Each test starts with no outage in progress (an earlier test may have left one open)."""
    monkeypatch.setattr(database_outage, "outage_log", database_outage.OutageLog())


def refuse_every_query(execute, sql, params, many, context):
    raise OperationalError("server closed the connection unexpectedly")


def refuse_after_writes(allowed: int):
    """An execute wrapper that lets `allowed` writes through, then loses the database."""
    writes = 0

    def wrapper(execute, sql, params, many, context):
        nonlocal writes
        if WRITES.match(sql):
            writes += 1
            if writes > allowed:
                raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    return wrapper


def client_in(language: str, user=None) -> Client:
    # raise_request_exception=False: an outage met in a middleware reaches the 503 through
    # Django's handler500, which the test client would otherwise raise again in the test.
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)  # before the outage: this writes the session
    client.cookies["django_language"] = language
    return client


def assert_page_503(response, language: str) -> None:
    body = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == str(database_outage.RETRY_AFTER_SECONDS)
    assert response["Content-Type"].startswith("text/html")
    assert LAYOUT in body and PAGE_WORDS[language] in body and f'lang="{language}"' in body


def assert_api_503(response, language: str) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(database_outage.RETRY_AFTER_SECONDS)
    body = response.json()
    assert set(body) == {"message", "errors"} and body["errors"] == []
    assert API_WORDS[language] in body["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("signed_in", [False, True], ids=["visitor", "signed-in"])
def test_a_page_is_a_503_page_in_the_layout(alice, language, signed_in):
    # Signed in, the first query is the session's (the authentication middleware's user).
    client = client_in(language, alice if signed_in else None)
    with connection.execute_wrapper(refuse_every_query):
        response = client.get("/decks/")
    assert_page_503(response, language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("path", ["/api/decks/", "/api/sets/", "/api/cards/?q=team:kashima"])
def test_an_api_list_is_a_json_503(alice, path, language):
    # /api/cards/ is a plain Django view for JSON clients; the others are DRF's.
    client = client_in(language, alice)
    with connection.execute_wrapper(refuse_every_query):
        response = client.get(path)
    assert_api_503(response, language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_api_write_cut_off_half_way_is_a_503_and_saves_nothing(alice, language):
    client = client_in(language, alice)
    # The deck's row is written, then the database goes away before its first version.
    with connection.execute_wrapper(refuse_after_writes(1)):
        response = client.post("/api/decks/", API_DECK, content_type="application/json")
    assert_api_503(response, language)
    assert not Deck.objects.filter(name="Cut off").exists()
    assert not DeckVersion.objects.filter(name="Cut off").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_form_post_cut_off_half_way_is_a_503_page_and_saves_nothing(alice, language):
    client = client_in(language, alice)
    with connection.execute_wrapper(refuse_after_writes(1)):
        response = client.post("/decks/new/", FORM_DECK)
    assert_page_503(response, language)
    assert not Deck.objects.filter(name="Cut off").exists()


@pytest.mark.django_db
def test_the_same_writes_save_when_the_database_answers(alice):
    # The requests above are ones that save: their 503s are the outage's, not the input's.
    client = client_in("en", alice)
    assert client.post("/api/decks/", API_DECK, content_type="application/json").status_code == 201
    assert client.post("/decks/new/", {**FORM_DECK, "name": "Saved"}).status_code == 302
    for name in ("Cut off", "Saved"):
        assert Deck.objects.get(name=name).versions.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_outage_in_the_session_middleware_is_a_503_too(alice, language):
    # Logging in saves the session on the way out, in the session middleware, after the view.
    def refuse_session_updates(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith('UPDATE "DJANGO_SESSION"'):
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    client = client_in(language)
    with connection.execute_wrapper(refuse_session_updates):
        response = client.post(
            "/accounts/login/", {"username": "alice", "password": "correct-horse-1"}
        )
    assert_page_503(response, language)


@pytest.mark.django_db
def test_an_error_page_that_needs_the_user_is_a_503_during_an_outage(alice):
    # The 404 page shows the user's menu: its lookup of the session fails in Django's handler.
    client = client_in("ja", alice)
    with connection.execute_wrapper(refuse_every_query):
        assert_page_503(client.get("/no-such-page/"), "ja")
        assert_api_503(client.get("/api/no-such-thing/"), "ja")


@pytest.mark.django_db
def test_an_outage_is_logged_once_not_per_request(alice, caplog):
    client = client_in("en", alice)
    with caplog.at_level(logging.INFO), connection.execute_wrapper(refuse_every_query):
        for path in ("/decks/", "/api/decks/", "/no-such-page/", "/decks/"):
            assert client.get(path).status_code == 503
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in records] == ["cardsite.errors"]
    assert records[0].getMessage() == (
        "Database unavailable (OperationalError: server closed the connection unexpectedly); "
        "answering 503 until it answers again"
    )
    assert records[0].exc_info is None
    assert database_outage.outage_log.answered == 4


def test_an_outage_is_one_line_when_it_starts_and_one_when_a_new_connection_ends_it(caplog):
    log = database_outage.outage_log
    with caplog.at_level(logging.WARNING):
        log.failed(OperationalError("connection refused\n\tIs the server running?"))
        log.failed(OperationalError("connection refused"))
        database_outage._database_answers(sender=None, connection=None)
        database_outage._database_answers(sender=None, connection=None)  # all is well: quiet
    assert [r.getMessage() for r in caplog.records] == [
        "Database unavailable (OperationalError: connection refused Is the server running?); "
        "answering 503 until it answers again",
        "Database answers again after 0 s; 2 requests were answered 503",
    ]
    assert log.since is None


def test_the_503_page_needs_neither_the_database_nor_a_request():
    # No django_db mark: any query would raise, and the page would fall back to plain text.
    from django.utils import translation

    from cardsite.web.error_pages import standalone_page

    with translation.override("ja"):
        response = standalone_page("503.html", status=503, fallback="plain")
    assert LAYOUT in response.content.decode() and PAGE_WORDS["ja"] in response.content.decode()


@pytest.mark.django_db
def test_other_database_errors_stay_500s(alice_client, monkeypatch):
    from django.db import IntegrityError

    def broken(**kwargs):
        raise IntegrityError("duplicate key")

    monkeypatch.setattr("decks.api.deck_create", broken)
    response = alice_client.post("/api/decks/", {"name": "x"}, content_type="application/json")
    assert response.status_code == 500 and "Retry-After" not in response


@pytest.fixture
def closed_port():
    """A local port that refuses connections: bound, never listening, held for the test."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.mark.django_db(transaction=True)
def test_a_real_outage_and_its_end(alice, closed_port, tmp_path, caplog):
    """The database's address points nowhere for a while: the connection is really refused
    (PostgreSQL: a closed port; SQLite: a file in a folder that does not exist)."""
    working = dict(connection.settings_dict)
    if connection.vendor == "postgresql":
        nowhere = {"HOST": "127.0.0.1", "PORT": str(closed_port)}
        refusal = "Connection refused"
    else:
        nowhere = {"NAME": str(tmp_path / "no-such-folder" / "db.sqlite3")}
        refusal = "unable to open database file"
    client = client_in("ja", alice)
    connection.close()
    connection.settings_dict.update(nowhere)
    try:
        with caplog.at_level(logging.WARNING, logger="cardsite.errors"):
            page = client.get("/decks/")
            api = client.post(
                "/api/decks/", json.dumps({"name": "x"}), content_type="application/json"
            )
    finally:
        connection.close()
        connection.settings_dict.update(working)
    assert_page_503(page, "ja")
    assert_api_503(api, "ja")
    assert database_outage.outage_log.answered == 2
    with caplog.at_level(logging.WARNING, logger="cardsite.errors"):
        assert client.get("/decks/").status_code == 200
    messages = [r.getMessage() for r in caplog.records if r.name == "cardsite.errors"]
    assert len(messages) == 2
    assert messages[0].startswith("Database unavailable (OperationalError: ")
    assert refusal in messages[0]
    assert re.fullmatch(
        r"Database answers again after \d+ s; 2 requests were answered 503", messages[1]
    )
