"""Error pages: 403, 404, 405 and 500 in the site's layout, in English and Japanese."""

import pytest
from django.test import Client
from django.utils import translation

from cardsite.web.error_pages import server_error

LAYOUT = 'class="site-header"'


def _client(user, language: str) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    client.cookies["django_language"] = language
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"), [("en", "Page not found"), ("ja", "ページが見つかりません")]
)
def test_an_unknown_address_is_a_404_page_in_the_layout(language, words):
    response = _client(None, language).get("/cards/NO-SUCH-CARD/")
    body = response.content.decode()
    assert response.status_code == 404
    assert LAYOUT in body and words in body and f'lang="{language}"' in body


@pytest.mark.parametrize(("language", "words"), [("en", "Not allowed"), ("ja", "権限がありません")])
def test_a_non_editor_on_the_review_queue_gets_a_403_page_in_the_layout(bob, language, words):
    response = _client(bob, language).get("/review/")
    body = response.content.decode()
    assert response.status_code == 403
    assert LAYOUT in body and words in body and "403 Forbidden" not in body


@pytest.mark.parametrize("path", ["/proposals/1/review/", "/collection/settings/"])
@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Nothing to show here"), ("ja", "ここに表示するものはありません")],
)
def test_a_get_on_a_post_only_address_is_a_405_page_with_a_link_back(bob, path, language, words):
    response = _client(bob, language).get(path, HTTP_REFERER="http://testserver/decks/")
    body = response.content.decode()
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert LAYOUT in body and words in body
    assert 'href="http://testserver/decks/"' in body


def test_the_405_page_links_back_only_to_this_site(bob):
    response = _client(bob, "en").get(
        "/collection/settings/", HTTP_REFERER="https://elsewhere.example/phish"
    )
    assert response.status_code == 405
    assert "elsewhere.example" not in response.content.decode()


def test_an_api_405_stays_json(alice_client):
    response = alice_client.delete("/api/cards/")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize(("language", "words"), [("en", "Server error"), ("ja", "サーバーエラー")])
def test_an_unexpected_error_is_a_500_page_in_the_layout(bob, monkeypatch, language, words):
    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("decks.views.deck_for_viewer", explode)
    response = _client(bob, language).get("/decks/anything/")
    body = response.content.decode()
    assert response.status_code == 500
    assert LAYOUT in body and words in body and "boom" not in body


def test_the_500_page_needs_neither_the_database_nor_a_request():
    # No django_db mark: any query would raise, and the page would fall back to plain text.
    with translation.override("ja"):
        response = server_error(None)
    body = response.content.decode()
    assert response.status_code == 500
    assert LAYOUT in body and "サーバーエラー" in body
