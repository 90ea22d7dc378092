"""The deck API: create/update with the caller as owner, token auth, import, validate, export,
versions, write throttling, and the OpenAPI schema."""

import io

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from cardsite.web.throttles import WriteRateThrottle
from decks.models import Deck
from decks.selectors import deck_content
from decks.services import deck_create

pytestmark = pytest.mark.django_db


def entries(zone: dict) -> list[dict]:
    return [{"card": c, "quantity": n} for c, n in zone.items()]


@pytest.fixture
def api(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    return client


def test_creating_a_deck_with_a_token_makes_the_caller_its_owner(api, alice, bob, legal_content):
    body = {
        "name": "API deck",
        "owner": "bob",
        "visibility": "public",
        "goalkeeper": legal_content.goalkeeper,
        "deck": entries(legal_content.deck),
    }
    response = api.post("/api/decks/", body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["owner"] == "alice" and data["legal"] is True and data["problems"] == []
    assert data["version"] == 1 and data["url"].endswith(f"/decks/{data['id']}/")
    deck = Deck.objects.get(slug=data["id"])
    assert deck.owner == alice and deck_content(deck) == legal_content


def test_an_unknown_card_is_a_400_and_nothing_is_saved(api, alice):
    response = api.post(
        "/api/decks/", {"name": "Bad", "deck": [{"card": "BS-999", "quantity": 1}]}, format="json"
    )
    assert response.status_code == 400
    assert "BS-999" in str(response.json()["errors"]) and "message" in response.json()
    assert not Deck.objects.filter(owner=alice).exists()


def test_patch_changes_only_what_it_names_and_makes_a_version(api, alice, legal_content):
    deck = deck_create(owner=alice, name="Patch me", content=legal_content)
    first = next(iter(legal_content.deck))
    response = api.patch(
        f"/api/decks/{deck.slug}/",
        {"bench": [{"card": first, "quantity": 2}], "owner": "bob"},
        format="json",
    )
    assert response.status_code == 200
    data = response.json()
    assert data["bench"] == [{"card": first, "quantity": 2}] and data["version"] == 2
    assert data["goalkeeper"] == legal_content.goalkeeper and data["owner"] == "alice"
    versions = api.get(f"/api/decks/{deck.slug}/versions/").json()
    assert [v["number"] for v in versions] == [2, 1]
    assert versions[0]["summary"] == f"bench +2 {first}" and versions[0]["editor"] == "alice"
    assert versions[1]["content"]["bench"] == {}


def test_validate_reports_every_problem_with_its_rule(anon_client, legal_content):
    client = APIClient()
    response = client.post(
        "/api/decks/validate/", {"deck": [{"card": "BS-002", "quantity": 3}]}, format="json"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["legal"] is False
    assert [p["rule"] for p in data["problems"]] == ["R-DECK-1", "R-DECK-3", "R-DECK-4"]
    assert data["problems"][1]["cards"] == ["BS-002"]
    good = client.post(
        "/api/decks/validate/",
        {"goalkeeper": legal_content.goalkeeper, "deck": entries(legal_content.deck)},
        format="json",
    )
    assert good.json() == {"legal": True, "problems": []}


def test_validate_reads_the_text_format_and_reports_bad_lines(legal_content):
    client = APIClient()
    lines = [f"goalkeeper: {legal_content.goalkeeper}", "deck:"]
    lines += [f"{n} {c}" for c, n in legal_content.deck.items()]
    response = client.post("/api/decks/validate/", {"text": "\n".join(lines)}, format="json")
    assert response.json() == {"legal": True, "problems": []}
    bad = client.post("/api/decks/validate/", {"text": "deck:\n4 BS-998\nzz"}, format="json")
    assert bad.status_code == 400
    assert [e["line"] for e in bad.json()["errors"]] == [2, 3]


def test_import_creates_a_deck_or_reports_line_errors_saving_nothing(api, alice):
    bad = api.post("/api/decks/import/", {"text": "deck:\n4 BS-002\n99 BS-003\n"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["line"] == 3
    assert not Deck.objects.filter(owner=alice).exists()
    good = api.post(
        "/api/decks/import/", {"text": "name: Imported\ndeck:\n4 BS-002\n"}, format="json"
    )
    assert good.status_code == 201 and good.json()["name"] == "Imported"
    assert good.json()["legal"] is False and good.json()["owner"] == "alice"


def test_import_accepts_a_file_upload(api, alice):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("deck.txt", b"name: From file\ndeck:\n2 BS-002\n")
    response = api.post("/api/decks/import/", {"file": upload}, format="multipart")
    assert response.status_code == 201 and response.json()["name"] == "From file"


def test_export_as_text_and_json_round_trips(api, alice, legal_content):
    deck = deck_create(owner=alice, name="Export me", content=legal_content)
    text = api.get(f"/api/decks/{deck.slug}/export/?format=text")
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    body = text.content.decode()
    assert body.startswith("# Eleven Stars deck\nname: Export me\n")
    as_json = api.get(f"/api/decks/{deck.slug}/export/?format=json").json()
    assert as_json["text"] == body and as_json["format"] == "eleven-stars-deck/1"
    again = api.post("/api/decks/import/", {"text": body}, format="json").json()
    assert api.get(f"/api/decks/{again['id']}/export/?format=text").content.decode() == body


def test_writes_are_throttled_and_reads_are_not(api, monkeypatch):
    cache.clear()
    monkeypatch.setattr(WriteRateThrottle, "THROTTLE_RATES", {"writes": "2/minute"})
    codes = [
        api.post("/api/decks/", {"name": f"D{i}"}, format="json").status_code for i in range(3)
    ]
    assert codes == [201, 201, 429]
    assert all(api.get("/api/decks/").status_code == 200 for _ in range(5))
    cache.clear()


def test_the_openapi_schema_documents_the_deck_api(anon_client):
    schema = anon_client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path in (
        "/api/decks/",
        "/api/decks/{id}/",
        "/api/decks/{id}/export/",
        "/api/decks/{id}/versions/",
        "/api/decks/import/",
        "/api/decks/validate/",
    ):
        assert path in paths, path
    assert set(paths["/api/decks/{id}/"]) >= {"get", "put", "patch", "delete"}
    deck = schema["components"]["schemas"]["Deck"]
    assert deck["properties"]["owner"].get("readOnly") is True


def test_repeated_entries_that_add_up_past_60_are_a_400_and_save_nothing(api, alice):
    body = {"name": "Overflow", "deck": [{"card": "BS-012", "quantity": 60}] * 551}
    response = api.post("/api/decks/", body, format="json")
    assert response.status_code == 400
    assert "adds up to 33060" in response.json()["message"]
    assert not Deck.objects.filter(owner=alice).exists()
    validate = api.post("/api/decks/validate/", {"deck": body["deck"]}, format="json")
    assert validate.status_code == 400


def test_import_and_validate_refuse_a_quantity_of_5000_digits(api, alice, anon_client):
    text = "deck:\n" + "9" * 5000 + " BS-012\n"
    for client in (api, anon_client):
        path = "/api/decks/validate/" if client is anon_client else "/api/decks/import/"
        response = (
            client.post(path, {"text": text}, content_type="application/json")
            if (client is anon_client)
            else client.post(path, {"text": text}, format="json")
        )
        assert response.status_code == 400
        assert "5000 digits" in response.json()["errors"][0]["message"]
    assert not Deck.objects.filter(owner=alice).exists()


def test_an_oversized_import_file_is_a_400_never_cut_and_saved(api, alice):
    text = ("# " + "x" * 98 + "\n") * 1990 + "deck:\n4 BS-012\n"
    upload = io.BytesIO(text.encode())
    upload.name = "deck.txt"
    response = api.post("/api/decks/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "file"
    assert "larger than 200,000 bytes" in response.json()["message"]
    assert not Deck.objects.filter(owner=alice).exists()


def test_a_comment_only_import_is_a_400(api, alice):
    response = api.post("/api/decks/import/", {"text": "# nothing here\n"}, format="json")
    assert response.status_code == 400 and "only comments" in str(response.json()["errors"])
    assert not Deck.objects.filter(owner=alice).exists()


def test_a_deck_name_with_a_right_to_left_override_is_refused(api, alice):
    response = api.post("/api/decks/", {"name": "gpj.\u202eexe"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "name"
    assert not Deck.objects.filter(owner=alice).exists()


def test_an_update_with_a_stale_if_match_is_a_409_and_changes_nothing(api, alice, legal_content):
    deck = deck_create(owner=alice, name="Shared", content=legal_content)
    first = api.get(f"/api/decks/{deck.slug}/")
    assert first["ETag"] == '"v1"'
    saved = api.patch(
        f"/api/decks/{deck.slug}/",
        {"description": "tab one"},
        format="json",
        HTTP_IF_MATCH=first["ETag"],
    )
    assert saved.status_code == 200 and saved["ETag"] == '"v2"'
    stale = api.patch(
        f"/api/decks/{deck.slug}/",
        {"name": "tab two"},
        format="json",
        HTTP_IF_MATCH=first["ETag"],
    )
    assert stale.status_code == 409 and "version 2" in stale.json()["message"]
    deck.refresh_from_db()
    assert deck.name == "Shared" and deck.description == "tab one"
    assert deck.versions.count() == 2
    bad = api.patch(f"/api/decks/{deck.slug}/", {"name": "x"}, format="json", HTTP_IF_MATCH="zz")
    assert bad.status_code == 400
