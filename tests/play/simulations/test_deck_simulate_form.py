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
