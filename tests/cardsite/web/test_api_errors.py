"""The API's one error shape (cardsite/web/api_errors.py) and authentication failures as 401."""

import pytest

from cardsite.web.api_errors import flatten_errors


def test_nested_field_errors_flatten_to_dotted_fields():
    detail = {"deck": [{}, {"quantity": ["Too many."]}], "non_field_errors": ["Bad."]}
    assert flatten_errors(detail) == [
        {"field": "deck[1].quantity", "message": "Too many."},
        {"field": None, "message": "Bad."},
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "header", ["Token nosuchtoken", "Token a b", "Token", "Token \u00e9", "Token a\x00b"]
)
def test_a_bad_or_malformed_token_on_a_public_get_is_a_401(client, header):
    response = client.get("/api/sets/", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401
    assert response.json()["errors"] == [] and response.json()["message"]
    assert response["WWW-Authenticate"].startswith("Token")


def test_field_errors_and_line_errors_share_one_shape(alice_client):
    field = alice_client.post("/api/decks/", {"name": ""}, content_type="application/json")
    line = alice_client.post(
        "/api/decks/import/", {"text": "deck:\n0 BS-012"}, content_type="application/json"
    )
    for response in (field, line):
        body = response.json()
        assert response.status_code == 400 and set(body) == {"message", "errors"}
        assert all({"field", "message"} <= set(e) for e in body["errors"])
    assert field.json()["errors"][0]["field"] == "name"
    assert line.json()["errors"][0] == {
        "field": "text",
        "line": 2,
        "message": "quantity 0 is not from 1 to 60",
    }


@pytest.mark.django_db
def test_a_body_over_djangos_upload_limit_is_the_same_400_as_one_over_the_json_limit(
    alice_client, alice
):
    from decks.services import deck_create

    deck = deck_create(owner=alice, name="Kept")
    body = "{" + "x" * 3_000_000 + "}"
    for path in (f"/api/decks/{deck.slug}/", "/api/collection/"):
        response = alice_client.put(path, body, content_type="application/json")
        assert response.status_code == 400, path
        assert response.json() == {
            "message": "The request body is larger than 1,000,000 bytes.",
            "errors": [],
        }
    deck.refresh_from_db()
    assert deck.name == "Kept"
