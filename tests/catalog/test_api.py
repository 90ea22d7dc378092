"""The catalog API contract: fields, pagination, the search syntax, JSON error objects."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

CARD_FIELDS = {
    "id",
    "name",
    "name_ja",
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
    "rarity",
    "is_sample",
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

    assert count("set:CD00") == count("") == count("kind:player")


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
