"""One reader of whole numbers (cardsite/web/numbers.py), and every view that reads one from a
user: "²" (which `str.isdigit()` accepts and `int()` refuses) and 5,000 digits (which `int()`
refuses) are a 4xx or the page's own message, never a 500, and nothing is saved."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from cardsite.web.numbers import NotAWholeNumber, parse_whole_number, whole_number_or
from decks.collections import selectors as sel
from decks.collections.services import collection_entry_set
from decks.models import CollectionEntry, Deck
from decks.selectors import deck_content
from decks.services import deck_create

SUPERSCRIPT = "²"
HUGE = "9" * 5000
BAD_NUMBERS = ["²", "٣", "３", "1_000", " 7", "7 ", "+7", "", None, 7, "9" * 5000]


@pytest.mark.parametrize("text", BAD_NUMBERS, ids=repr)
def test_only_ascii_digits_of_bounded_length_are_a_whole_number(text):
    with pytest.raises(NotAWholeNumber):
        parse_whole_number(text, field="page")


def test_the_message_names_the_field_and_the_range():
    with pytest.raises(NotAWholeNumber, match="quantity: give a whole number from 0 to 999"):
        parse_whole_number("1000", field="quantity", high=999)
    with pytest.raises(NotAWholeNumber, match="page: give a whole number from 1."):
        parse_whole_number(SUPERSCRIPT, field="page", low=1)


def test_signs_only_where_asked_and_bounds_hold():
    assert parse_whole_number("-3", signed=True, low=None) == -3
    assert parse_whole_number("+3", signed=True) == 3
    assert parse_whole_number("0042") == 42
    with pytest.raises(NotAWholeNumber):
        parse_whole_number("-3")
    with pytest.raises(NotAWholeNumber):
        parse_whole_number("-3", signed=True)  # low is 0 unless opened
    with pytest.raises(NotAWholeNumber):
        parse_whole_number("1234", max_digits=3)
    assert whole_number_or(HUGE, "none") == "none"


# -- every reader of a number from a request -------------------------------------------------


@pytest.fixture
def deck(alice, db):
    sample = Deck.objects.filter(is_sample=True).order_by("slug").first()
    return deck_create(owner=alice, name="Numbers", content=deck_content(sample))


@pytest.mark.django_db
@pytest.mark.parametrize("value", [SUPERSCRIPT, HUGE], ids=["superscript", "5000-digits"])
def test_an_api_page_that_is_not_a_number_is_a_400_with_the_error_object(value):
    anonymous = Client(raise_request_exception=False)
    for path in ("/api/cards/", "/api/cards/?format=json&", "/api/decks/"):
        joiner = "&" if path.endswith("&") else "?"
        response = anonymous.get(f"{path.rstrip('&')}{joiner}page={value}")
        assert response.status_code in (400, 404), path
        assert "message" in response.json(), path


@pytest.mark.django_db
@pytest.mark.parametrize("value", [SUPERSCRIPT, HUGE], ids=["superscript", "5000-digits"])
def test_a_card_saved_with_a_quantity_that_is_not_a_number_names_the_field(
    value, alice, alice_client
):
    page = alice_client.post("/collection/cards/BS-001/", {"quantity": value}, follow=True)
    assert page.status_code == 200
    assert "quantity must be a whole number from 0 to 999" in page.content.decode()
    assert not CollectionEntry.objects.filter(owner=alice).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("value", [SUPERSCRIPT, HUGE], ids=["superscript", "5000-digits"])
def test_the_grid_refuses_a_quantity_that_is_not_a_number_and_keeps_what_was_saved(
    value, alice, alice_client
):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=2, for_trade=1)
    page = alice_client.post(
        "/collection/grid/", {"qty-BS-001": value, "qty-BS-002": "1"}, follow=True
    )
    assert page.status_code == 200 and "quantity must be a whole number" in page.content.decode()
    assert sel.owned_counts(alice) == {"BS-001": 2}
    assert CollectionEntry.objects.get(owner=alice).for_trade == 1


@pytest.mark.django_db
@pytest.mark.parametrize("value", [SUPERSCRIPT, HUGE], ids=["superscript", "5000-digits"])
def test_a_csv_import_with_a_cell_that_is_not_a_number_saves_nothing(value, alice, alice_client):
    body = f"card,quantity,for_trade\nBS-001,1,0\nBS-002,{value},0\nBS-003,1,{value}\n"
    upload = SimpleUploadedFile("c.csv", body.encode(), content_type="text/csv")
    page = alice_client.post("/collection/import/", {"file": upload}, follow=True)
    assert page.status_code == 200
    html = page.content.decode()
    assert "quantity must be a whole number" in html and "for_trade must be a whole number" in html
    assert not CollectionEntry.objects.filter(owner=alice).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("value", [SUPERSCRIPT, HUGE], ids=["superscript", "5000-digits"])
def test_the_checklist_refuses_a_delta_that_is_not_a_number_with_json(value, alice_client):
    response = alice_client.post("/collection/add/", {"card": "BS-001", "delta": value})
    assert response.status_code == 400 and "delta" in response.json()["error"]


@pytest.mark.django_db
@pytest.mark.parametrize("value", [SUPERSCRIPT, HUGE], ids=["superscript", "5000-digits"])
def test_an_if_match_that_names_no_version_is_a_400(value, deck, alice):
    client = Client()
    client.force_login(alice)
    response = client.patch(
        f"/api/decks/{deck.slug}/",
        {"name": "Renamed"},
        content_type="application/json",
        HTTP_IF_MATCH=f'"v{value}"',
    )
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "If-Match"
    deck.refresh_from_db()
    assert deck.name == "Numbers"


@pytest.mark.django_db
@pytest.mark.parametrize("value", [SUPERSCRIPT, HUGE], ids=["superscript", "5000-digits"])
def test_pages_with_optional_numbers_ignore_one_that_is_not_a_number(value, deck, alice_client):
    for path in (
        f"/decks/{deck.slug}/?k={value}",
        f"/decks/{deck.slug}/?n={value}",
        f"/decks/{deck.slug}/versions/?a={value}",
        f"/cards/BS-001/history/?b={value}",
        f"/cards/propose/?set=BS&number={value}",
    ):
        assert alice_client.get(path).status_code == 200, path


@pytest.mark.django_db
@pytest.mark.parametrize("value", [SUPERSCRIPT, HUGE], ids=["superscript", "5000-digits"])
def test_a_deck_edit_from_a_version_that_is_not_a_number_is_not_a_server_error(
    value, deck, alice_client
):
    response = alice_client.post(
        f"/decks/{deck.slug}/edit/", {"name": "Renamed", "base_version": value}
    )
    assert response.status_code < 500
