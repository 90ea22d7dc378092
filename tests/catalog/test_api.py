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


def test_card_detail(client):
    card = client.get("/api/cards/bs-001/").json()
    assert card["id"] == "BS-001"
    assert card["set"] == "BS"
    assert client.get("/api/cards/BS-999/").status_code == 404


def test_card_list_query_count_is_constant(client):
    def count(page_size_query):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/api/cards/", {"q": page_size_query}).status_code == 200
        return len(ctx.captured_queries)

    # The catalog version (the cache key) and one statement for the page and its count.
    assert count("") == count("kind:player") == count("pos:MF") == 2
    assert count("set:CD00 kind:event") == count("id:BS-014") == 2


@pytest.mark.parametrize(
    "query", ["", "kind:event", "team:鹿島 order:-shoot", "ｽｽﾞｷ", "set:JP kind:goalkeeper"]
)
def test_the_card_list_shows_cards_exactly_as_the_card_serializer_does(client, query):
    from catalog.api import CardSerializer
    from catalog.selectors import card_search

    results = client.get("/api/cards/", {"q": query}).json()["results"]
    cards = card_search(query=query)[: len(results)]
    assert results == CardSerializer(cards, many=True).data


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
    assert len(ctx.captured_queries) == 1  # the page and its count; no version
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


def _api_cards_match_the_serializer(client, query: str) -> list[dict]:
    from catalog.api import CardSerializer
    from catalog.selectors import card_search

    results = client.get("/api/cards/", {"q": query}).json()["results"]
    assert results == CardSerializer(card_search(query=query)[: len(results)], many=True).data
    return results


def test_the_stored_card_json_follows_every_write_path_and_the_team_is_live(client, settings):
    """Card.api_head/api_tail are written by a database trigger (migration 0008), so a card
    changed by save, a bulk write, QuerySet.update or raw SQL is shown as it now is, and a
    renamed team shows its new name on every card at once."""
    from catalog.models import Card, Team

    settings.SEARCH_CACHE = False
    card = Card.objects.get(id="BS-014")
    card.name, card.source = 'Jun "the wall" Shimizu\\\n\t', "my own card"
    card.save()
    assert _api_cards_match_the_serializer(client, "id:BS-014")[0]["name"] == card.name
    Card.objects.filter(id="BS-014").update(keep=9, rarity="SR", is_sample=False)
    shown = _api_cards_match_the_serializer(client, "id:BS-014")[0]
    assert (shown["keep"], shown["rarity"], shown["status"]) == (9, "SR", "real")
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE catalog_card SET name_kana = 'かべ', source = '' WHERE id = 'BS-014'"
        )
    shown = _api_cards_match_the_serializer(client, "id:BS-014")[0]
    assert (shown["name_kana"], shown["source"]) == ("かべ", "")
    event = Card.objects.filter(kind="event").first()
    Card.objects.bulk_update([Card(id=event.id, effect="draw:2")], ["effect"])
    shown = _api_cards_match_the_serializer(client, f"id:{event.id}")[0]
    assert shown["effect"] == "draw:2" and shown["effect_text"]["en"] == "Draw 2 cards."
    team = Team.objects.filter(cards__isnull=False).first()
    Team.objects.filter(code=team.code).update(name="Renamed FC", name_ja="改名")
    for shown in _api_cards_match_the_serializer(client, f"team:{team.code}"):
        assert shown["team"] == {"code": team.code, "name": "Renamed FC", "name_ja": "改名"}
    clone = Card.objects.get(id="BS-001")
    clone.pk, clone.number, clone.name = "BS-900", 900, "Bulk Created"
    Card.objects.bulk_create([clone])
    assert _api_cards_match_the_serializer(client, "id:BS-900")[0]["name"] == "Bulk Created"


def test_the_unfiltered_card_count_is_kept_exact_on_every_write_path(client, settings):
    """The unfiltered list's count is CardTotal's row, kept by database triggers (migration
    0009): exact after save, bulk inserts (also with conflicts ignored), deletes of one card
    and of a query set, raw SQL, TRUNCATE, and with the row missing (it is put back)."""
    from catalog.models import Card, CardTotal

    settings.SEARCH_CACHE = False

    def check():
        total = Card.objects.count()
        assert client.get("/api/cards/").json()["count"] == total
        assert client.get("/api/cards/", {"page": "last"}).json()["count"] == total
        assert CardTotal.objects.values_list("cards", flat=True).first() in (total, None)
        return total

    start = check()
    card = Card.objects.get(id="BS-001")
    card.pk, card.number = "BS-901", 901
    card.save()
    assert check() == start + 1
    clones = []
    for number in (902, 903, 904):
        clone = Card.objects.get(id="BS-001")
        clone.pk, clone.number = f"BS-{number}", number
        clones.append(clone)
    Card.objects.bulk_create(clones)
    assert check() == start + 4
    Card.objects.bulk_create(clones[:1], ignore_conflicts=True)  # inserts nothing
    assert check() == start + 4
    Card.objects.filter(id="BS-901").update(name="Updated")  # no insert, no delete
    Card.objects.get(id="BS-902").delete()
    assert check() == start + 3
    Card.objects.filter(id__in=["BS-903", "BS-904"]).delete()
    assert check() == start + 1
    columns = [field.column for field in Card._meta.concrete_fields]
    values = [{"id": "'BS-950'", "number": "950"}.get(column, f'"{column}"') for column in columns]
    names = ", ".join(f'"{column}"' for column in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO catalog_card ({names}) SELECT {', '.join(values)} "
            "FROM catalog_card WHERE id = 'BS-001'"
        )
        assert check() == start + 2
        cursor.execute("DELETE FROM catalog_card WHERE id IN ('BS-901', 'BS-950')")
        assert check() == start
        cursor.execute("DELETE FROM catalog_cardtotal")  # e.g. a flush: readers count
        assert check() == start
        card.save(force_insert=True)  # the next write puts the row back, recounted
        assert CardTotal.objects.get().cards == start + 1 == check()
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending FK checks
            cursor.execute("TRUNCATE catalog_card CASCADE")
            assert check() == 0
            card.card_set.save()
            card.save(force_insert=True)
            assert CardTotal.objects.get().cards == 1 == check()


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
    from catalog.selectors import card_search

    settings.SEARCH_CACHE = False
    total = card_search(query=query).count()
    data = client.get("/api/cards/", {"q": query, "page": page}).json()
    assert data["count"] == total
    if page == "last":
        page = max(1, -(-total // 50))
        assert total % 50 and total > 50  # a short page after full ones
    assert len(data["results"]) == max(0, min(50, total - (page - 1) * 50))
    assert (data["next"] is None) == (page * 50 >= total)


@pytest.mark.django_db(transaction=True)
def test_a_prepared_search_through_libpq_answers_as_the_cursor_does(client, settings):
    """On PostgreSQL a search prepared on the connection runs straight through libpq outside
    transactions (catalog.selectors._execute_prepared); it gives the cursor's answer, sees
    a change at once, and its errors are Django's database errors."""
    from django.db import DatabaseError

    from catalog import selectors
    from catalog.models import Card
    from catalog.services import catalog_load

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    catalog_load()  # an earlier transactional test may have flushed the session's catalog
    settings.SEARCH_CACHE = False
    taken = []
    original = selectors._execute_prepared

    def spy(statement):
        done = original(statement)
        taken.append(done is not None)
        return done

    selectors._execute_prepared = spy
    selectors._STATEMENTS.clear()  # and what earlier tests prepared on this connection
    selectors._PREPARED.clear()
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    try:
        for query in ["pos:MF", "zzqx", "set:BS kind:event"]:
            answers = [client.get("/api/cards/", {"q": query}).json() for _ in range(3)]
            assert answers[0] == answers[1] == answers[2]  # literal, prepared, libpq
            with CaptureQueriesContext(connection):  # logged: through the cursor
                assert client.get("/api/cards/", {"q": query}).json() == answers[0]
        assert taken == [False, False, True, False] * 3
        card_id = answers[0]["results"][0]["id"]
        Card.objects.filter(id=card_id).update(rarity="XR")
        assert (
            client.get("/api/cards/", {"q": "set:BS kind:event"}).json()["results"][0]["rarity"]
            == "XR"
        )
        with connection.cursor() as cursor:
            cursor.execute("DEALLOCATE ALL")  # the server forgot them behind our back
        with pytest.raises(DatabaseError):
            selectors.card_search_page(query="pos:MF", offset=0, limit=50)
        assert connection.is_usable()
    finally:
        selectors._execute_prepared = original
        selectors._PREPARED.clear()
