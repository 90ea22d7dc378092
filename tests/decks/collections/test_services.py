"""Collections: the database constraints, one-card writes, the grid/API save and CSV import
(all or nothing, each bad line named, bounded size), and the exports."""

import json

import pytest
from django.db import IntegrityError, transaction

from decks.collections import selectors as sel
from decks.collections.services import (
    MAX_CSV_BYTES,
    CollectionError,
    collection_add_copies,
    collection_entries_save,
    collection_entry_set,
    collection_import_csv,
)
from decks.models import Collection, CollectionEntry

pytestmark = pytest.mark.django_db


def test_a_negative_quantity_is_refused_by_the_database(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        CollectionEntry.objects.create(owner=alice, card_id="BS-001", quantity=-1)


def test_one_row_per_user_card_and_variant(alice):
    CollectionEntry.objects.create(owner=alice, card_id="BS-001", quantity=1)
    CollectionEntry.objects.create(owner=alice, card_id="BS-001", quantity=1, language="ja")
    with pytest.raises(IntegrityError), transaction.atomic():
        CollectionEntry.objects.create(owner=alice, card_id="BS-001", quantity=2)


def test_copies_for_trade_cannot_exceed_copies_owned(alice):
    with pytest.raises(IntegrityError), transaction.atomic():
        CollectionEntry.objects.create(owner=alice, card_id="BS-001", quantity=1, for_trade=2)


def test_a_collection_is_private_by_default(alice):
    collection_add_copies(owner=alice, card_id="BS-001", delta=1)
    assert Collection.objects.get(owner=alice).visibility == "private"


def test_adding_and_removing_copies_never_goes_below_zero(alice):
    assert collection_add_copies(owner=alice, card_id="bs-001", delta=1) == 1
    assert collection_add_copies(owner=alice, card_id="BS-001", delta=1) == 2
    assert collection_add_copies(owner=alice, card_id="BS-001", delta=-1) == 1
    assert collection_add_copies(owner=alice, card_id="BS-001", delta=-1) == 0
    assert collection_add_copies(owner=alice, card_id="BS-001", delta=-1) == 0
    assert not CollectionEntry.objects.filter(owner=alice).exists()


def test_variants_add_up_in_the_owned_count(alice):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=2)
    collection_entry_set(owner=alice, card_id="BS-001", quantity=1, condition="mint", language="ja")
    assert sel.owned_counts(alice) == {"BS-001": 3}


def test_a_bad_entry_saves_nothing_and_names_every_problem(alice):
    items = [
        {"card": "BS-001", "quantity": 2},
        {"card": "XX-999", "quantity": 1},
        {"card": "BS-002", "quantity": -3},
        {"card": "BS-003", "quantity": 1, "condition": "shiny"},
    ]
    with pytest.raises(CollectionError) as error:
        collection_entries_save(owner=alice, items=items)
    text = " ".join(error.value.messages)
    assert "Entry 2" in text and "XX-999" in text
    assert "Entry 3" in text and "Entry 4" in text and "shiny" in text
    assert not CollectionEntry.objects.filter(owner=alice).exists()


def test_replace_makes_the_collection_exactly_the_given_entries(alice):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=2)
    collection_entries_save(owner=alice, items=[{"card": "BS-002", "quantity": 1}], replace=True)
    assert sel.owned_counts(alice) == {"BS-002": 1}


GOOD_CSV = (
    b"card,quantity,condition,language,for_trade,wanted\n"
    b"BS-001,3,mint,ja,1,0\nbs-002,1,,,,\n\nBS-003,0,,,,2\n"
)


def test_a_good_csv_is_imported_whole(alice):
    assert collection_import_csv(owner=alice, data=GOOD_CSV) == 3
    assert sel.owned_counts(alice) == {"BS-001": 3, "BS-002": 1}
    want = CollectionEntry.objects.get(owner=alice, card_id="BS-003")
    assert want.quantity == 0 and want.wanted == 2


def test_a_bad_csv_names_each_bad_line_and_saves_nothing(alice):
    collection_entry_set(owner=alice, card_id="BS-010", quantity=1)
    data = b"card,quantity\nBS-001,2\nNOPE-1,1\nBS-002,two\nBS-003\nBS-001,1\n"
    with pytest.raises(CollectionError) as error:
        collection_import_csv(owner=alice, data=data, replace=True)
    text = " ".join(error.value.messages)
    for line in ("Line 3", "Line 4", "Line 5", "Line 6"):
        assert line in text
    assert not any(m.startswith("Line 2:") for m in error.value.messages)
    assert sel.owned_counts(alice) == {"BS-010": 1}


@pytest.mark.parametrize(
    "data",
    [b"", b"name,count\nBS-001,1\n", b"\xff\xfe\x00", b"card,quantity\n" + b"BS-001,1\n" * 10],
)
def test_malformed_csv_files_are_refused_with_a_message(alice, data):
    if data.count(b"\n") > 5:
        data = b"card,quantity\n" + b"x" * (MAX_CSV_BYTES + 1)
    with pytest.raises(CollectionError) as error:
        collection_import_csv(owner=alice, data=data)
    assert error.value.messages


def test_the_csv_export_reads_back_as_the_same_collection(alice, bob):
    collection_import_csv(owner=alice, data=GOOD_CSV)
    exported = sel.export_csv(alice).encode()
    collection_import_csv(owner=bob, data=exported)
    assert sel.export_rows(bob) == sel.export_rows(alice)
    assert json.loads(json.dumps(sel.export_rows(alice)))[0]["card"] == "BS-001"
