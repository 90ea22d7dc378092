"""Collections per printing and condition (issue #24 item 4): rows per (printing, condition,
language) through the services, the card page, the bulk grid, the API and CSV (a round trip,
old files without the new columns, bad lines named, nothing partly applied); every "cards I
own" count sums over printings; deck legality and needs count the card whatever its printing
(R-DECK-1..3 count cards)."""

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from catalog.models import Card
from decks.collections import selectors as sel
from decks.collections.services import (
    CollectionError,
    collection_add_copies,
    collection_entry_set,
    collection_import_csv,
)
from decks.content import DeckContent
from decks.legality import content_problems
from decks.models import CollectionEntry
from tests.printings import make_printings

pytestmark = pytest.mark.django_db


@pytest.fixture
def printed(db):
    return make_printings()


@pytest.fixture
def spread(alice, printed):
    """alice owns BS-001 in three printings and conditions, and wants a promo BS-002."""
    collection_entry_set(owner=alice, card_id="BS-001", quantity=2)
    collection_entry_set(
        owner=alice, card_id="BS-001", printing="ZP-007", quantity=1, condition="mint"
    )
    collection_entry_set(
        owner=alice,
        card_id="BS-001",
        printing="bs-001-FOIL",
        quantity=3,
        for_trade=1,
        condition="excellent",
        language="ja",
    )
    collection_entry_set(owner=alice, card_id="BS-002", printing="ZP-008", quantity=0, wanted=2)
    return alice


def rows(user) -> list[tuple]:
    return [
        (r["card"], r["printing"], r["condition"], r["language"], r["quantity"], r["for_trade"])
        + (r["wanted"],)
        for r in sel.export_rows(user)
    ]


SPREAD = [
    ("BS-001", "BS-001", "", "", 2, 0, 0),
    ("BS-001", "BS-001-foil", "excellent", "ja", 3, 1, 0),
    ("BS-001", "ZP-007", "mint", "", 1, 0, 0),
    ("BS-002", "ZP-008", "", "", 0, 0, 2),
]


def test_rows_are_kept_per_printing_and_condition(spread):
    assert rows(spread) == SPREAD
    entry = CollectionEntry.objects.get(owner=spread, printing__code="ZP-007")
    assert entry.card_id == "BS-001"  # the row's card is its printing's


def test_owned_counts_and_wants_sum_over_printings_and_conditions(spread):
    assert sel.owned_counts(spread) == {"BS-001": 6}
    assert sel.wants(spread) == {"BS-002": 2}
    assert sel.haves(spread) == {"BS-001": 5}  # 6 owned over printings, one kept
    assert set(Card.objects.filter(sel.owned_card_ids_q(spread, at_least=6))) == {
        Card.objects.get(id="BS-001")
    }


def test_adding_a_copy_goes_to_the_first_printing_not_recorded(spread):
    assert collection_add_copies(owner=spread, card_id="BS-001", delta=1) == 3
    assert sel.owned_counts(spread) == {"BS-001": 7}


def test_a_printing_of_another_card_is_refused_naming_the_field(spread):
    with pytest.raises(CollectionError) as caught:
        collection_entry_set(owner=spread, card_id="BS-002", printing="ZP-007", quantity=1)
    assert caught.value.messages == ["Entry 1: printing “ZP-007” is not a printing of card BS-002."]
    assert rows(spread) == SPREAD


# --- CSV --------------------------------------------------------------------------------------


def test_csv_round_trip_keeps_printings_conditions_and_marks(spread, bob):
    exported = sel.export_csv(spread)
    assert exported.splitlines()[0] == "card,printing,quantity,condition,language,for_trade,wanted"
    assert "BS-001,ZP-007,1,mint,,0,0" in exported.splitlines()
    assert collection_import_csv(owner=bob, data=exported.encode(), replace=True) == 4
    assert rows(bob) == SPREAD


def test_an_old_csv_without_printing_and_condition_goes_onto_the_first_printing(alice, printed):
    collection_import_csv(owner=alice, data=b"card,quantity\nBS-001,2\nbs-002,1\n")
    assert rows(alice) == [
        ("BS-001", "BS-001", "", "", 2, 0, 0),
        ("BS-002", "BS-002", "", "", 1, 0, 0),
    ]


def test_a_bad_csv_names_each_line_and_field_and_applies_nothing(spread):
    data = (
        "card,printing,quantity,condition\n"
        "BS-004,,1,good\n"  # fine
        "BS-002,ZP-007,1,\n"  # ZP-007 is BS-001's
        "BS-001,ZZ-001,1,\n"  # no such printing
        "BS-001,ZP-007,1,superb\n"  # unknown condition
        "BS-001,bs-001-foil,1,mint\n"
        "BS-001,BS-001-FOIL,2,mint\n"  # the same printing and variant again
    )
    with pytest.raises(CollectionError) as caught:
        collection_import_csv(owner=spread, data=data.encode(), replace=True)
    assert caught.value.messages == [
        "Line 5: unknown condition “superb” (known: mint, near_mint, excellent, good, played, "
        "damaged).",
        "Line 3: printing “ZP-007” is not a printing of card BS-002.",
        "Line 4: printing “ZZ-001” is not a printing of card BS-001.",
        "Line 7: the same printing and variant as Line 6.",
    ]
    assert rows(spread) == SPREAD


def test_csv_errors_are_said_in_japanese(spread):
    from django.utils import translation

    with translation.override("ja"), pytest.raises(CollectionError) as caught:
        collection_import_csv(owner=spread, data=b"card,printing,quantity\nBS-002,ZP-007,1\n")
    assert caught.value.messages == ["2 行目：版「ZP-007」はカード BS-002 の版ではありません。"]


# --- the API ----------------------------------------------------------------------------------


@pytest.fixture
def api(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=alice).key}")
    return client


def put(client, url, body):
    return client.put(url, json.dumps(body), content_type="application/json")


def test_the_api_reads_and_writes_rows_per_printing(api, spread):
    entries = api.get("/api/collection/").json()["entries"]
    assert [(e["printing"], e["condition"], e["quantity"]) for e in entries] == [
        ("BS-001", "", 2),
        ("BS-001-foil", "excellent", 3),
        ("ZP-007", "mint", 1),
        ("ZP-008", "", 0),
    ]
    body = {
        "entries": [
            {"card": "BS-001", "printing": "ZR-001", "quantity": 2, "condition": "played"},
            {"card": "BS-001", "quantity": 1},
            {"card": "BS-003", "printing": "bs-003-parallel", "quantity": 1, "condition": "good"},
        ]
    }
    response = put(api, "/api/collection/", body)
    assert response.status_code == 200, response.json()
    assert rows(spread) == [
        ("BS-001", "BS-001", "", "", 1, 0, 0),
        ("BS-001", "ZR-001", "played", "", 2, 0, 0),
        ("BS-003", "BS-003-parallel", "good", "", 1, 0, 0),
    ]
    card = api.get("/api/collection/cards/BS-001/").json()
    assert card["copies"] == 3
    assert [e["printing"] for e in card["entries"]] == ["BS-001", "ZR-001"]


def test_the_api_names_a_bad_printing_by_index_and_saves_nothing(api, spread):
    body = {
        "entries": [
            {"card": "BS-001", "printing": "ZP-007", "quantity": 1},
            {"card": "BS-002", "printing": "ZP-007", "quantity": 1},
            {"card": "BS-001", "printing": "zp-007", "quantity": 2},
            {"card": "BS-001", "printing": "x" * 21, "quantity": 2},
        ]
    }
    response = put(api, "/api/collection/", body)
    assert response.status_code == 400
    errors = {e["field"]: e["message"] for e in response.json()["errors"]}
    assert errors["entries[1].printing"] == ("printing “ZP-007” is not a printing of card BS-002.")
    assert errors["entries[2]"] == "The same printing and variant as entry 0."
    assert "entries[3].printing" in errors
    assert rows(spread) == SPREAD
    one = put(
        api, "/api/collection/cards/BS-002/", {"entries": [{"printing": "ZR-001", "quantity": 1}]}
    )
    assert one.status_code == 400
    assert [e["field"] for e in one.json()["errors"]] == ["entries[0].printing"]


# --- pages ------------------------------------------------------------------------------------


def test_the_card_page_edits_a_printing_and_condition(alice_client, alice, printed):
    response = alice_client.post(
        "/collection/cards/BS-001/",
        {"printing": "ZP-007", "quantity": "2", "condition": "good", "language": "ja"},
    )
    assert response.status_code == 302
    assert rows(alice) == [("BS-001", "ZP-007", "good", "ja", 2, 0, 0)]
    html = alice_client.get("/cards/BS-001/").content.decode()
    assert '<option value="ZP-007">ZP-007 · Magazine promo</option>' in html
    assert '<input type="hidden" name="printing" value="ZP-007">' in html
    alice_client.cookies["django_language"] = "ja"
    html = alice_client.get("/cards/BS-001/").content.decode()
    assert "並品" in html and "良品" in html and "初版" in html
    page = alice_client.post(
        "/collection/cards/BS-002/", {"printing": "ZP-007", "quantity": "1"}, follow=True
    )
    assert "版「ZP-007」はカード BS-002 の版ではありません。" in page.content.decode()
    assert sel.owned_counts(alice) == {"BS-001": 2}


def test_the_grid_lists_and_saves_each_printing_of_a_set(alice_client, alice, printed):
    html = alice_client.get("/collection/", {"set": "ZP"}).content.decode()
    assert 'name="qty-ZP-007" value="0"' in html and 'name="qty-ZP-008" value="0"' in html
    html = alice_client.get("/collection/", {"set": "BS"}).content.decode()
    assert 'name="qty-BS-001"' in html and 'name="qty-BS-001-foil"' in html
    response = alice_client.post("/collection/grid/", {"qty-ZP-007": "2", "qty-BS-001": "1"})
    assert response.status_code == 302
    assert rows(alice) == [
        ("BS-001", "BS-001", "", "", 1, 0, 0),
        ("BS-001", "ZP-007", "", "", 2, 0, 0),
    ]
    html = alice_client.get("/collection/", {"set": "ZP"}).content.decode()
    assert 'name="qty-ZP-007" value="2"' in html
    assert "3 copies of this card in all printings and conditions" in html
    alice_client.post("/collection/grid/", {"qty-ZP-007": "5", "qty-ZP-999": "1"})
    assert sel.owned_counts(alice) == {"BS-001": 3}  # nothing saved


# --- decks count the card -------------------------------------------------------------------


def test_deck_needs_count_copies_over_printings(alice, legal_content, printed):
    card_id = next(iter(legal_content.deck))
    first = Card.objects.get(id=card_id).printings.get(kind="first")
    promo = Card.objects.get(id=card_id).printings.create(
        card_set_id="ZP", number=30, kind="promo", is_sample=True
    )
    collection_entry_set(owner=alice, card_id=card_id, printing=first.code, quantity=2)
    collection_entry_set(owner=alice, card_id=card_id, printing=promo.code, quantity=3)
    needs = {n.card.id: n.missing for n in sel.deck_missing(legal_content, alice)}
    assert needs[card_id] == 1  # 6 needed, 2 + 3 owned over two printings
    collection_entry_set(
        owner=alice, card_id=card_id, printing=promo.code, quantity=1, condition="damaged"
    )
    needs = {n.card.id: n.missing for n in sel.deck_missing(legal_content, alice)}
    assert card_id not in needs


def test_legality_counts_the_card_whatever_its_printing(legal_content, printed):
    # BS-001 has four printings; the deck still holds the card, counted once per copy.
    cards = Card.objects.in_bulk(list(legal_content.card_ids()) + ["BS-001"])
    assert content_problems(legal_content, cards) == []
    deck = dict(legal_content.deck)
    deck[next(iter(deck))] -= 1
    short = DeckContent(goalkeeper=legal_content.goalkeeper, deck={**deck, "BS-001": 1})
    size = [p.key for p in content_problems(short, cards)]
    assert "deck_size" not in size  # 60 cards: a card with four printings counts once a copy


def test_haves_and_wants_show_their_printings(spread, alice_client, bob_client):
    marks = sel.marks_by_printing(spread, "for_trade")
    assert marks == {"BS-001": [sel.PrintingMark("BS-001-foil", "Foil", 1)]}
    assert sel.marks_by_printing(spread, "wanted") == {
        "BS-002": [sel.PrintingMark("ZP-008", "Promo", 2)]
    }
    html = alice_client.get("/collection/trade/").content.decode()
    assert '<span data-printing="BS-001-foil"><code>BS-001-foil</code> Foil ×1</span>' in html
    assert '<span data-printing="ZP-008"><code>ZP-008</code> Promo ×2</span>' in html
    collection = sel.collection_for_owner(spread)
    from decks.collections.services import collection_set_visibility

    collection_set_visibility(owner=spread, visibility="link")
    collection.refresh_from_db()
    shared = bob_client.get(f"/collection/s/{collection.slug}/").content.decode()
    assert 'data-printing="ZP-008"' in shared
    alice_client.cookies["django_language"] = "ja"
    html = alice_client.get("/collection/trade/").content.decode()
    assert "印をつけた版：" in html and "ホイル ×1" in html
