"""Batch services without workers: idempotent chunks, cancel, failure, validation, API, pages."""

from unittest.mock import patch

import pytest
from django.test import override_settings

from decks.models import Deck
from play.models import MatchLog, SimulationBatch, SimulationChunk
from play.simulations import selectors, services

pytestmark = pytest.mark.django_db

CHUNKS = {"pk": 100, "goldfish": 10, "match": 10, "gauntlet": 10}


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.SIMULATION_CHUNK_SIZE = CHUNKS


@pytest.fixture
def decks():
    return list(Deck.objects.filter(is_sample=True).order_by("slug"))


@pytest.fixture
def queued():
    with patch("play.simulations.services.queue_chunks") as queue:
        yield queue


def make(owner, decks, kind="goldfish", runs=25, seed=3):
    return services.batch_create(
        owner=owner,
        request=services.BatchRequest(
            kind=kind, deck_a=decks[0], deck_b=decks[1], runs=runs, seed=seed
        ),
    )


def run_all(batch):
    for index in range(batch.chunk_count):
        services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    return batch


def test_creating_a_batch_plans_every_chunk_and_queues_them_on_commit(
    alice, decks, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        batch = make(alice, decks, runs=25)
    assert batch.chunk_count == 3
    assert list(batch.chunks.values_list("index", "runs")) == [(0, 10), (1, 10), (2, 5)]
    queued.assert_called_once()
    assert list(queued.call_args.args[1]) == [0, 1, 2]


def test_running_the_same_chunk_twice_leaves_the_results_unchanged(alice, decks, queued):
    batch = make(alice, decks)
    assert services.chunk_run(batch_id=batch.pk, index=0) is True
    first = SimulationChunk.objects.get(batch=batch, index=0)
    assert services.chunk_run(batch_id=batch.pk, index=0) is False
    again = SimulationChunk.objects.get(batch=batch, index=0)
    assert (again.result, again.finished_at, again.attempts) == (first.result, first.finished_at, 1)
    assert MatchLog.objects.filter(batch=batch).count() == 3


def test_progress_and_results_come_from_the_chunk_rows(alice, decks, queued):
    batch = make(alice, decks, runs=25)
    services.chunk_run(batch_id=batch.pk, index=1)
    batch.refresh_from_db()
    assert batch.status == "running"
    progress = selectors.batch_progress(batch)
    assert (progress["done"], progress["total"], progress["runs_done"]) == (1, 3, 10)
    batch = run_all(batch)
    assert batch.status == "done"
    assert batch.results["runs"] == 25


def test_the_same_seed_gives_the_same_results_whatever_the_chunk_order(alice, decks, queued):
    forward = run_all(make(alice, decks, kind="match", runs=30, seed=11))
    backward = make(alice, decks, kind="match", runs=30, seed=11)
    for index in reversed(range(backward.chunk_count)):
        services.chunk_run(batch_id=backward.pk, index=index)
    backward.refresh_from_db()
    assert forward.results == backward.results


def test_pk_batches_show_the_exact_probability_beside_the_estimate(alice, decks, queued):
    batch = run_all(make(alice, decks[2:], kind="pk", runs=300))
    from play.simulations import core as simulation

    exact = simulation.exact_pk_probability(
        simulation.side_deck(batch.sides[0]), simulation.side_deck(batch.sides[1])
    )
    assert batch.results["exact"] == exact
    assert sum(batch.results["scores"].values()) == 300
    low, high = batch.results["interval"]
    assert low <= batch.results["win_rate"] <= high


def test_a_cancelled_batch_runs_no_more_chunks(alice, decks, queued):
    batch = make(alice, decks)
    assert services.batch_cancel(batch=batch) is True
    assert services.chunk_run(batch_id=batch.pk, index=0) is False
    batch.refresh_from_db()
    assert batch.status == "cancelled"
    assert not batch.chunks.filter(finished_at__isnull=False).exists()


@override_settings(SIMULATION_MAX_ATTEMPTS=2)
def test_a_chunk_over_its_attempts_fails_the_batch_with_a_reason(alice, decks, queued):
    batch = make(alice, decks)
    SimulationChunk.objects.filter(batch=batch, index=0).update(
        attempts=2, last_error="ValueError: boom"
    )
    with pytest.raises(services.ChunkGaveUp):
        services.chunk_run(batch_id=batch.pk, index=0)
    batch.refresh_from_db()
    assert batch.status == "failed"
    assert "Chunk 0 failed 2 times" in batch.failure_reason
    assert "ValueError: boom" in batch.failure_reason


def test_stalled_chunks_are_requeued_by_the_reconciler(alice, decks, queued):
    batch = make(alice, decks, runs=25)
    services.chunk_run(batch_id=batch.pk, index=0)
    queued.reset_mock()
    assert services.batches_reconcile(stall_seconds=0) == 2
    assert sorted(call.args[1][0] for call in queued.call_args_list) == [1, 2]


def test_illegal_decks_and_bad_parameters_are_refused_with_field_messages(
    alice, decks, queued, settings
):
    settings.SIMULATION_MAX_RUNS = 1000
    illegal = Deck.objects.create(owner=alice, name="Empty")
    with pytest.raises(services.BatchInvalid) as info:
        services.batch_create(
            owner=alice,
            request=services.BatchRequest(
                kind="match", deck_a=illegal, deck_b=None, runs=5000, policy_a="genius"
            ),
        )
    errors = info.value.errors
    assert set(errors) >= {"runs", "policy_a", "deck_b", "deck_a"}
    assert "1,000" in errors["runs"][0]


def test_batches_per_user_are_limited(alice, decks, queued, settings):
    settings.SIMULATION_MAX_ACTIVE_PER_USER = 2
    make(alice, decks)
    make(alice, decks)
    with pytest.raises(services.BatchInvalid, match="already have 2 batches running"):
        make(alice, decks)


# API and pages -----------------------------------------------------------------------------


def test_api_creates_reads_and_cancels(alice_client, decks, queued):
    response = alice_client.post(
        "/api/simulations/",
        {"kind": "goldfish", "deck_a": decks[0].slug, "runs": 20, "seed": 5},
        content_type="application/json",
    )
    assert response.status_code == 201, response.json()
    batch_id = response.json()["id"]
    body = alice_client.get(f"/api/simulations/{batch_id}/").json()
    assert body["status"] == "queued"
    assert body["progress"]["total"] == 2
    assert alice_client.delete(f"/api/simulations/{batch_id}/").json()["status"] == "cancelled"


def test_api_bad_parameters_get_400_with_field_messages(alice_client, decks, queued):
    response = alice_client.post(
        "/api/simulations/",
        {"kind": "chess", "deck_a": "nope", "runs": 0},
        content_type="application/json",
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert {e["field"] for e in errors} == {"kind", "deck_a", "runs"}


def test_others_cannot_see_cancel_or_list_a_batch(
    alice, alice_client, bob_client, anon_client, decks, queued
):
    batch = make(alice, decks)
    for client, code in ((bob_client, 404), (anon_client, 403)):
        assert client.get(f"/api/simulations/{batch.pk}/").status_code == code
        assert client.delete(f"/api/simulations/{batch.pk}/").status_code == code
    assert bob_client.get("/api/simulations/").json()["count"] == 0
    assert anon_client.get("/api/simulations/").status_code == 403
    assert bob_client.get(f"/simulations/{batch.pk}/").status_code == 404
    assert anon_client.get(f"/simulations/{batch.pk}/").status_code == 302
    assert bob_client.post(f"/simulations/{batch.pk}/cancel/").status_code == 404
    assert "Goldfish" not in bob_client.get("/simulations/").content.decode()
    batch.refresh_from_db()
    assert batch.status == "queued"
    assert alice_client.get(f"/simulations/{batch.pk}/").status_code == 200


def test_the_share_link_is_read_only(alice, anon_client, decks, queued):
    batch = run_all(make(alice, decks))
    html = anon_client.get(f"/simulations/shared/{batch.share_token}/").content.decode()
    assert "read-only" in html
    assert "/cancel/" not in html
    assert anon_client.get("/simulations/shared/not-a-token/").status_code == 404


def test_the_simulate_form_starts_a_batch(alice_client, decks, queued):
    response = alice_client.post(
        f"/simulations/new/?deck={decks[0].slug}",
        {
            "deck": decks[0].slug,
            "kind": "match",
            "deck_b": decks[1].pk,
            "policy_a": "greedy",
            "policy_b": "random",
            "runs": 40,
        },
    )
    assert response.status_code == 302
    batch = SimulationBatch.objects.get()
    assert (batch.kind, batch.runs, batch.params["policy_b"]) == ("match", 40, "random")
    assert response["Location"] == batch.get_absolute_url()


def test_the_simulate_form_explains_bad_values(alice_client, decks, queued, settings):
    settings.SIMULATION_MAX_RUNS = 100
    response = alice_client.post(
        f"/simulations/new/?deck={decks[0].slug}",
        {
            "deck": decks[0].slug,
            "kind": "match",
            "policy_a": "greedy",
            "policy_b": "greedy",
            "runs": 500,
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "100" in html
    assert "needs an opponent deck" in html


def test_results_page_shows_charts_and_sample_matches(alice, alice_client, decks, queued):
    batch = run_all(make(alice, decks, kind="match", runs=12))
    html = alice_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert 'data-chart="bar"' in html
    assert 'id="batch-results"' in html
    logs = MatchLog.objects.filter(batch=batch)
    assert logs.count() == 3
    for log in logs:
        assert log.share_token in html
        from play.engine.log import validate_log

        validate_log(log.log)


def test_a_sample_log_download_follows_the_replay_permissions(
    alice, bob_client, anon_client, decks, queued
):
    batch = run_all(make(alice, decks, kind="match", runs=10))
    log = MatchLog.objects.filter(batch=batch).first()
    log.deck_version = None  # a log whose deck nobody else may see
    log.save()
    url = f"/logs/{log.share_token}.json"
    assert bob_client.get(url).status_code == 404
    assert anon_client.get(f"{url}?batch={batch.share_token}").status_code == 200


def test_a_batch_id_that_is_not_a_number_is_a_404_for_every_method(alice_client):
    for method in ("get", "delete"):
        response = getattr(alice_client, method)("/api/simulations/abc/")
        assert response.status_code == 404
        assert response.json() == {"message": "Not found.", "errors": []}


def test_the_owner_revokes_a_batch_share_link(
    alice, alice_client, bob_client, anon_client, decks, queued
):
    batch = make(alice, decks)
    old = batch.share_token
    assert anon_client.get(f"/simulations/shared/{old}/").status_code == 200
    assert bob_client.post(f"/simulations/{batch.pk}/share/revoke/").status_code == 404
    response = alice_client.post(f"/simulations/{batch.pk}/share/revoke/")
    assert response.status_code == 302
    batch.refresh_from_db()
    assert batch.share_token != old
    assert anon_client.get(f"/simulations/shared/{old}/").status_code == 404
    assert anon_client.get(f"/simulations/shared/{batch.share_token}/").status_code == 200


def test_the_deck_page_lists_its_owners_share_links(alice, alice_client, bob_client, decks, queued):
    batch = make(alice, decks)
    deck = batch.deck_a_version.deck
    page = alice_client.get(deck.get_absolute_url()).content.decode()
    assert 'id="deck-share-links"' in page and batch.share_token in page
