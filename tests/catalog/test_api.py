"""The catalog API contract: fields, pagination, the search syntax, JSON error objects."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

CARD_FIELDS = {
    "id",
    "name",
    "name_ja",
    "name_kana",
    "set",
    "number",
    "kind",
    "position",
    "person",
    "team",
    "shoot",
    "keep",
    "defense",
    "effect",
    "effect_text",
    "rarity",
    "is_sample",
    "status",
    "source",
}


def test_sets_list_in_release_order_with_products_and_counts(client):
    data = client.get("/api/sets/").json()
    assert [s["code"] for s in data] == ["CD00", "BS", "2ND", "CD01", "02", "JP"]
    basic = data[1]
    assert basic["released"] == "2001-06"
    assert basic["card_count"] == 239
    assert {p["kind"] for p in basic["products"]} == {"starter", "booster"}


def test_set_detail_accepts_any_case(client):
    assert client.get("/api/sets/jp/").json()["name"] == "2002's JAPAN"
    assert client.get("/api/sets/XX/").json() == {
        "message": "No CardSet matches the given query.",
        "errors": [],
    }


def test_card_list_is_paginated_with_the_documented_fields(client):
    data = client.get("/api/cards/").json()
    assert set(data) == {"count", "next", "previous", "results"}
    assert data["count"] == 715
    assert set(data["results"][0]) == CARD_FIELDS
    assert all(card["is_sample"] for card in data["results"])
    second = client.get(data["next"].replace("http://testserver", "")).json()
    assert second["previous"] is not None


def test_card_list_uses_the_search_syntax(client):
    data = client.get("/api/cards/", {"q": "set:BS kind:event"}).json()
    assert data["count"] == 31
    assert {c["kind"] for c in data["results"]} == {"event"}
    assert all(c["position"] is None and c["effect"] for c in data["results"])


def test_an_event_gives_its_effect_as_clauses_and_in_words_in_both_languages(client):
    card = client.get("/api/cards/", {"q": "set:BS kind:event"}).json()["results"][0]
    assert card["effect_text"]["en"].startswith(("Draw", "Your", "Opponent"))
    assert (
        "このプレイフェイズ中" in card["effect_text"]["ja"] or "枚引く" in card["effect_text"]["ja"]
    )
    player = client.get("/api/cards/", {"q": "kind:player"}).json()["results"][0]
    assert player["effect"] is None and player["effect_text"] is None


def test_the_api_finds_a_card_by_id_and_by_reading(client):
    assert [c["id"] for c in client.get("/api/cards/", {"q": "bs-14"}).json()["results"]] == [
        "BS-014"
    ]
    data = client.get("/api/cards/", {"q": "ｽｽﾞｷ"}).json()
    assert data["count"] and all("すずき" in c["name_kana"] for c in data["results"])


def test_a_bad_query_is_a_400_naming_the_problem(client):
    response = client.get("/api/cards/", {"q": "shoot>=abc"})
    assert response.status_code == 400
    body = response.json()
    assert body["errors"][0]["field"] == "q" and "shoot" in body["errors"][0]["message"]
    assert "shoot" in body["message"]


def test_the_serializer_writes_the_fields_its_schema_documents_in_their_order(client):
    from catalog.api import CardSerializer

    documented = list(CardSerializer().fields)
    for query in ["kind:player", "kind:event", "kind:goalkeeper"]:
        card = client.get("/api/cards/", {"q": query}).json()["results"][0]
        assert list(card) == documented
    assert set(documented) == CARD_FIELDS


def test_a_card_in_the_list_and_alone_is_the_card_in_the_catalog(client):
    from catalog.effects import effect_texts
    from catalog.models import Card

    player = Card.objects.select_related("team").filter(kind="player", team__isnull=False)[0]
    event = Card.objects.filter(kind="event").first()
    expected = {
        player.id: {
            "id": player.id,
            "name": player.name,
            "name_ja": player.name_ja,
            "name_kana": player.name_kana,
            "set": player.card_set_id,
            "number": player.number,
            "kind": "player",
            "position": player.position,
            "person": player.person,
            "team": {
                "code": player.team.code,
                "name": player.team.name,
                "name_ja": player.team.name_ja,
            },
            "shoot": player.shoot,
            "keep": player.keep,
            "defense": player.defense,
            "effect": None,
            "effect_text": None,
            "rarity": player.rarity,
            "is_sample": True,
            "status": "sample",
            "source": player.source,
            "printings": [
                {
                    "code": player.id,
                    "set": player.card_set_id,
                    "number": player.number,
                    "kind": "first",
                    "label": "",
                    "notes": "",
                    "is_sample": True,
                }
            ],
        },
    }
    # A card alone adds its printings and its accepted errata and rulings (none here).
    printings = expected[player.id].pop("printings")
    alone = client.get(f"/api/cards/{player.id}/").json()
    assert alone == {**expected[player.id], "printings": printings, "errata": [], "rulings": []}
    assert client.get("/api/cards/", {"q": f"id:{player.id}"}).json()["results"] == [
        expected[player.id]
    ]
    shown = client.get(f"/api/cards/{event.id.lower()}/").json()
    assert (shown["position"], shown["person"], shown["team"]) == (None, None, None)
    assert shown["effect"] == event.effect and shown["effect_text"] == effect_texts(event.effect)


def test_card_detail(client):
    card = client.get("/api/cards/bs-001/").json()
    assert card["id"] == "BS-001"
    assert card["set"] == "BS"
    assert client.get("/api/cards/BS-999/").status_code == 404


def test_the_cache_keeps_answers_apart_by_address(client):
    first = client.get("/api/cards/", {"q": "pos:MF"}).json()
    second = client.get("/api/cards/", {"q": "pos:MF", "page": 2}).json()
    assert first["results"] != second["results"]
    assert client.get("/api/cards/", {"q": "pos:MF"}).json() == first
    assert client.get("/api/cards/", {"q": "pos:DF"}).json()["results"] != first["results"]


def test_card_list_pages_count_and_links_like_page_number_pagination(client):
    first = client.get("/api/cards/", {"q": "kind:player"}).json()
    total = first["count"]
    assert first["previous"] is None and "page=2" in first["next"]
    last_number = -(-total // 50)
    last = client.get("/api/cards/", {"q": "kind:player", "page": "last"}).json()
    assert last["count"] == total and last["next"] is None
    assert len(last["results"]) == total - (last_number - 1) * 50
    second = client.get("/api/cards/", {"q": "kind:player", "page": 2}).json()
    assert "page" not in second["previous"].split("?", 1)[1]
    assert client.get("/api/cards/", {"page": 999}).status_code == 404
    assert client.get("/api/cards/", {"page": "x"}).status_code == 404
    assert client.get("/api/cards/", {"q": "zzqx"}).json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }


def test_openapi_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/cards/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content
    assert b"cdn" not in docs.content.lower()


def test_a_catalog_change_is_seen_at_once_despite_the_cache(client):
    from catalog.models import Card

    first = client.get("/api/cards/", {"q": "set:JP kind:goalkeeper"}).json()
    card = Card.objects.get(id=first["results"][0]["id"])
    card.defense = 42
    card.save()
    second = client.get("/api/cards/", {"q": "set:JP kind:goalkeeper"}).json()
    assert second["results"][0]["defense"] == 42


def test_with_the_cache_off_a_repeated_search_still_reads_the_live_catalog(client, settings):
    from catalog.models import Card

    settings.SEARCH_CACHE = False
    query = {"q": "set:JP kind:goalkeeper"}
    first = client.get("/api/cards/", query).json()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get("/api/cards/", query).json() == first
    assert len(ctx.captured_queries) == 2  # the count and the page; no version
    Card.objects.filter(id=first["results"][0]["id"]).update(defense=41)
    assert client.get("/api/cards/", query).json()["results"][0]["defense"] == 41


def test_browsers_get_the_browsable_api_with_the_same_cards(client):
    html = client.get("/api/cards/", {"q": "id:BS-014"}, HTTP_ACCEPT="text/html")
    assert html.status_code == 200 and b"BS-014" in html.content
    assert html["Content-Type"].startswith("text/html")
    via_drf = client.get("/api/cards/", {"q": "set:CD00", "format": "json"}).json()
    assert via_drf == client.get("/api/cards/", {"q": "set:CD00"}).json()
    bad = client.get("/api/cards/", {"q": "shoot>=abc", "format": "json"})
    assert bad.status_code == 400
    assert bad.json() == client.get("/api/cards/", {"q": "shoot>=abc"}).json()
    assert client.get("/api/cards/", {"page": 999, "format": "json"}).json() == {
        "message": "Invalid page.",
        "errors": [],
    }


def test_the_card_list_shows_each_card_as_it_now_is_after_any_write(client, settings):
    """Nothing about a card is stored for the list: a card changed by save, a bulk write,
    QuerySet.update or raw SQL, and a renamed team, show as they now are (cache off; with the
    cache on, every write path the app uses bumps the catalog's version)."""
    from catalog.models import Card, Team

    settings.SEARCH_CACHE = False

    def shown(query):
        return client.get("/api/cards/", {"q": query}).json()["results"]

    card = Card.objects.get(id="BS-014")
    card.name = 'Jun "the wall" Shimizu\\\n\t'
    card.save()
    assert shown("id:BS-014")[0]["name"] == card.name
    Card.objects.filter(id="BS-014").update(keep=9, rarity="SR", is_sample=False)
    assert [(c["keep"], c["rarity"], c["status"]) for c in shown("id:BS-014")] == [
        (9, "SR", "real")
    ]
    with connection.cursor() as cursor:
        cursor.execute("UPDATE catalog_card SET name_kana = 'かべ' WHERE id = 'BS-014'")
    assert shown("id:BS-014")[0]["name_kana"] == "かべ"
    event = Card.objects.filter(kind="event").first()
    Card.objects.bulk_update([Card(id=event.id, effect="draw:2")], ["effect"])
    assert shown(f"id:{event.id}")[0]["effect_text"]["en"] == "Draw 2 cards."
    team = Team.objects.filter(cards__isnull=False).first()
    Team.objects.filter(code=team.code).update(name="Renamed FC", name_ja="改名")
    for card in shown(f"team:{team.code}"):
        assert card["team"] == {"code": team.code, "name": "Renamed FC", "name_ja": "改名"}


@pytest.mark.parametrize(
    ("query", "page"),
    [
        ("zzqx", 1),  # zero
        ("set:BS kind:event", 1),  # one short page
        ("pos:MF", 1),  # a full page and more
        ("pos:MF", "last"),  # the short last page
        ("kind:player", 3),  # a middle page of many
        ("", 1),  # every card
    ],
)
def test_the_card_list_count_is_exact_on_every_page(client, settings, query, page):
    from catalog.search.selectors import card_search

    settings.SEARCH_CACHE = False
    total = card_search(query=query).count()
    data = client.get("/api/cards/", {"q": query, "page": page}).json()
    assert data["count"] == total
    if page == "last":
        page = max(1, -(-total // 50))
        assert total % 50 and total > 50  # a short page after full ones
    assert len(data["results"]) == max(0, min(50, total - (page - 1) * 50))
    assert (data["next"] is None) == (page * 50 >= total)
