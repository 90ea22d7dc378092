"""Deck write paths: versions on every saved change, failed saves that change nothing,
database constraints, copy, text import (all or nothing) and the sample prebuilt decks."""

from dataclasses import replace

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from catalog.models import Card
from catalog.services import catalog_load
from decks.content import DeckContent
from decks.formats.export import deck_as_json, deck_as_text
from decks.models import Deck, DeckEntry, DeckVersion
from decks.selectors import deck_content, deck_problems_now
from decks.services import (
    SYSTEM_USERNAME,
    DeckImportError,
    DeckSaveError,
    deck_copy,
    deck_create,
    deck_import_text,
    deck_save,
)

pytestmark = pytest.mark.django_db


def test_creating_a_deck_makes_version_one_with_a_snapshot(alice, legal_content):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    assert deck.is_legal and deck.owner == alice and len(deck.slug) >= 16
    version = deck.versions.get()
    assert (version.number, version.editor, version.is_legal) == (1, alice, True)
    assert DeckContent.from_json(version.content) == legal_content
    assert deck_content(deck) == legal_content


def test_every_saved_change_makes_a_version_and_no_change_makes_none(alice, legal_content):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    first = next(iter(legal_content.deck))
    changed = replace(legal_content, deck={**legal_content.deck, first: 5})
    version = deck_save(deck=deck, editor=alice, content=changed)
    assert version.number == 2 and not version.is_legal and not deck.is_legal
    assert version.summary == f"deck −1 {first}"
    assert deck_save(deck=deck, editor=alice, content=changed) is None
    renamed = deck_save(deck=deck, editor=alice, content=changed, name="Defence")
    assert renamed.number == 3 and "renamed" in renamed.summary and renamed.name == "Defence"
    assert list(deck.versions.values_list("number", flat=True)) == [3, 2, 1]


def test_a_save_naming_an_unknown_card_explains_and_changes_nothing(alice, legal_content):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    broken = replace(legal_content, deck={**legal_content.deck, "BS-999": 1})
    with pytest.raises(DeckSaveError) as exc:
        deck_save(deck=deck, editor=alice, content=broken, name="Renamed")
    assert "BS-999 is not in the catalog" in exc.value.messages[0]
    deck.refresh_from_db()
    assert deck.name == "Attack" and deck.versions.count() == 1
    assert deck_content(deck) == legal_content


def test_a_card_a_deck_holds_cannot_be_removed_from_the_catalog(alice, legal_content):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    first = next(iter(legal_content.deck))
    with pytest.raises(ProtectedError):
        Card.objects.filter(id=first).delete()
    assert deck_content(deck) == legal_content and deck_problems_now(deck) == []


def test_the_database_refuses_zero_quantities_and_duplicate_rows(alice, legal_content):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    card = next(iter(legal_content.deck))
    with pytest.raises(IntegrityError), transaction.atomic():
        DeckEntry.objects.create(deck=deck, card_id=card, zone="deck", quantity=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        DeckEntry.objects.create(deck=deck, card_id=card, zone="bench", quantity=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        DeckEntry.objects.create(deck=deck, card_id=card, zone="hand", quantity=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        DeckVersion.objects.create(deck=deck, number=1, name="x", content={}, is_legal=True)
    DeckEntry.objects.create(deck=deck, card_id=card, zone="bench", quantity=1)


def test_copying_records_the_source_and_the_same_cards(alice, bob, legal_content):
    source = deck_create(owner=alice, name="Attack", visibility="public", content=legal_content)
    copy = deck_copy(deck=source, owner=bob)
    assert copy.owner == bob and copy.copied_from == source and copy.visibility == "private"
    assert deck_content(copy) == legal_content and copy.slug != source.slug
    assert "copied from" in copy.versions.get().summary


def test_import_with_bad_lines_reports_each_line_and_saves_nothing(alice):
    before = Deck.objects.count()
    text = "name: X\ngoalkeeper: BS-001\ndeck:\n4 BS-002\n4 BS-998\nfour BS-003\n2 ZZ-001\n"
    with pytest.raises(DeckImportError) as exc:
        deck_import_text(owner=alice, text=text)
    assert [e.line for e in exc.value.errors] == [5, 6, 7]
    assert "unknown card id BS-998" in exc.value.errors[0].message
    assert "expected a card line" in exc.value.errors[1].message
    assert "unknown card id ZZ-001" in exc.value.errors[2].message
    assert Deck.objects.count() == before


def test_an_illegal_but_readable_import_is_saved_as_a_draft(alice):
    deck = deck_import_text(owner=alice, text="deck:\n4 BS-002\n", name="Draft")
    assert deck.name == "Draft" and not deck.is_legal
    assert deck_content(deck) == DeckContent(deck={"BS-002": 4})


def test_export_then_import_gives_the_same_deck_and_the_same_text(alice, legal_content):
    keeper = Card.objects.filter(kind="goalkeeper").order_by("id")[3]
    event = Card.objects.filter(kind="event").order_by("id").first()
    content = replace(legal_content, pk_goalkeeper=keeper.id, bench={keeper.id: 1, event.id: 2})
    deck = deck_create(owner=alice, name="Round trip", description="d", content=content)
    text = deck_as_text(deck)
    again = deck_import_text(owner=alice, text=text)
    assert again.name == "Round trip" and deck_content(again) == content
    assert deck_as_text(again) == text
    data = deck_as_json(deck)
    assert data["goalkeeper"] == content.goalkeeper and data["text"] == text
    assert {e["card"]: e["quantity"] for e in data["bench"]} == content.bench


def test_load_catalog_makes_one_legal_public_sample_deck_per_prebuilt_or_starter_product():
    samples = Deck.objects.filter(is_sample=True)
    by_set = sorted(d.slug.split("-")[1] for d in samples)
    assert by_set == ["02", "bs", "cd00", "cd00", "cd01", "cd01"]
    assert all(d.is_legal and d.visibility == "public" for d in samples)
    assert {d.owner.username for d in samples} == {SYSTEM_USERNAME}
    assert not samples[0].owner.has_usable_password()
    assert all(deck_problems_now(d) == [] for d in samples)
    kashima = Deck.objects.get(slug="sample-cd00-kashima-antlers-2000")
    assert kashima.name == "Kashima Antlers 2000"
    cd01 = Deck.objects.get(slug="sample-cd01-kashima-antlers-2001")
    assert cd01.pk_goalkeeper_id and cd01.entries.filter(zone="bench").exists()


def test_loading_the_catalog_again_changes_no_sample_deck():
    before = list(
        Deck.objects.filter(is_sample=True).order_by("slug").values_list("slug", "updated_at")
    )
    versions = DeckVersion.objects.count()
    catalog_load()
    after = list(
        Deck.objects.filter(is_sample=True).order_by("slug").values_list("slug", "updated_at")
    )
    assert after == before and DeckVersion.objects.count() == versions
