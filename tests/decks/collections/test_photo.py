"""The photo to collection page (#25, 3.): the set chooser and its readiness, the matches of a
finished recognise job (best match as a question, alternatives, abstentions with their
reason), adding through the collection's service whole or not at all, failed readings and
missing tools. Jobs with a made-up result test the page alone; one test reads a real synthetic
photo end to end."""

import secrets

import pytest

from catalog import readings
from catalog.models import Card, CardSet, ReadingJob
from decks.collections import selectors as sel
from decks.collections.services import (
    MAX_QUANTITY,
    CollectionError,
    collection_add_found,
    collection_entry_set,
)
from decks.models import CollectionEntry
from tests.decks.collections.photo_setup import (
    done_job,
    jpeg_file,
    make_set_ready,
    skip_without_tools,
    synthetic_cards,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


TRIO = ["BS-012", "BS-044", "BS-101"]


# --- the service -------------------------------------------------------------------------------


def test_adding_found_cards_puts_copies_on_top_of_the_rows_owned(alice):
    collection_entry_set(owner=alice, card_id="BS-012", quantity=2, for_trade=1)
    collection_add_found(
        owner=alice,
        items=[
            {"card": "BS-012", "quantity": "1", "where": "Card 1"},
            {"card": "BS-044", "quantity": "2", "condition": "mint", "where": "Card 2"},
            {"card": "BS-012", "quantity": "1", "where": "Card 3"},  # a second copy on the page
        ],
    )
    plain = CollectionEntry.objects.get(owner=alice, card_id="BS-012", condition="")
    assert (plain.quantity, plain.for_trade) == (4, 1)
    assert CollectionEntry.objects.get(owner=alice, card_id="BS-044").condition == "mint"
    assert sel.owned_counts(alice) == {"BS-012": 4, "BS-044": 2}


@pytest.mark.parametrize(
    "item, said",
    [
        ({"card": "", "quantity": "1"}, "Card 2: choose which card it is."),
        ({"card": "BS-044", "quantity": "0"}, "Card 2: add at least one copy."),
        ({"card": "BS-044", "quantity": "lots"}, "Card 2: quantity must be a whole number"),
        ({"card": "BS-044", "quantity": "1", "condition": "soggy"}, "unknown condition"),
        ({"card": "BS-044", "quantity": "1", "printing": "JP-001"}, "not a printing of card"),
        ({"card": "ZZ-999", "quantity": "1"}, "unknown card"),
    ],
)
def test_a_bad_found_card_is_named_and_nothing_is_added(alice, item, said):
    items = [{"card": "BS-012", "quantity": "1", "where": "Card 1"}, {**item, "where": "Card 2"}]
    with pytest.raises(CollectionError) as caught:
        collection_add_found(owner=alice, items=items)
    assert any(said in message for message in caught.value.messages), caught.value.messages
    assert not CollectionEntry.objects.filter(owner=alice).exists()


def test_found_cards_cannot_pass_the_maximum_a_row_holds(alice):
    collection_entry_set(owner=alice, card_id="BS-044", quantity=MAX_QUANTITY)
    with pytest.raises(CollectionError, match="BS-044"):
        collection_add_found(
            owner=alice,
            items=[
                {"card": "BS-012", "quantity": "1", "where": "Card 1"},
                {"card": "BS-044", "quantity": "1", "where": "Card 2 (BS-044)"},
            ],
        )
    assert sel.owned_counts(alice) == {"BS-044": MAX_QUANTITY}


# --- the page ----------------------------------------------------------------------------------


def test_the_photo_page_needs_a_login_and_is_linked_from_the_collection(anon_client, alice_client):
    assert anon_client.get("/collection/photo/").status_code == 302
    assert b'href="/collection/photo/"' in alice_client.get("/collection/").content


def test_sets_without_a_layout_or_scans_say_why_they_cannot_be_recognised(alice_client):
    page = alice_client.get("/collection/photo/").content.decode()
    assert 'capture="environment"' in page and 'accept="image/*"' in page
    assert "Not ready yet" in page
    assert "no layout marked and no approved scans yet" in page
    assert "No set can be recognised yet" in page
    ready = [row for row in readings.sets_for_recognition() if row.ready]
    assert ready == []


def test_missing_tools_are_said_in_one_line_with_the_manual_way(alice_client, monkeypatch):
    line = "Scan reading is off: Tesseract is not installed; fill the grid by hand."
    monkeypatch.setattr(readings, "tools_missing_said", lambda: line)
    page = alice_client.get("/collection/photo/").content.decode()
    assert line in page
    assert 'href="/collection/#grid"' in page
    assert 'id="photo-send" class="photo-send" disabled' in page


def test_the_best_match_is_asked_as_a_question_with_its_alternatives(alice_client, alice):
    job = done_job(alice, [TRIO])
    page = alice_client.get(f"/collection/photo/{job.token}/", {"part": "matches"})
    html = page.content.decode()
    card = Card.objects.get(id="BS-012")
    assert f"{card.id} {card.name_ja} ({card.name})? Add to my collection" in html
    assert html.count('type="radio" name="card-1"') == 3
    assert 'value="BS-012" checked' in html and "Or" in html
    assert card.is_sample and 'class="badge sample"' in html  # the sample mark stays
    assert "Add all" not in html  # one card: one Add


def test_the_page_speaks_japanese(alice_client, alice):
    job = done_job(alice, [TRIO])
    alice_client.cookies["django_language"] = "ja"
    html = alice_client.get(f"/collection/photo/{job.token}/").content.decode()
    assert "写真からカードを追加" in html and "コレクションに追加しますか" in html


@pytest.mark.parametrize("best", [True, False])
def test_the_photo_pages_in_japanese_have_no_english_ui_text(alice_client, alice, best):
    from tests.test_japanese_pages import _data_words, english_in

    job = done_job(alice, [TRIO, ["BS-002", "BS-003", "BS-004"]], best=best)
    alice_client.cookies["django_language"] = "ja"
    allowed = _data_words() | {"API"}
    for path in ("/collection/photo/", f"/collection/photo/{job.token}/"):
        body = alice_client.get(path).content.decode()
        assert english_in(body, allowed) == [], path


def test_an_abstention_shows_its_reason_and_the_three_to_pick_from(alice_client, alice):
    job = done_job(alice, [TRIO], best=False)
    html = alice_client.get(f"/collection/photo/{job.token}/", {"part": "matches"}).content
    html = html.decode()
    assert "Which card is it?" in html
    assert "Too close to call between BS-012 and BS-044: pick the right one." in html
    assert html.count('name="card-1"') == 3 and "checked" not in html  # never a silent pick
    response = alice_client.post(
        f"/collection/photo/{job.token}/add/",
        {"place": "1", "add": "1", "quantity-1": "1"},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 400
    assert "Card 1: choose which card it is." in response.json()["errors"][0]["message"]
    assert not CollectionEntry.objects.filter(owner=alice).exists()


def test_adding_one_card_of_the_photo_puts_it_in_the_collection(alice_client, alice):
    job = done_job(alice, [TRIO, ["BS-002", "BS-003", "BS-004"]])
    response = alice_client.post(
        f"/collection/photo/{job.token}/add/",
        {
            "place": ["1", "2"],
            "add": "1",
            "card-1": "BS-044",  # an alternative picked
            "quantity-1": "2",
            "condition-1": "near_mint",
            "card-2": "BS-002",
            "quantity-2": "1",
        },
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["added"] == ["1"]
    assert sel.owned_counts(alice) == {"BS-044": 2}
    assert CollectionEntry.objects.get(owner=alice).condition == "near_mint"


def test_add_all_adds_every_card_still_on_the_form_or_none(alice_client, alice):
    job = done_job(alice, [TRIO, ["BS-002", "BS-003", "BS-004"], ["BS-005", "BS-006", "BS-007"]])
    url = f"/collection/photo/{job.token}/add/"
    form = {"place": ["1", "2", "3"], "add": "all"}
    for place, card in (("1", "BS-012"), ("2", "BS-002"), ("3", "BS-005")):
        form.update({f"card-{place}": card, f"quantity-{place}": "1"})
    bad = {**form, "quantity-3": "0"}
    page = alice_client.post(url, bad, follow=True).content.decode()
    assert "Nothing was added." in page and "Card 3 (BS-005): add at least one copy." in page
    assert sel.owned_counts(alice) == {}
    # A card added already (its fields disabled by the page) is not sent again.
    form["place"] = ["2", "3"]
    page = alice_client.post(url, form, follow=True).content.decode()
    assert "Added to your collection: 2 copies (BS-002 ×1, BS-005 ×1)." in page
    assert sel.owned_counts(alice) == {"BS-002": 1, "BS-005": 1}


def test_a_card_that_is_not_among_the_matches_cannot_be_added(alice_client, alice):
    job = done_job(alice, [TRIO])
    response = alice_client.post(
        f"/collection/photo/{job.token}/add/",
        {"place": "1", "add": "1", "card-1": "BS-200", "quantity-1": "1"},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 400
    assert "BS-200 is not one of its matches" in response.json()["errors"][0]["message"]
    assert not CollectionEntry.objects.exists()


def test_someone_elses_reading_is_not_found(bob_client, alice):
    job = done_job(alice, [TRIO])
    assert bob_client.get(f"/collection/photo/{job.token}/").status_code == 404
    response = bob_client.post(
        f"/collection/photo/{job.token}/add/",
        {"place": "1", "add": "1", "card-1": "BS-012", "quantity-1": "1"},
    )
    assert response.status_code == 404 and not CollectionEntry.objects.exists()


def test_a_failed_reading_shows_its_message_and_a_way_on(alice_client, alice):
    job = ReadingJob.objects.create(
        token=secrets.token_hex(16),
        user=alice,
        card_set=CardSet.objects.get(code="BS"),
        kind=ReadingJob.Kind.RECOGNISE,
        status=ReadingJob.Status.FAILED,
        reason=ReadingJob.Reason.BAD_INPUT,
        message="No card was found in the photo.",
    )
    html = alice_client.get(f"/collection/photo/{job.token}/").content.decode()
    assert "No card was found in the photo." in html and "Send another photo" in html
    assert 'id="photo-form"' in html  # the page stays usable


def test_a_photo_for_a_set_not_ready_is_refused_naming_why(alice_client):
    if readings.tools_missing_said():
        pytest.skip("the reading tools are missing")
    response = alice_client.post(
        "/collection/photo/", {"set": "BS", "photo": jpeg_file(b"not an image")}
    )
    assert response.status_code == 400
    assert "mark the set&#x27;s layout" in response.content.decode()
    assert not ReadingJob.objects.exists()


# --- end to end on a synthetic photo -------------------------------------------------------------


@pytest.fixture(scope="module")
def synthetic_set():
    skip_without_tools()
    return synthetic_cards(3)


def test_a_phone_photo_becomes_a_collection_entry(
    alice_client, alice, synthetic_set, django_capture_on_commit_callbacks
):
    cards, scans, photos = synthetic_set
    make_set_ready(alice, cards, scans, photos[0], capture=django_capture_on_commit_callbacks)
    assert [row.card_set.code for row in readings.sets_for_recognition() if row.ready] == ["BS"]
    page = alice_client.get("/collection/photo/").content.decode()
    assert '<option value="BS" selected>' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(
            "/reading/jobs/",
            {"set": "BS", "kind": "recognise", "photo": jpeg_file(photos[1])},
            HTTP_ACCEPT="application/json",
        )
    assert response.status_code == 202, response.content
    state = alice_client.get(response.json()["url"]).json()
    assert state["status"] == "done", state
    (found,) = state["result"]["cards"]
    assert found["top"][0]["card"] == cards[1].id and len(found["box"]) == 4
    html = alice_client.get(f"/collection/photo/{state['token']}/", {"part": "matches"})
    assert f"{cards[1].id} {cards[1].name_ja}" in html.content.decode()
    assert "/scans/" in html.content.decode()  # the approved scan's thumbnail, via the app
    alice_client.post(
        f"/collection/photo/{state['token']}/add/",
        {"place": "1", "add": "1", "card-1": cards[1].id, "quantity-1": "1"},
    )
    assert sel.owned_counts(alice) == {cards[1].id: 1}

    # Without JavaScript the form posts to the page itself, which shows the job's matches.
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(
            "/collection/photo/", {"set": "BS", "photo": jpeg_file(photos[2])}
        )
    assert response.status_code == 302
    html = alice_client.get(response["Location"]).content.decode()
    assert f"{cards[2].id} {cards[2].name_ja}" in html and 'id="photo-add-form"' in html


def test_a_reading_still_running_refreshes_its_page_without_javascript(alice_client, alice):
    job = done_job(alice, [TRIO])
    ReadingJob.objects.filter(pk=job.pk).update(status=ReadingJob.Status.RUNNING, progress=40)
    html = alice_client.get(f"/collection/photo/{job.token}/").content.decode()
    assert '<meta http-equiv="refresh" content="3">' in html
    assert 'value="40"' in html and "this page refreshes itself" in html
    response = alice_client.post(
        f"/collection/photo/{job.token}/add/",
        {"place": "1", "add": "1", "card-1": "BS-012", "quantity-1": "1"},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 409 and not CollectionEntry.objects.exists()
