"""Catalog pages render in English and Japanese, show sample marks, never 500 on bad input."""

import pytest
from django.utils import translation

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["en", "ja"])
def lang_client(request, client):
    client.cookies["django_language"] = request.param
    return client, request.param


def test_home_lists_the_sets_and_products(lang_client):
    client, lang = lang_client
    html = client.get("/").content.decode()
    assert "2000チャンピオンシップデッキ" in html
    assert "¥1500" in html or "1500" in html
    assert "sample" in html.lower() or "サンプル" in html


def test_set_page_lists_its_cards(lang_client):
    client, _ = lang_client
    response = client.get("/sets/JP/")
    assert response.status_code == 200
    assert response.content.decode().count('class="badge sample"') == 93


def test_card_page_shows_stats_and_the_same_persons_other_cards(client):
    from django.db.models import Count

    from catalog.models import Card

    person = (
        Card.objects.exclude(person="")
        .values("person")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .order_by("person")
        .first()["person"]
    )
    first, second = Card.objects.filter(person=person)[:2]
    html = client.get(f"/cards/{first.id}/").content.decode()
    assert second.id in html
    assert "not an official" in html


def test_card_name_follows_the_language(client):
    from catalog.models import Card

    card = Card.objects.get(id="BS-001")
    client.cookies["django_language"] = "ja"
    assert f"<h1>{card.name_ja}" in client.get("/cards/BS-001/").content.decode()
    client.cookies["django_language"] = "en"
    assert f"<h1>{card.name}" in client.get("/cards/BS-001/").content.decode()


def test_japanese_ui_is_translated(client):
    client.cookies["django_language"] = "ja"
    html = client.get("/cards/").content.decode()
    assert "カード検索" in html


def test_search_page_finds_cards_and_paginates(client):
    response = client.get("/cards/", {"q": "kind:player"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'rel="next"' in html


def test_search_page_form_controls_work_without_syntax(client):
    html = client.get("/cards/", {"set": "JP", "kind": "goalkeeper"}).content.decode()
    assert "5 cards" in html


def test_a_bad_query_gets_a_message_not_a_500(client):
    response = client.get("/cards/", {"q": "(pos:FW"})
    assert response.status_code == 400
    assert "Cannot read this query" in response.content.decode()


def test_htmx_requests_get_only_the_results_fragment(client):
    html = client.get("/cards/", {"q": "set:BS"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in html
    assert "239 cards" in html


def test_language_switch_sets_the_language(client):
    response = client.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    assert response.status_code == 302
    with translation.override("ja"):
        assert "セット" in client.get("/").content.decode()
