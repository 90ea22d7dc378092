"""The permission matrix: owner / another user / anonymous × private / unlisted / public ×
read / write / list, with nothing leaking through listings, search, card pages or the API."""

import json

import pytest

from decks.selectors import deck_content

pytestmark = pytest.mark.django_db

VISIBILITIES = ("private", "unlisted", "public")
# What a reader gets: the owner always sees; others see unlisted and public decks by slug.
READ = {
    "owner": {"private": 200, "unlisted": 200, "public": 200},
    "other": {"private": 404, "unlisted": 200, "public": 200},
    "anon": {"private": 404, "unlisted": 200, "public": 200},
}
# Listings (index, profile, API list, card page) show others only public decks.
LISTED = {
    "owner": {"private": True, "unlisted": True, "public": True},
    "other": {"private": False, "unlisted": False, "public": True},
    "anon": {"private": False, "unlisted": False, "public": True},
}


@pytest.fixture
def clients(alice_client, bob_client, anon_client):
    return {"owner": alice_client, "other": bob_client, "anon": anon_client}


@pytest.mark.parametrize("who", ["owner", "other", "anon"])
@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_reading_a_deck(clients, decks_by_visibility, who, visibility):
    deck = decks_by_visibility[visibility]
    client, expected = clients[who], READ[who][visibility]
    for url in (
        f"/decks/{deck.slug}/",
        f"/decks/{deck.slug}/versions/",
        f"/decks/{deck.slug}/export.txt",
        f"/decks/{deck.slug}/export.json",
        f"/decks/{deck.slug}/print/",
        f"/api/decks/{deck.slug}/",
        f"/api/decks/{deck.slug}/export/?format=text",
        f"/api/decks/{deck.slug}/versions/",
    ):
        response = client.get(url)
        assert response.status_code == expected, url
        if expected == 404:
            assert deck.name.encode() not in response.content


@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_the_database_id_opens_nothing(clients, decks_by_visibility, visibility):
    deck = decks_by_visibility[visibility]
    assert clients["other"].get(f"/api/decks/{deck.pk}/").status_code == 404


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("owner", {"private": 200, "unlisted": 200, "public": 200}),
        ("other", {"private": 404, "unlisted": 403, "public": 403}),
        ("anon", {"private": 302, "unlisted": 302, "public": 302}),
    ],
)
@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_editing_a_deck_page(clients, decks_by_visibility, who, expected, visibility):
    deck = decks_by_visibility[visibility]
    client = clients[who]
    assert client.get(f"/decks/{deck.slug}/edit/").status_code == expected[visibility]
    draft = json.dumps({"deck": {}, "bench": {}})
    response = client.post(
        f"/decks/{deck.slug}/edit/",
        {"name": "Taken", "visibility": "public", "description": "", "draft": draft},
    )
    deck.refresh_from_db()
    delete = client.post(f"/decks/{deck.slug}/delete/")
    if who == "owner":
        assert response.status_code == 302 and deck.name == "Taken" and delete.status_code == 302
    else:
        assert response.status_code == expected[visibility] == delete.status_code
        assert deck.name != "Taken" and deck_content(deck).deck
        deck.refresh_from_db()  # still there


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("owner", {"private": 200, "unlisted": 200, "public": 200}),
        ("other", {"private": 404, "unlisted": 403, "public": 403}),
        ("anon", {"private": 403, "unlisted": 403, "public": 403}),
    ],
)
@pytest.mark.parametrize("visibility", VISIBILITIES)
def test_writing_a_deck_through_the_api(clients, decks_by_visibility, who, expected, visibility):
    deck = decks_by_visibility[visibility]
    client = clients[who]
    url = f"/api/decks/{deck.slug}/"
    patch = client.patch(url, {"name": "Taken"}, content_type="application/json")
    assert patch.status_code == expected[visibility]
    put = client.put(url, {"name": "Taken", "deck": []}, content_type="application/json")
    assert put.status_code == expected[visibility]
    deck.refresh_from_db()
    assert (deck.name == "Taken") == (who == "owner")
    delete = client.delete(url)
    assert delete.status_code == (204 if who == "owner" else expected[visibility])


@pytest.mark.parametrize("who", ["owner", "other", "anon"])
def test_listings_show_others_only_public_decks(clients, decks_by_visibility, alice, who):
    client = clients[who]
    card = next(iter(deck_content(decks_by_visibility["public"]).deck))
    pages = {
        "profile": client.get("/users/alice/").content.decode(),
        "api": json.dumps(client.get("/api/decks/?page_size=500").json()),
        "card page": client.get(f"/cards/{card}/").content.decode(),
        "index": client.get("/decks/?owner=alice").content.decode(),
        "index by card": client.get(f"/decks/?card={card}").content.decode(),
    }
    for name, body in pages.items():
        for visibility, deck in decks_by_visibility.items():
            listed = LISTED[who][visibility]
            if name.startswith("index") or name == "card page":
                listed = visibility == "public"  # public listings show public decks only
            assert (deck.slug in body) == listed, (name, visibility)


def test_the_api_list_holds_own_and_public_decks_only(bob_client, decks_by_visibility):
    body = bob_client.get("/api/decks/").json()
    slugs = {d["id"] for d in body["results"]}
    assert decks_by_visibility["public"].slug in slugs
    assert not slugs & {decks_by_visibility[v].slug for v in ("private", "unlisted")}
    assert all(d["visibility"] == "public" for d in body["results"])


def test_a_copy_does_not_reveal_an_unlisted_source(
    alice, bob_client, anon_client, decks_by_visibility
):
    source = decks_by_visibility["unlisted"]
    response = bob_client.post(f"/decks/{source.slug}/copy/")
    assert response.status_code == 302
    copy_slug = response["Location"].rstrip("/").split("/")[-1]
    bob_client.patch(
        f"/api/decks/{copy_slug}/", {"visibility": "public"}, content_type="application/json"
    )
    assert source.slug not in anon_client.get(f"/decks/{copy_slug}/").content.decode()
    assert anon_client.get(f"/api/decks/{copy_slug}/").json()["copied_from"] is None


def test_only_visible_decks_can_be_copied(bob_client, anon_client, decks_by_visibility):
    assert bob_client.post(f"/decks/{decks_by_visibility['private'].slug}/copy/").status_code == 404
    public = decks_by_visibility["public"]
    assert anon_client.post(f"/decks/{public.slug}/copy/").status_code == 302  # to log in
    assert bob_client.post(f"/decks/{public.slug}/copy/").status_code == 302
