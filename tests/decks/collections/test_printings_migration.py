"""The printings migrations (catalog 0009_printings, decks 0003_collection_printings) on data
made at the state before them: every card gets its first printing, and every collection
quantity, trade mark, condition and language lands on it (issue #24 item 4)."""

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("catalog", "0008_scan_uploads"), ("decks", "0002_catalog_changes_seen")]
AFTER = [("catalog", "0009_printings"), ("decks", "0003_collection_printings")]

# Transactional: schema changes cannot run inside the test's transaction on SQLite.
pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_every_card_gets_a_first_printing_and_every_quantity_moves_onto_it():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(BEFORE)
    User = old.get_model("auth", "User")
    Card = old.get_model("catalog", "Card")
    Entry = old.get_model("decks", "CollectionEntry")
    owner = User.objects.create(username="collector")
    other = User.objects.create(username="trader")
    CardSet = old.get_model("catalog", "CardSet")
    # Cards of its own: a transactional test before this one may have emptied the catalog.
    zm = CardSet.objects.create(
        code="ZM",
        name="Migration",
        name_ja="移行",
        released=date(2001, 1, 1),
        kind="expansion",
        kinds_count=2,
        display_order=990,
    )
    card, second = (
        Card.objects.create(
            id=f"ZM-00{n}",
            card_set=zm,
            number=n,
            name=f"Event {n}",
            kind="event",
            effect="draw:1",
            is_sample=n == 2,
        )
        for n in (1, 2)
    )
    rows = [
        (owner, card, "", "", 3, 1, 0),
        (owner, card, "mint", "ja", 2, 0, 1),
        (owner, card, "damaged", "en", 1, 1, 0),
        (owner, second, "", "", 0, 0, 4),  # a want only
        (other, card, "played", "", 5, 5, 0),
    ]
    for user, c, condition, language, quantity, for_trade, wanted in rows:
        Entry.objects.create(
            owner=user,
            card=c,
            condition=condition,
            language=language,
            quantity=quantity,
            for_trade=for_trade,
            wanted=wanted,
        )
    cards = Card.objects.count()

    new = _migrate(AFTER)
    Printing = new.get_model("catalog", "Printing")
    Entry = new.get_model("decks", "CollectionEntry")
    assert Printing.objects.count() == cards
    assert Printing.objects.exclude(kind="first").count() == 0
    first = Printing.objects.get(card_id=card.pk)
    assert (first.card_set_id, first.number, first.code) == (card.card_set_id, card.number, card.pk)
    assert Printing.objects.get(card_id=second.pk).is_sample is True
    assert first.is_sample is False
    after = sorted(
        (e.owner_id, e.card_id, e.printing_id, e.condition, e.language)
        + (e.quantity, e.for_trade, e.wanted)
        for e in Entry.objects.all()
    )
    expected = sorted(
        (
            u.pk,
            c.pk,
            Printing.objects.get(card_id=c.pk, kind="first").pk,
            condition,
            language,
            quantity,
            for_trade,
            wanted,
        )
        for u, c, condition, language, quantity, for_trade, wanted in rows
    )
    assert after == expected

    _migrate(leaves)  # back to the latest state for the tests after this one
