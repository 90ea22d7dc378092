"""The batch-kind registry: a kind is one object, and a new kind needs no other file."""

from unittest.mock import patch

import pytest
from django.template.loader import render_to_string

from decks.models import Deck
from play.models import SimulationBatch
from play.simulations import kinds, selectors, services
from play.simulations.kinds.base import DeckKind


class CoinKind(DeckKind):
    """A throwaway kind: deck A against deck B, where every run is a coin toss."""

    key = "coin"
    label = "Coin tosses"
    order = 99
    keeps_logs = False
    needs_opponent = True

    def run_chunk(self, *, sides, params, spec, seed, keep_logs):
        heads = sum((seed >> bit) & 1 for bit in range(spec.runs))
        return {"runs": spec.runs, "heads": heads}, []

    def summarize_merged(self, merged, *, params):
        return {"runs": merged["runs"], "heads": merged["heads"]}


@pytest.fixture
def decks(db):
    return list(Deck.objects.filter(is_sample=True).order_by("slug"))


@pytest.fixture
def coin_kind(settings):
    settings.SIMULATION_CHUNK_SIZE = {"coin": 10}
    kind = kinds.register(CoinKind())
    yield kind
    kinds.unregister("coin")


def test_every_kind_is_registered_once_in_display_order():
    assert kinds.keys() == (
        "pk",
        "goldfish",
        "match",
        "gauntlet",
        "cards",
        "swaps",
        "halftime",
        "matrix",
        "touchdown",
    )
    with pytest.raises(ValueError, match="registered twice"):
        kinds.register(kinds.get("pk"))


def test_every_kind_names_templates_that_exist():
    from django.template.loader import get_template

    for kind in kinds.all_kinds():
        get_template(kind.heading_template)
        get_template(kind.results_template)


def coin_batch(owner, decks, runs):
    with patch("play.simulations.services.queue_chunks"):
        return services.batch_create(
            owner=owner,
            request=services.BatchRequest(
                kind="coin", deck_a=decks[0], deck_b=decks[1], runs=runs, seed=5
            ),
        )


def test_a_throwaway_kind_is_planned_run_and_summarised_without_other_changes(
    alice, decks, coin_kind
):
    batch = coin_batch(alice, decks, 25)
    assert kinds.get(batch.kind).label == "Coin tosses"
    assert list(batch.chunks.values_list("runs", flat=True)) == [10, 10, 5]
    for index in range(batch.chunk_count):
        services.chunk_run(batch_id=batch.id, index=index)
    batch.refresh_from_db()
    assert batch.status == SimulationBatch.Status.DONE
    assert batch.results["kind"] == "coin"
    assert batch.results["runs"] == 25
    assert 0 < batch.results["heads"] < 25
    assert batch.results == selectors.batch_results(batch)
    assert not batch.sample_logs.exists()


def test_a_throwaway_kind_checks_its_own_needs(alice, decks, coin_kind):
    with pytest.raises(services.BatchInvalid) as caught:
        services.batch_create(
            owner=alice, request=services.BatchRequest(kind="coin", deck_a=decks[0], runs=5)
        )
    assert caught.value.errors["deck_b"][0] == "This kind of batch needs an opponent deck."


def test_an_unknown_kind_is_refused_with_the_registered_kinds(alice):
    with pytest.raises(services.BatchInvalid) as caught:
        services.batch_create(owner=alice, request=services.BatchRequest(kind="chess", runs=5))
    assert caught.value.errors["kind"] == [
        "Unknown kind 'chess': use pk, goldfish, match, gauntlet, cards, swaps, halftime, "
        "matrix, touchdown."
    ]


def test_the_batch_list_shows_each_kind_by_its_own_words(alice, decks, coin_kind):
    batch = coin_batch(alice, decks, 5)
    html = render_to_string("play/batch_list.html", {"batches": [batch]})
    assert "Coin tosses" in html
