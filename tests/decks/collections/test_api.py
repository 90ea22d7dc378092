"""The collection API: the whole collection (GET/PUT, all or nothing, every bad entry named by
index and field), one card's entries (GET/PUT/DELETE), a collection read by its share id, the
permission matrix (owner / other / anonymous × private / link / public), token auth, the
write throttle, hostile input (bounds, huge integers, NUL, deep JSON) and the schema."""

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cardsite.web.throttles import WriteRateThrottle
from decks.collections import selectors as sel
from decks.collections.services import collection_entry_set, collection_set_visibility
from decks.models import Collection, CollectionEntry

pytestmark = pytest.mark.django_db

URL = "/api/collection/"


def card_url(card_id: str) -> str:
    return f"/api/collection/cards/{card_id}/"


@pytest.fixture
def api(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    return client


@pytest.fixture
def bob_api(bob):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=bob).key}")
    return client


@pytest.fixture
def owned(alice):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=2, for_trade=1)
    collection_entry_set(owner=alice, card_id="BS-001", quantity=1, language="ja")
    collection_entry_set(owner=alice, card_id="BS-002", quantity=0, wanted=3)
    return alice


def rows(user) -> list[dict]:
    return sel.export_rows(user)


def put(client, url, body):
    return client.put(url, json.dumps(body), content_type="application/json")


def fields(response) -> set[str]:
    return {error["field"] for error in response.json()["errors"]}


# --- the whole collection --------------------------------------------------------------------


def test_reading_a_collection_never_saved_shows_it_empty_and_creates_nothing(api, alice):
    data = api.get(URL).json()
    assert data == {
        "owner": "alice",
        "visibility": "private",
        "share_id": None,
        "share_url": None,
        "copies": 0,
        "entries": [],
    }
    assert not Collection.objects.filter(owner=alice).exists()


def test_reading_the_collection_lists_every_entry_with_its_variant_and_marks(api, owned):
    data = api.get(URL).json()
    assert data["copies"] == 3 and data["visibility"] == "private"
    assert data["share_url"].endswith(f"/collection/s/{data['share_id']}/")
    assert data["entries"] == [
        {
            "card": "BS-001",
            "printing": "BS-001",
            "quantity": 2,
            "condition": "",
            "language": "",
            "for_trade": 1,
            "wanted": 0,
        },
        {
            "card": "BS-001",
            "printing": "BS-001",
            "quantity": 1,
            "condition": "",
            "language": "ja",
            "for_trade": 0,
            "wanted": 0,
        },
        {
            "card": "BS-002",
            "printing": "BS-002",
            "quantity": 0,
            "condition": "",
            "language": "",
            "for_trade": 0,
            "wanted": 3,
        },
    ]


def test_put_replaces_the_whole_collection_and_reads_back_the_same(api, owned):
    body = {
        "visibility": "public",
        "entries": [
            {"card": "bs-003", "quantity": 4, "condition": "mint", "language": "en"},
            {"card": "BS-004", "quantity": 2, "for_trade": 2},
            {"card": "BS-005", "quantity": 0, "wanted": 1},
            {"card": "BS-006", "quantity": 0},
        ],
    }
    response = put(api, URL, body)
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["visibility"] == "public" and data["copies"] == 6
    assert [(e["card"], e["quantity"]) for e in data["entries"]] == [
        ("BS-003", 4),
        ("BS-004", 2),
        ("BS-005", 0),
    ]
    assert data["entries"] == rows(owned) and api.get(URL).json() == data
    assert Collection.objects.get(owner=owned).visibility == "public"
    # What GET answers, PUT takes back unchanged.
    assert put(api, URL, {"entries": data["entries"]}).json() == data


def test_put_without_visibility_keeps_the_sharing_setting(api, owned):
    collection_set_visibility(owner=owned, visibility="link")
    assert put(api, URL, {"entries": []}).json()["visibility"] == "link"
    assert rows(owned) == [] and Collection.objects.get(owner=owned).visibility == "link"


def test_put_with_bad_entries_names_each_by_index_and_field_and_saves_nothing(api, owned):
    before = rows(owned)
    body = {
        "visibility": "public",
        "entries": [
            {"card": "BS-003", "quantity": 1},
            {"card": "BS-004", "quantity": 1000},
            {"card": "BS-999", "quantity": 1},
            {"card": "BS-003", "quantity": 2},
            {"card": "BS-005", "quantity": 1, "for_trade": 2},
            {"card": "BS-006", "quantity": 1, "condition": "soggy", "language": "fr"},
            {"quantity": 1},
            "BS-007",
        ],
    }
    response = put(api, URL, body)
    assert response.status_code == 400
    data = response.json()
    assert data["message"] == "Invalid input: see errors."
    assert fields(response) == {
        "entries[1].quantity",
        "entries[2].card",
        "entries[3]",
        "entries[4].for_trade",
        "entries[5].condition",
        "entries[5].language",
        "entries[6].card",
        "entries[7]",
    }
    messages = {e["field"]: e["message"] for e in data["errors"]}
    assert "BS-999" in messages["entries[2].card"]
    assert messages["entries[3]"] == "The same printing and variant as entry 0."
    assert rows(owned) == before
    assert Collection.objects.get(owner=owned).visibility == "private"


def test_put_with_one_unknown_card_names_it_in_the_message(api, alice):
    response = put(api, URL, {"entries": [{"card": "XX-001", "quantity": 1}]})
    assert response.status_code == 400
    assert response.json()["message"] == "entries[0].card: Unknown card “XX-001”."
    assert not CollectionEntry.objects.filter(owner=alice).exists()
    assert not Collection.objects.filter(owner=alice).exists()


@pytest.mark.parametrize(
    ("quantity", "accepted"),
    [(0, True), (1, True), (999, True), (-1, False), (1000, False), (65536, False)],
)
def test_quantities_run_from_0_to_999(api, alice, quantity, accepted):
    response = put(api, URL, {"entries": [{"card": "BS-001", "quantity": quantity, "wanted": 1}]})
    assert (response.status_code == 200) is accepted, response.json()
    if accepted:
        assert rows(alice)[0]["quantity"] == quantity
    else:
        assert fields(response) == {"entries[0].quantity"} and rows(alice) == []


@pytest.mark.parametrize("value", ["3", 3.5, True, None, [], {}])
def test_a_quantity_that_is_not_a_json_integer_is_refused(api, alice, value):
    response = put(api, URL, {"entries": [{"card": "BS-001", "quantity": value}]})
    assert response.status_code == 400 and fields(response) == {"entries[0].quantity"}
    assert rows(alice) == []


@pytest.mark.parametrize("field", ["quantity", "for_trade", "wanted"])
def test_huge_integers_are_refused_without_an_overflow(api, alice, field):
    twenty = "9" * 20
    quantity = "" if field == "quantity" else '"quantity": 1, '  # never one key twice
    raw = f'{{"entries": [{{"card": "BS-001", {quantity}"{field}": {twenty}}}]}}'
    response = api.put(URL, raw, content_type="application/json")
    assert response.status_code == 400 and fields(response) == {f"entries[0].{field}"}
    thousands = raw.replace(twenty, "9" * 5000)
    response = api.put(URL, thousands, content_type="application/json")
    assert response.status_code == 400 and "digits" in response.json()["message"]
    assert rows(alice) == []


def test_nul_characters_are_refused_in_the_body_and_the_path(api, owned):
    before = rows(owned)
    raw = '{"entries": [{"card": "BS-001\\u0000", "quantity": 1}]}'
    response = api.put(URL, raw, content_type="application/json")
    assert response.status_code == 400 and "NUL" in response.json()["message"]
    assert api.get(card_url("BS-001%00")).status_code in (400, 404)
    assert api.delete(card_url("BS-001%00")).status_code in (400, 404)
    assert rows(owned) == before


def test_deep_or_malformed_json_is_a_400_that_saves_nothing(api, owned):
    before = rows(owned)
    for raw in ("[" * 5000 + "]" * 5000, '{"entries": [' * 40 + "]}" * 40, "{nope", "NaN"):
        response = api.put(URL, raw, content_type="application/json")
        assert response.status_code == 400
        assert set(response.json()) == {"message", "errors"}
    assert rows(owned) == before


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"entries": "BS-001"},
        {"entries": {"card": "BS-001", "quantity": 1}},
        {"entries": [], "visibility": "everyone"},
        [{"card": "BS-001", "quantity": 1}],
    ],
)
def test_a_body_of_the_wrong_shape_is_a_400_naming_the_field(api, owned, body):
    before = rows(owned)
    response = put(api, URL, body)
    assert response.status_code == 400
    assert response.json()["errors"] and rows(owned) == before


def test_more_entries_than_a_csv_import_holds_are_refused(api, alice):
    entries = [{"card": "BS-001", "quantity": 1}] * 5001
    response = put(api, URL, {"entries": entries})
    assert response.status_code == 400 and fields(response) == {"entries"}
    assert "5000" in response.json()["message"]


# --- one card --------------------------------------------------------------------------------


def test_reading_one_card_lists_its_variants(api, owned):
    data = api.get(card_url("bs-001")).json()
    assert data["card"] == "BS-001" and data["copies"] == 3
    assert [(e["language"], e["quantity"], e["for_trade"]) for e in data["entries"]] == [
        ("", 2, 1),
        ("ja", 1, 0),
    ]
    assert api.get(card_url("BS-003")).json() == {"card": "BS-003", "copies": 0, "entries": []}
    assert not Collection.objects.filter(owner__username="bob").exists()


def test_putting_one_card_replaces_only_its_rows(api, owned):
    body = {"entries": [{"quantity": 3, "condition": "played"}, {"quantity": 0, "wanted": 2}]}
    response = put(api, card_url("BS-001"), body)
    assert response.status_code == 200, response.json()
    assert response.json()["copies"] == 3
    assert [(r["card"], r["condition"], r["quantity"], r["wanted"]) for r in rows(owned)] == [
        ("BS-001", "", 0, 2),
        ("BS-001", "played", 3, 0),
        ("BS-002", "", 0, 3),
    ]


def test_putting_one_card_with_bad_variants_saves_nothing(api, owned):
    before = rows(owned)
    body = {"entries": [{"quantity": 1}, {"quantity": 2}, {"quantity": -4}]}
    response = put(api, card_url("BS-001"), body)
    assert response.status_code == 400
    assert fields(response) == {"entries[1]", "entries[2].quantity"}
    assert rows(owned) == before


def test_an_empty_put_or_a_delete_removes_the_card(api, owned):
    assert put(api, card_url("BS-002"), {"entries": []}).json()["entries"] == []
    response = api.delete(card_url("bs-001"))
    assert response.status_code == 204
    assert rows(owned) == [] and api.get(card_url("BS-001")).json()["copies"] == 0
    assert api.delete(card_url("BS-001")).status_code == 204


def test_a_first_card_put_creates_the_collection_private(api, alice):
    assert put(api, card_url("BS-010"), {"entries": [{"quantity": 1}]}).status_code == 200
    assert Collection.objects.get(owner=alice).visibility == "private"


@pytest.mark.parametrize("card_id", ["BS-999", "XX-001"])
def test_an_unknown_card_is_a_404(api, owned, card_id):
    for method in ("get", "delete"):
        response = getattr(api, method)(card_url(card_id))
        assert response.status_code == 404 and card_id in response.json()["message"]
    assert put(api, card_url(card_id), {"entries": [{"quantity": 1}]}).status_code == 404
    assert len(rows(owned)) == 3


@pytest.mark.parametrize("card_id", ["B" * 11, "9" * 5000, "BS-001.x", "ＢＳ-001", "-BS"])
def test_a_path_that_cannot_be_a_card_id_is_a_404_before_any_query(api, owned, card_id):
    for method in ("get", "delete"):
        with CaptureQueriesContext(connection) as queries:
            response = getattr(api, method)(card_url(card_id))
        assert response.status_code == 404
        assert not [q for q in queries if "catalog_card" in q["sql"]]
        assert not [q for q in queries if "collectionentry" in q["sql"]]
    assert len(rows(owned)) == 3


# --- who may do what -------------------------------------------------------------------------

VISIBILITIES = ("private", "link", "public")
# A collection read by its share id: the owner always; others when it is public or by link.
READ = {
    "owner": {"private": 200, "link": 200, "public": 200},
    "other": {"private": 404, "link": 200, "public": 200},
    "anon": {"private": 404, "link": 200, "public": 200},
}


@pytest.fixture
def clients(api, bob_api):
    return {"owner": api, "other": bob_api, "anon": APIClient()}


@pytest.mark.parametrize("who", ["owner", "other", "anon"])
@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_reading_a_collection_by_its_share_id(clients, owned, who, visibility):
    collection = collection_set_visibility(owner=owned, visibility=visibility)
    response = clients[who].get(f"/api/collections/{collection.slug}/")
    assert response.status_code == READ[who][visibility]
    if response.status_code == 200:
        data = response.json()
        assert data["owner"] == "alice" and data["copies"] == 3
        assert data["entries"] == rows(owned)
    else:
        assert set(response.json()) == {"message", "errors"}
        assert b"BS-001" not in response.content


@pytest.mark.parametrize("who", ["owner", "other", "anon"])
@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_a_shared_collection_is_read_only_for_everyone(clients, owned, who, visibility):
    collection = collection_set_visibility(owner=owned, visibility=visibility)
    before = rows(owned)
    url = f"/api/collections/{collection.slug}/"
    for method in ("put", "patch", "delete", "post"):
        response = getattr(clients[who], method)(url, {"entries": []}, format="json")
        assert response.status_code in (403, 404, 405)
    assert rows(owned) == before


@pytest.mark.parametrize("who", ["other", "anon"])
@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_no_one_else_reads_or_writes_a_collection_through_their_own_urls(
    clients, owned, bob, who, visibility
):
    collection_set_visibility(owner=owned, visibility=visibility)
    before = rows(owned)
    client = clients[who]
    if who == "anon":
        for method in ("get", "put", "delete"):
            for url in (URL, card_url("BS-001")):
                response = getattr(client, method)(url, {"entries": []}, format="json")
                assert response.status_code == 403 and set(response.json()) == {
                    "message",
                    "errors",
                }
    else:
        assert client.get(URL).json()["entries"] == []
        assert client.get(card_url("BS-001")).json()["copies"] == 0
        response = put(client, URL, {"entries": [{"card": "BS-009", "quantity": 1}]})
        assert response.status_code == 200
        assert client.delete(card_url("BS-001")).status_code == 204
        assert [(r["card"], r["quantity"]) for r in rows(bob)] == [("BS-009", 1)]
    assert rows(owned) == before


def test_an_unknown_or_malformed_share_id_is_a_404(clients):
    for share_id in ("no-such-link", "x" * 65):
        assert clients["anon"].get(f"/api/collections/{share_id}/").status_code == 404


def test_session_auth_works_as_well_as_tokens(alice_client, owned):
    assert alice_client.get(URL).json()["copies"] == 3


def test_a_bad_token_is_a_401(owned):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    response = client.get(URL)
    assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Token")


def test_writes_are_throttled_and_reads_are_not(api, monkeypatch):
    cache.clear()
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": "2/minute"})
    codes = [
        put(api, URL, {"entries": []}).status_code,
        api.delete(card_url("BS-001")).status_code,
        put(api, card_url("BS-001"), {"entries": []}).status_code,
    ]
    assert codes == [200, 204, 429]
    assert all(api.get(URL).status_code == 200 for _ in range(5))
    cache.clear()


def test_the_openapi_schema_documents_the_collection_api(anon_client):
    schema = anon_client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert set(paths["/api/collection/"]) == {"get", "put"}
    assert set(paths["/api/collection/cards/{card_id}/"]) == {"get", "put", "delete"}
    assert set(paths["/api/collections/{share_id}/"]) == {"get"}
    put_body = paths["/api/collection/"]["put"]["requestBody"]["content"]["application/json"]
    assert put_body["schema"]["$ref"].endswith("/CollectionPut")
    entry = schema["components"]["schemas"]["CollectionEntry"]
    assert entry["properties"]["quantity"]["maximum"] == 999
    assert entry["properties"]["quantity"]["minimum"] == 0
    assert "400" in paths["/api/collection/"]["put"]["responses"]


def test_a_large_replace_round_trips_in_a_bounded_number_of_queries(
    api, alice, django_assert_max_num_queries
):
    from catalog.models import Card

    ids = list(Card.objects.filter(card_set_id="BS").values_list("id", flat=True))
    entries = [
        {"card": card_id, "quantity": 1 + n % 3, "language": language, "wanted": n % 2}
        for n, card_id in enumerate(ids)
        for language in ("ja", "en")
    ]
    with django_assert_max_num_queries(30):
        response = put(api, URL, {"entries": entries})
    assert response.status_code == 200
    assert len(response.json()["entries"]) == 2 * len(ids)
    assert put(api, URL, {"entries": response.json()["entries"]}).json() == response.json()
