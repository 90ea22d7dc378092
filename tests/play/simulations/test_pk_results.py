"""A PK batch's results page: an exact 0% or 100% says why."""

from unittest.mock import patch

import pytest

from decks.models import Deck
from play.simulations import services

pytestmark = pytest.mark.django_db


def _pk_batch(owner, slug_a: str, slug_b: str):
    with patch("play.simulations.services.queue_chunks"):
        batch = services.batch_create(
            owner=owner,
            request=services.BatchRequest(
                kind="pk",
                deck_a=Deck.objects.get(slug=slug_a),
                deck_b=Deck.objects.get(slug=slug_b),
                runs=50,
                seed=1,
            ),
        )
    for index in range(batch.chunk_count):
        services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    return batch


def test_an_exact_zero_says_that_no_card_beats_their_keeper(alice, alice_client):
    batch = _pk_batch(alice, "sample-bs-basic-set-starter", "sample-cd01-kashima-antlers-2001")
    assert batch.results["exact"] == 0.0
    body = alice_client.get(batch.get_absolute_url()).content.decode()
    assert "Why 0%:" in body
    assert "No card of Basic Set Starter shoots past" in body and "always wins in the end" in body


def test_an_exact_hundred_says_that_no_card_of_theirs_beats_ours(alice, alice_client):
    batch = _pk_batch(alice, "sample-bs-basic-set-starter", "sample-02-2002-starter")
    assert batch.results["exact"] == 1.0
    alice_client.cookies["django_language"] = "ja"
    body = alice_client.get(batch.get_absolute_url()).content.decode()
    assert "100%の理由" in body and "PKゴールキーパー" in body


def test_odds_between_zero_and_one_need_no_reason(alice, alice_client):
    batch = _pk_batch(alice, "sample-cd01-kashima-antlers-2001", "sample-cd01-jubilo-iwata-2001")
    assert 0 < batch.results["exact"] < 1
    assert "pk-certain" not in alice_client.get(batch.get_absolute_url()).content.decode()
