"""Collection pages: the collection page and its bulk grid, card-page editing, the set
checklist's add endpoint, CSV upload and export, and the permission matrix of the shared page
(owner / other / anonymous × private / link / public)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from decks.collections import selectors as sel
from decks.collections.services import collection_entry_set, collection_set_visibility
from decks.models import Collection

pytestmark = pytest.mark.django_db


def test_the_collection_page_needs_a_login(anon_client):
    assert anon_client.get("/collection/").status_code == 302


def test_the_collection_page_shows_completion_and_the_grid(alice_client, alice):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=2)
    page = alice_client.get("/collection/", {"set": "BS"})
    assert page.status_code == 200
    assert b'name="qty-BS-001" value="2"' in page.content
    assert b"1 / " in page.content


def test_the_bulk_grid_saves_all_fields_or_none(alice_client, alice):
    response = alice_client.post("/collection/grid/", {"qty-BS-001": "3", "qty-BS-002": "1"})
    assert response.status_code == 302
    assert sel.owned_counts(alice) == {"BS-001": 3, "BS-002": 1}
    alice_client.post("/collection/grid/", {"qty-BS-001": "0", "qty-BS-002": "lots"})
    assert sel.owned_counts(alice) == {"BS-001": 3, "BS-002": 1}


def test_the_grid_save_message_counts_the_cards_that_changed(alice_client, alice):
    # The grid posts every card of the set: the message counts what the person changed.
    collection_entry_set(owner=alice, card_id="BS-003", quantity=2)
    grid = {f"qty-BS-{n:03d}": "0" for n in range(1, 40)}
    grid.update({"qty-BS-001": "3", "qty-BS-002": "1", "qty-BS-003": "2"})
    page = alice_client.post("/collection/grid/", grid, follow=True).content.decode()
    assert "Saved: 2 cards changed." in page and "39" not in page.split("Saved:")[1][:20]
    page = alice_client.post("/collection/grid/", grid, follow=True).content.decode()
    assert "Nothing to save: every quantity was as before." in page
    alice_client.cookies["django_language"] = "ja"
    grid["qty-BS-002"] = "2"
    page = alice_client.post("/collection/grid/", grid, follow=True).content.decode()
    assert "保存しました：1枚のカードを変更しました。" in page


def test_the_card_page_offers_the_collection_editor(alice_client, alice, anon_client):
    alice_client.post("/collection/cards/BS-001/", {"quantity": "2", "language": "ja"})
    page = alice_client.get("/cards/BS-001/")
    assert b"In my collection" in page.content and b"You own 2 copies." in page.content
    assert b"to record the copies you own" in anon_client.get("/cards/BS-001/").content


def test_the_checklist_endpoint_adds_a_copy_and_answers_the_completion(alice_client, alice):
    data = alice_client.post("/collection/add/", {"card": "BS-001", "delta": "1"}).json()
    assert data["quantity"] == 1 and data["owned"] == 1 and 1 not in data["missing"]
    data = alice_client.post("/collection/add/", {"card": "BS-001", "delta": "-1"}).json()
    assert data["owned"] == 0 and 1 in data["missing"]


@pytest.mark.parametrize(
    "post", [{"card": "XX-1", "delta": "1"}, {"card": "BS-001", "delta": "5"}, {"delta": "x"}]
)
def test_the_checklist_endpoint_refuses_bad_input_with_json(alice_client, post):
    response = alice_client.post("/collection/add/", post)
    assert response.status_code == 400 and "error" in response.json()


def test_the_set_checklist_lists_the_missing_numbers(alice_client, alice):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=1)
    page = alice_client.get("/collection/sets/bs/")
    assert page.status_code == 200
    assert b'data-role="missing"' in page.content and b">2, 3," in page.content


def test_a_csv_upload_applies_whole_or_names_the_bad_lines(alice_client, alice):
    good = SimpleUploadedFile("c.csv", b"card,quantity\nBS-001,2\n", content_type="text/csv")
    alice_client.post("/collection/import/", {"file": good})
    assert sel.owned_counts(alice) == {"BS-001": 2}
    bad = SimpleUploadedFile("c.csv", b"card,quantity\nBS-002,1\nBS-999,1\n")
    page = alice_client.post("/collection/import/", {"file": bad}, follow=True)
    assert b"Line 3" in page.content and b"Nothing was imported." in page.content
    assert sel.owned_counts(alice) == {"BS-001": 2}


def test_exports_download_csv_and_json(alice_client, alice):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=2)
    csv_response = alice_client.get("/collection/export.csv")
    lines = csv_response.content.decode().splitlines()
    assert lines[0] == "card,printing,quantity,condition,language,for_trade,wanted"
    assert lines[1].startswith("BS-001,BS-001,2,")
    assert alice_client.get("/collection/export.json").json()["entries"][0]["quantity"] == 2


@pytest.mark.parametrize(
    ("visibility", "viewer", "status"),
    [
        ("private", "owner", 200),
        ("private", "other", 404),
        ("private", "anon", 404),
        ("link", "owner", 200),
        ("link", "other", 200),
        ("link", "anon", 200),
        ("public", "owner", 200),
        ("public", "other", 200),
        ("public", "anon", 200),
    ],
)
def test_who_may_see_a_shared_collection(
    visibility, viewer, status, alice, alice_client, bob_client, anon_client
):
    collection_set_visibility(owner=alice, visibility=visibility)
    slug = Collection.objects.get(owner=alice).slug
    client = {"owner": alice_client, "other": bob_client, "anon": anon_client}[viewer]
    assert client.get(f"/collection/s/{slug}/").status_code == status


def test_only_the_owner_changes_the_sharing(alice, bob_client, anon_client):
    collection_set_visibility(owner=alice, visibility="private")
    bob_client.post("/collection/settings/", {"visibility": "public"})
    anon_client.post("/collection/settings/", {"visibility": "public"})
    assert Collection.objects.get(owner=alice).visibility == "private"


def test_the_shared_page_shows_a_trade_match_to_another_user(alice, bob, bob_client):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=3, for_trade=2)
    collection_entry_set(owner=bob, card_id="BS-001", quantity=0, wanted=1)
    collection_set_visibility(owner=alice, visibility="link")
    slug = Collection.objects.get(owner=alice).slug
    page = bob_client.get(f"/collection/s/{slug}/")
    assert page.status_code == 200
    assert [(c.id, n) for c, n in page.context["match"]["they_give"]] == [("BS-001", 1)]


def test_the_builders_owned_only_checkbox_is_not_inside_the_sort_select(alice_client):
    html = alice_client.get("/decks/new/").content.decode()
    sort = html.index('id="result-sort"')
    assert sort < html.index("</select>", sort) < html.index('id="owned-only"')


def test_no_template_has_an_inline_event_handler_the_csp_would_block():
    import re

    from django.conf import settings

    handler = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)
    offenders = [
        str(path)
        for path in (settings.BASE_DIR / "templates").rglob("*.html")
        if handler.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_bulk_grid_switches_sets_by_its_picker(alice_client):
    html = alice_client.get("/collection/", {"set": "JP"}).content.decode()
    assert '<select name="set" data-submit-on-change>' in html
    assert 'name="qty-JP-001"' in html and 'name="qty-BS-001"' not in html


def shared_slug(owner) -> str:
    return Collection.objects.get(owner=owner).slug


@pytest.mark.parametrize("shared", ["link", "public"])
def test_making_a_shared_collection_private_revokes_its_link_for_good(
    shared, alice, alice_client, bob_client
):
    alice_client.post("/collection/settings/", {"visibility": shared})
    old = shared_slug(alice)
    assert bob_client.get(f"/collection/s/{old}/").status_code == 200
    alice_client.post("/collection/settings/", {"visibility": "private"})
    alice_client.post("/collection/settings/", {"visibility": "link"})
    new = shared_slug(alice)
    assert new != old
    assert bob_client.get(f"/collection/s/{old}/").status_code == 404
    assert bob_client.get(f"/collection/s/{new}/").status_code == 200
    page = alice_client.get("/collection/").content.decode()
    assert f"/collection/s/{new}/" in page and "sharing it again gives a new link" in page


def test_changing_between_link_and_public_keeps_the_link(alice, alice_client):
    alice_client.post("/collection/settings/", {"visibility": "link"})
    slug = shared_slug(alice)
    alice_client.post("/collection/settings/", {"visibility": "public"})
    alice_client.post("/collection/settings/", {"visibility": "link"})
    assert shared_slug(alice) == slug


def test_revoking_through_the_api_rotates_the_link_too(alice, alice_client):
    alice_client.post("/collection/settings/", {"visibility": "link"})
    old = shared_slug(alice)
    response = alice_client.put(
        "/api/collection/",
        {"entries": [], "visibility": "private"},
        content_type="application/json",
    )
    assert response.status_code == 200 and shared_slug(alice) != old
    assert response.json()["share_id"] == shared_slug(alice)
