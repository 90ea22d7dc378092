"""Catalog pages render in English and Japanese, show sample marks, never 500 on bad input."""

import html

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


def test_the_home_page_asks_visitors_to_help_enter_the_real_cards(lang_client):
    client, lang = lang_client
    body = client.get("/").content.decode()
    assert "import_cards" not in body  # a command is for the README, not for visitors
    assert 'href="#progress"' in body and 'href="/cards/propose/"' in body
    words = "Help enter the real ones" if lang == "en" else "本物のカードの登録にご協力ください"
    assert words in body


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


# --- issue #10: zero results, set counts, card faces grid, effect words ------------------------


def test_a_search_that_finds_nothing_says_so_with_the_query(lang_client):
    client, lang = lang_client
    response = client.get("/cards/", {"q": "zzqx"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Type a query" not in html and "クエリを入力" not in html
    if lang == "en":
        assert "No cards match <code>zzqx</code>." in html
    else:
        assert "<code>zzqx</code> に一致するカードはありません。" in html


def test_a_search_of_filters_only_that_finds_nothing_says_so(client):
    html = client.get("/cards/", {"set": "JP", "kind": "event", "shoot_min": "5"}).content.decode()
    assert "No cards match <code>set:JP kind:event shoot&gt;=5</code>." in html


def test_the_set_page_counts_players_goalkeepers_and_events(client):
    from catalog.models import Card

    html = client.get("/sets/BS/").content.decode()
    counts = {
        kind: Card.objects.filter(card_set="BS", kind=kind).count()
        for kind in ("player", "goalkeeper", "event")
    }
    assert counts["player"] > 1 and counts["event"] > 1
    expected = (
        f"Players: {counts['player']} · Goalkeepers: {counts['goalkeeper']} · "
        f"Events: {counts['event']}"
    )
    assert expected in " ".join(html.split())


def test_the_team_header_is_hidden_with_the_team_cells_on_a_phone(client):
    html = client.get("/sets/BS/").content.decode()
    assert '<th class="team">' in html and '<td class="team">' in html


def test_the_grid_view_shows_card_faces_and_is_remembered(client):
    html = client.get("/cards/", {"q": "set:BS", "view": "grid"}).content.decode()
    assert html.count('class="card-face card-face-normal"') == 60
    assert client.cookies["card_view"].value == "grid"
    again = client.get("/sets/JP/").content.decode()  # no view parameter: the cookie decides
    assert again.count('class="card-face card-face-normal"') == 93
    assert "<table" not in again.split('class="view-switch"', 1)[1]
    client.get("/cards/", {"q": "set:BS", "view": "table"})
    assert "card-face-normal" not in client.get("/sets/JP/").content.decode()


def test_event_effects_read_as_words_in_tables_and_on_the_card_page(lang_client):
    from catalog.effects import effect_text
    from catalog.models import Card

    client, lang = lang_client
    card = Card.objects.filter(kind="event", effect__startswith="opp_").first()
    words = effect_text(card.effect, lang)
    table = html.unescape(client.get("/cards/", {"q": f"id:{card.id}"}).content.decode())
    assert words in table
    page = html.unescape(client.get(f"/cards/{card.id}/").content.decode())
    assert words in page and effect_text(card.effect, "ja" if lang == "en" else "en") in page
    assert f'<code class="small">{card.effect}</code>' in page
