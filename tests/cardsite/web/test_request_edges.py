"""Request edges: NUL characters anywhere in a request are a 400; /api/ errors stay JSON."""

import pytest

from decks.models import Deck

NUL_PATHS = [
    "/cards/%00/",
    "/sets/%00/",
    "/api/cards/%00/",
    "/api/sets/%00/",
    "/replays/%00/",
    "/logs/%00.json",
    "/simulations/shared/%00/",
    "/users/%00/",
    "/decks/%00/",
]


@pytest.mark.django_db
@pytest.mark.parametrize("path", NUL_PATHS)
def test_a_nul_in_the_path_is_a_400(client, path):
    response = client.get(path)
    assert response.status_code == 400
    if path.startswith("/api/"):
        assert "NUL" in response.json()["message"]
    else:
        assert "NUL" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/play/?deck=%00", "/simulations/new/?deck=%00", "/?q=a%00b"])
def test_a_nul_in_a_query_parameter_is_a_400_naming_it(alice_client, path):
    response = alice_client.get(path)
    assert response.status_code == 400
    assert "NUL" in response.content.decode()


def test_a_nul_in_a_form_field_is_a_400_and_saves_nothing(alice_client):
    before = Deck.objects.count()
    response = alice_client.post(
        "/decks/new/", {"name": "bad\x00name", "visibility": "private", "draft": "{}"}
    )
    assert response.status_code == 400 and "name" in response.content.decode()
    assert Deck.objects.count() == before


@pytest.mark.django_db
def test_a_very_long_query_string_is_a_400(client):
    assert client.get("/cards/?q=" + "a" * 9000).status_code == 400


@pytest.mark.django_db
def test_an_unknown_api_address_is_a_json_404(client):
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"message": "Not found.", "errors": []}


def test_an_unexpected_api_error_is_a_json_500(alice_client, monkeypatch):
    def explode(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("decks.api.deck_create", explode)
    response = alice_client.post("/api/decks/", {"name": "x"}, content_type="application/json")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["message"].startswith("Internal server error")
