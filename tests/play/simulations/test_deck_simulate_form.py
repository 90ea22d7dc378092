"""A deck's Simulate form offers only batches that play decks (issue #14).

A Touchdown Heroes batch plays rule variants, not decks: started from a deck it planned 0
chunks that never ran and still counted against the active-batch limit."""

import pytest
from django.urls import reverse

from decks.models import Deck
from play.models import SimulationBatch

pytestmark = pytest.mark.django_db


def sample_deck():
    return Deck.objects.filter(is_sample=True).order_by("slug").first()


def test_the_simulate_form_does_not_offer_a_touchdown_batch(alice_client):
    deck = sample_deck()
    page = alice_client.get(reverse("play:batch-new"), {"deck": deck.slug}).content.decode()
    assert 'value="goldfish"' in page
    assert 'value="touchdown"' not in page


def test_posting_a_touchdown_batch_from_a_deck_is_refused_and_counts_nothing(alice_client):
    deck = sample_deck()
    before = SimulationBatch.objects.count()
    for _ in range(4):  # more than the active-batch limit
        response = alice_client.post(
            reverse("play:batch-new"),
            {
                "deck": deck.slug,
                "kind": "touchdown",
                "policy_a": "greedy",
                "policy_b": "greedy",
                "runs": 10,
            },
        )
        assert response.status_code == 400
        assert "touchdown" in response.content.decode()  # the kind field names the bad choice
    assert SimulationBatch.objects.count() == before
    response = alice_client.post(
        reverse("play:batch-new"),
        {
            "deck": deck.slug,
            "kind": "goldfish",
            "policy_a": "greedy",
            "policy_b": "greedy",
            "runs": 10,
        },
    )
    assert response.status_code == 302  # a deck batch still starts


def test_simulate_without_a_deck_offers_own_and_prebuilt_decks_to_pick(alice_client, alice):
    from decks.services import deck_copy

    own = deck_copy(deck=sample_deck(), owner=alice)
    bob = type(alice).objects.create_user("bob", password="pw-bob-12345")
    other = deck_copy(deck=sample_deck(), owner=bob)
    Deck.objects.filter(pk=other.pk).update(visibility=Deck.Visibility.PUBLIC)
    assert other.is_legal
    page = alice_client.get(reverse("play:batch-new"))
    assert page.status_code == 200
    body = page.content.decode()
    assert f'value="{own.slug}"' in body and f'value="{sample_deck().slug}"' in body
    assert body.index(f'value="{own.slug}"') < body.index(f'value="{sample_deck().slug}"')
    assert other.slug not in body  # someone else's deck is simulated from its own page
    assert 'action="/simulations/new/"' in body and 'method="get"' in body
    listing = alice_client.get(reverse("play:batch-list")).content.decode()
    assert f'href="{reverse("play:batch-new")}"' in listing  # "New simulation"


def test_simulate_with_an_unknown_deck_is_still_a_404(alice_client):
    assert alice_client.get(reverse("play:batch-new"), {"deck": "no-such-deck"}).status_code == 404
    assert alice_client.post(reverse("play:batch-new"), {"kind": "goldfish"}).status_code == 404


def _empty_opponent(page: str) -> str:
    select = page[page.index('name="deck_b"') :]
    return select[select.index('<option value=""') : select.index("</option>")]


@pytest.mark.parametrize("kind", ["pk", "match"])
def test_the_opponent_choice_offers_no_default_where_the_kind_needs_a_deck(alice_client, kind):
    deck = sample_deck()
    url = reverse("play:batch-new")
    page = alice_client.get(url, {"deck": deck.slug, "kind": kind}).content.decode()
    assert "(default)" not in _empty_opponent(page)
    assert "Choose a deck" in _empty_opponent(page)
    refused = alice_client.post(url, {"deck": deck.slug, "kind": kind, "runs": 10})
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "needs an opponent deck" in body and "(default)" not in _empty_opponent(body)


def test_the_opponent_choice_offers_the_goldfish_default_and_tells_the_script_every_kind(
    alice_client,
):
    page = alice_client.get(reverse("play:batch-new"), {"deck": sample_deck().slug}).content
    page = page.decode()
    assert "(default) a prebuilt deck" in _empty_opponent(page)
    assert 'data-empty-follows="kind"' in page and 'data-required-for="pk match"' in page
    assert "&quot;pk&quot;: &quot;Choose a deck&quot;" in page
    assert "&quot;goldfish&quot;: &quot;(default) a prebuilt deck&quot;" in page


def _runs_input(page: str) -> str:
    start = page.index('name="runs"')
    return page[page.rindex("<input", 0, start) : page.index(">", start)]


def test_the_runs_start_at_the_chosen_kinds_default_and_tell_the_script_every_kind(
    alice_client, monkeypatch
):
    """Each kind has its own starting Runs (BatchKind.default_runs): a kind whose runs each
    plan many matches (halftime: every swap on every seed) starts lower, so its default is
    not refused by SIMULATION_MAX_RUNS."""
    from play.simulations import kinds

    halftime = kinds.get("halftime")
    assert kinds.get("goldfish").default_runs == 1000 and halftime.default_runs < 1000
    monkeypatch.setattr(type(kinds.get("matrix")), "default_runs", 37)
    url = reverse("play:batch-new")
    deck = sample_deck()
    goldfish = _runs_input(alice_client.get(url, {"deck": deck.slug}).content.decode())
    assert 'value="1000"' in goldfish
    assert 'data-defaults-follow="kind"' in goldfish
    assert "&quot;matrix&quot;: 37" in goldfish
    assert f"&quot;halftime&quot;: {halftime.default_runs}" in goldfish
    assert "touchdown" not in goldfish  # a kind the form does not offer
    matrix = alice_client.get(url, {"deck": deck.slug, "kind": "matrix"}).content.decode()
    assert 'value="37"' in _runs_input(matrix)
    # A refused form keeps the number the person sent, whatever the kind's default.
    refused = alice_client.post(url, {"deck": deck.slug, "kind": "matrix", "runs": 0})
    assert refused.status_code == 400 and 'value="0"' in _runs_input(refused.content.decode())
    # A form made in code (the deck page makes one) starts at its chosen kind's default.
    from play.simulations.forms import SimulationForm

    form = SimulationForm(user=None, initial={"kind": "halftime"})
    assert form["runs"].value() == halftime.default_runs


def test_swap_suggestions_from_the_form_take_their_source_and_cards_out(alice, alice_client):
    """Issue #29 item 2: the in-cards come from the catalogue or the collection, chosen on the
    form, and a few cards to take out narrow the search; the service's refusals land on those
    fields."""
    from unittest.mock import patch

    from decks.models import CollectionEntry
    from decks.services import deck_copy

    deck = deck_copy(deck=sample_deck(), owner=alice)
    page = alice_client.get(reverse("play:batch-new"), {"deck": deck.slug}).content.decode()
    assert 'data-shown-for="swaps"' in page and 'name="swap_source"' in page
    version = deck.versions.get().content["deck"]
    out = sorted(version)[:2]
    for card_id in version:
        assert f'value="{card_id}"' in page  # every card of the deck can be ticked
    form = {
        "deck": deck.slug,
        "kind": "swaps",
        "policy_a": "greedy",
        "policy_b": "greedy",
        "runs": 2,
    }
    # the collection holds nothing: refused on the source field, nothing queued
    response = alice_client.post(
        reverse("play:batch-new"), {**form, "swap_source": "collection", "swap_out": out}
    )
    assert response.status_code == 400 and not SimulationBatch.objects.exists()
    assert 'href="#id_swap_source"' in response.content.decode()
    CollectionEntry.objects.create(owner=alice, card_id="02-161", quantity=4)
    with patch("play.simulations.services.queue_chunks"):
        response = alice_client.post(
            reverse("play:batch-new"), {**form, "swap_source": "collection", "swap_out": out}
        )
    assert response.status_code == 302
    batch = SimulationBatch.objects.get()
    assert batch.kind == "swaps" and batch.params["source"] == "collection"
    assert {swap[0] for swap in batch.params["swaps"]} <= set(out)
    assert {swap[1] for swap in batch.params["swaps"]} == {"02-161"}
    # a card that is not in the deck cannot be ticked
    response = alice_client.post(reverse("play:batch-new"), {**form, "swap_out": ["99-999"]})
    assert response.status_code == 400 and "99-999" in response.content.decode()
