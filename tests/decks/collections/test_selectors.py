"""What a collection says about decks: owned vs needed, the missing list on a deck page,
"copy only what I own", the builder limited to owned cards, the shared pool across a user's
decks, haves and wants, and a trade match."""

import pytest

from decks.collections import selectors as sel
from decks.collections.services import collection_entry_set
from decks.models import Deck
from decks.selectors import deck_content
from decks.services import deck_create

pytestmark = pytest.mark.django_db


def first_card(content):
    return sorted(content.deck)[0]


def test_a_deck_page_shows_a_viewer_what_they_miss(decks_by_visibility, bob, bob_client):
    deck = decks_by_visibility["public"]
    content = deck_content(deck)
    card_id = first_card(content)
    collection_entry_set(owner=bob, card_id=card_id, quantity=4)
    page = bob_client.get(deck.get_absolute_url())
    assert page.status_code == 200
    assert b"Your collection and this deck" in page.content
    (section,) = [
        s for s in page.context["extra_sections"] if s["template"].startswith("decks/collection/")
    ]
    missing = {n.card.id: n for n in section["data"]["missing"]}
    assert missing[card_id].needed == 6 and missing[card_id].owned == 4
    assert missing[card_id].missing == 2
    assert missing[content.goalkeeper].missing == 1


def test_an_anonymous_viewer_gets_no_missing_list(decks_by_visibility, anon_client):
    page = anon_client.get(decks_by_visibility["public"].get_absolute_url())
    assert b"Your collection and this deck" not in page.content


def test_copy_only_what_i_own(decks_by_visibility, bob, bob_client):
    source = decks_by_visibility["public"]
    card_id = first_card(deck_content(source))
    collection_entry_set(owner=bob, card_id=card_id, quantity=4)
    bob_client.post(f"/decks/{source.slug}/copy/", {"owned_only": "1"})
    copy = Deck.objects.get(owner=bob)
    assert deck_content(copy).deck == {card_id: 4}
    assert deck_content(copy).goalkeeper is None


def test_the_builder_can_be_limited_to_owned_cards(alice, alice_client):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=1)
    everything = alice_client.get("/decks/builder/cards/", {"q": "set:BS"})
    owned = alice_client.get("/decks/builder/cards/", {"q": "set:BS", "owned": "1"})
    assert len(everything.context["cards"]) > 1
    assert [c.id for c in owned.context["cards"]] == ["BS-001"]


def test_the_builder_shows_owned_vs_needed(alice, alice_client, legal_content):
    import json

    card_id = first_card(legal_content)
    collection_entry_set(owner=alice, card_id=card_id, quantity=2)
    response = alice_client.post(
        "/decks/builder/preview/", {"draft": json.dumps(legal_content.to_json())}
    )
    needs = {n.card.id: (n.needed, n.owned) for n in response.context["needs"]}
    assert needs[card_id] == (6, 2)
    assert b'data-role="needs"' in response.content


def test_the_shared_pool_lists_cards_over_committed_across_decks(alice, legal_content):
    deck_create(owner=alice, name="One", visibility="private", content=legal_content)
    deck_create(owner=alice, name="Two", visibility="private", content=legal_content)
    card_id = first_card(legal_content)
    collection_entry_set(owner=alice, card_id=card_id, quantity=8)
    lines = {line.card.id: line for line in sel.shared_pool(alice)}
    assert lines[card_id].needed == 12 and lines[card_id].owned == 8 and lines[card_id].short == 4
    assert lines[card_id].decks == [("One", 6), ("Two", 6)]


def test_haves_are_spares_beyond_deck_needs_or_marked(alice, legal_content):
    deck_create(owner=alice, name="One", visibility="private", content=legal_content)
    card_id = first_card(legal_content)
    collection_entry_set(owner=alice, card_id=card_id, quantity=8)
    collection_entry_set(owner=alice, card_id="BS-100", quantity=3)
    collection_entry_set(owner=alice, card_id="BS-101", quantity=1, for_trade=1)
    haves = sel.haves(alice)
    assert haves[card_id] == 2 and haves["BS-100"] == 2 and haves["BS-101"] == 1


def test_wants_are_missing_for_decks_or_marked(alice, legal_content):
    deck_create(owner=alice, name="One", visibility="private", content=legal_content)
    collection_entry_set(owner=alice, card_id="BS-120", quantity=0, wanted=2)
    wants = sel.wants(alice)
    assert wants[first_card(legal_content)] == 6 and wants["BS-120"] == 2


def test_a_trade_match_pairs_haves_with_wants(alice, bob):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=3)
    collection_entry_set(owner=bob, card_id="BS-001", quantity=0, wanted=1)
    collection_entry_set(owner=bob, card_id="BS-002", quantity=2)
    collection_entry_set(owner=alice, card_id="BS-002", quantity=0, wanted=5)
    match = sel.trade_match(bob, alice)
    assert [(c.id, n) for c, n in match["they_give"]] == [("BS-001", 1)]
    assert [(c.id, n) for c, n in match["you_give"]] == [("BS-002", 1)]
