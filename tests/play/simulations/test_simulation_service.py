"""Batch services without workers: idempotent chunks, cancel, failure, validation, API, pages."""

from datetime import timedelta
from unittest.mock import patch

import pytest
from django.db import OperationalError
from django.test import TestCase, override_settings
from django.utils import timezone

from decks.models import Deck
from play.models import MatchLog, SimulationBatch, SimulationChunk
from play.simulations import kinds, selectors, services
from tests.waits import wait_until

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


def test_published_chunks_no_longer_waiting_in_the_broker_are_requeued(alice, decks, queued):
    """Their messages were lost with the worker that had taken them (prefetched, unstarted)."""
    batch = make(alice, decks, runs=25)
    services.chunk_run(batch_id=batch.pk, index=0)
    queued.reset_mock()
    with patch("play.simulations.queue.waiting_tokens", return_value=set()):
        assert services.batches_reconcile(stall_seconds=0) == 2
    assert sorted(call.args[1][0] for call in queued.call_args_list) == [1, 2]


def published(owner, decks, runs):
    """Create a batch whose messages are published (on commit) but never delivered."""
    with patch("play.simulations.queue.publish_chunk") as publish:
        with TestCase.captureOnCommitCallbacks(execute=True):
            batch = make(owner, decks, runs=runs)
    return batch, publish


def test_chunks_waiting_in_a_backlog_are_not_queued_a_second_time(alice, decks):
    batch, publish = published(alice, decks, runs=25)
    tokens = set(batch.chunks.values_list("message_token", flat=True))
    assert "" not in tokens and len(tokens) == 3  # each published message has its own token
    assert {call.kwargs["token"] for call in publish.call_args_list} == tokens
    with patch("play.simulations.queue.publish_chunk") as publish:
        for waiting in (tokens | {"another"}, None):  # still waiting, or the broker can't say
            with patch("play.simulations.queue.waiting_tokens", return_value=waiting):
                assert services.batches_reconcile(stall_seconds=0) == 0
    publish.assert_not_called()


def test_a_replaced_copy_is_skipped_without_using_an_attempt(alice, decks):
    """Issue #26: the reconciler's copy and the broker's redelivery never both count."""
    batch, publish = published(alice, decks, runs=10)
    old = publish.call_args.kwargs["token"]
    with patch("play.simulations.queue.publish_chunk") as publish:
        with TestCase.captureOnCommitCallbacks(execute=True):
            with patch("play.simulations.queue.waiting_tokens", return_value=set()):
                assert services.batches_reconcile(stall_seconds=0) == 1  # lost: re-queued
    new = publish.call_args.kwargs["token"]
    assert new != old
    assert services.chunk_run(batch_id=batch.pk, index=0, token=old) is False
    chunk = batch.chunks.get()
    assert (chunk.attempts, chunk.finished_at) == (0, None)
    assert services.chunk_run(batch_id=batch.pk, index=0, token=new) is True
    assert batch.chunks.get().attempts == 1


def test_a_chunk_claimed_then_stalled_is_waited_for_like_a_new_message_once_requeued(alice, decks):
    """A re-queued message waiting behind a backlog longer than the stall time is not
    re-queued again and again (each copy once used an attempt)."""
    batch, _ = published(alice, decks, runs=10)
    SimulationChunk.objects.filter(batch=batch).update(
        attempts=1, last_attempt_at=timezone.now() - timedelta(hours=1)
    )
    with patch("play.simulations.queue.publish_chunk") as publish:
        with TestCase.captureOnCommitCallbacks(execute=True):
            assert services.batches_reconcile(stall_seconds=60) == 1
        token = publish.call_args.kwargs["token"]
        SimulationChunk.objects.filter(batch=batch).update(
            queued_at=timezone.now() - timedelta(hours=1)
        )
        with patch("play.simulations.queue.waiting_tokens", return_value={token}):
            assert services.batches_reconcile(stall_seconds=60) == 0
    chunk = batch.chunks.get()
    assert (chunk.attempts, chunk.last_attempt_at, chunk.message_token) == (1, None, token)


def test_a_retry_after_an_error_before_the_claim_still_counts_its_attempt(alice, decks, queued):
    """Issue #26: chunks finished with attempts = 0 after database errors before the claim."""
    batch = make(alice, decks, runs=10)
    claims = []
    with patch.object(SimulationChunk.objects, "filter", side_effect=OperationalError("down")):
        with pytest.raises(OperationalError):
            services.chunk_run(batch_id=batch.pk, index=0, on_claim=lambda: claims.append(1))
    assert claims == []  # so the task's retry keeps count_attempt=True
    services.chunk_run(batch_id=batch.pk, index=0, on_claim=lambda: claims.append(1))
    assert claims == [1] and batch.chunks.get().attempts == 1


def test_a_cancel_fixes_the_partial_results_and_a_later_result_is_kept_apart(alice, decks, queued):
    batch = make(alice, decks, runs=30)  # 3 chunks
    services.chunk_run(batch_id=batch.pk, index=0)
    real_run = kinds.get("goldfish").run_chunk

    def cancelled_meanwhile(**kwargs):
        assert services.batch_cancel(batch=batch) is True  # the cancel lands mid-chunk
        return real_run(**kwargs)

    with patch.object(kinds.get("goldfish"), "run_chunk", side_effect=cancelled_meanwhile):
        assert services.chunk_run(batch_id=batch.pk, index=1) is False
    batch.refresh_from_db()
    results, partial = selectors.batch_shown_results(batch)
    assert batch.status == "cancelled"
    assert partial == {"runs": 10, "planned": 30, "chunks": 1, "chunk_count": 3}
    late = batch.chunks.get(index=1)
    assert late.finished_at is None and late.cancelled and late.late_result["runs"] == 10
    assert services.chunk_run(batch_id=batch.pk, index=2) is False  # skipped, nothing counted
    assert selectors.batch_shown_results(batch)[1] == partial


def test_cancelling_a_batch_whose_chunks_all_finished_marks_it_done(alice, decks, queued):
    batch = make(alice, decks, runs=20)
    with patch("play.simulations.services.batch_finish_if_complete"):
        run_all(batch)  # every chunk written; the worker died before marking the batch done
    assert services.batch_cancel(batch=batch) is False
    batch.refresh_from_db()
    assert batch.status == "done" and batch.results["runs"] == 20


def test_a_claimed_chunk_is_requeued_only_when_its_lease_expired(alice, decks, queued):
    batch = make(alice, decks, runs=10)
    SimulationChunk.objects.filter(batch=batch).update(attempts=1, last_attempt_at=timezone.now())
    with patch("play.simulations.queue.waiting_tokens", return_value={""}):
        assert services.batches_reconcile(stall_seconds=60) == 0  # lease still fresh
        SimulationChunk.objects.filter(batch=batch).update(
            last_attempt_at=timezone.now() - timedelta(seconds=61)
        )
        assert services.batches_reconcile(stall_seconds=60) == 1


@pytest.mark.django_db(transaction=True)  # the lease thread has a connection of its own
def test_the_lease_is_renewed_while_a_slow_chunk_computes(alice, queued, settings):
    from catalog.services import catalog_load

    catalog_load()
    settings.SIMULATION_STALL_SECONDS = 2  # renewed every 0.5 s
    batch = make(alice, list(Deck.objects.filter(is_sample=True).order_by("slug")), runs=10)
    claimed_at = timezone.now() - timedelta(hours=1)
    SimulationChunk.objects.filter(batch=batch).update(attempts=1, last_attempt_at=claimed_at)
    chunk = SimulationChunk.objects.filter(batch=batch)
    with services.chunk_lease(batch_id=batch.pk, index=0):
        # The slow chunk is this block: the lease thread must renew the claim while it lasts.
        wait_until(
            lambda: chunk.get().last_attempt_at > claimed_at + timedelta(minutes=59),
            timeout=10,
            interval=0.1,
            what="the lease thread to renew the claim",
        )


def test_a_chunk_found_finished_finishes_its_batch(alice, decks, queued):
    """The worker that wrote the last chunk died before marking the batch done."""
    batch = make(alice, decks, runs=10)
    with patch("play.simulations.services.batch_finish_if_complete"):
        services.chunk_run(batch_id=batch.pk, index=0)
    batch.refresh_from_db()
    assert batch.status == "running"
    assert services.chunk_run(batch_id=batch.pk, index=0) is False  # a redelivery
    batch.refresh_from_db()
    assert batch.status == "done" and batch.results["runs"] == 10


def test_the_reconciler_closes_an_active_batch_with_no_unfinished_chunk(alice, decks, queued):
    batch = make(alice, decks, runs=20)
    with patch("play.simulations.services.batch_finish_if_complete"):
        run_all(batch)
    assert batch.status == "running"
    with patch("play.simulations.queue.waiting_tokens", return_value=set()):
        services.batches_reconcile(stall_seconds=0)
    batch.refresh_from_db()
    assert batch.status == "done" and batch.results["runs"] == 20


def test_an_infrastructure_retry_does_not_use_up_an_attempt(alice, decks, queued):
    batch = make(alice, decks, runs=10)
    services.chunk_run(batch_id=batch.pk, index=0, count_attempt=False)
    assert SimulationChunk.objects.get(batch=batch).attempts == 0


def test_a_chunks_last_error_is_kept_when_it_later_succeeds(alice, decks, queued):
    batch = make(alice, decks, runs=10)
    services.chunk_record_error(batch_id=batch.pk, index=0, error="ValueError: once")
    services.chunk_run(batch_id=batch.pk, index=0)
    chunk = SimulationChunk.objects.get(batch=batch)
    assert chunk.finished_at is not None and chunk.last_error == "ValueError: once"


def test_the_total_runs_of_a_gauntlet_are_capped_across_its_opponents(alice, decks, settings):
    settings.SIMULATION_MAX_RUNS = 1000
    with pytest.raises(services.BatchInvalid) as info:
        make(alice, decks, kind="gauntlet", runs=400)
    from play.simulations.sides import prebuilt_decks

    opponents = len(prebuilt_decks())
    assert f"{400 * opponents:,} in all" in info.value.errors["runs"][0]
    assert not SimulationBatch.objects.exists()


def test_a_big_batch_publishes_only_a_window_and_each_finished_chunk_the_next(
    alice, decks, settings, queued, django_capture_on_commit_callbacks
):
    settings.SIMULATION_QUEUE_WINDOW = 2
    with django_capture_on_commit_callbacks(execute=True):
        batch = make(alice, decks, runs=50)  # 5 chunks
    assert [list(call.args[1]) for call in queued.call_args_list] == [[0, 1]]
    queued.reset_mock()
    services.chunk_run(batch_id=batch.pk, index=0)
    assert [list(call.args[1]) for call in queued.call_args_list] == [[2]]
    queued.reset_mock()
    assert services.batch_top_up(batch_id=batch.pk) == 0  # the window is full
    # a worker died after writing chunk 1 and before topping up: the reconciler does it
    with patch("play.simulations.services.batch_top_up"):
        services.chunk_run(batch_id=batch.pk, index=1)
    with patch("play.simulations.queue.waiting_tokens", return_value={""}):
        assert services.batches_reconcile(stall_seconds=60) == 1
    assert [list(call.args[1]) for call in queued.call_args_list] == [[3]]
    queued_at = dict(batch.chunks.values_list("index", "queued_at"))
    assert queued_at[4] is None and all(queued_at[i] for i in (0, 1, 2, 3))


@pytest.mark.django_db(transaction=True)  # real commits: publishing happens on commit
def test_with_the_broker_down_the_batch_is_saved_once_and_says_so(alice_client):
    from kombu.exceptions import OperationalError

    from catalog.services import catalog_load

    catalog_load()
    decks = list(Deck.objects.filter(is_sample=True).order_by("slug"))
    with patch("play.simulations.services.queue_chunks", side_effect=OperationalError("down")):
        response = alice_client.post(
            "/api/simulations/",
            {"kind": "goldfish", "deck_a": decks[0].slug, "runs": 20},
            content_type="application/json",
        )
        assert response.status_code == 201
        assert "broker is unavailable" in response.json()["message"]
        page = alice_client.post(
            f"/simulations/new/?deck={decks[0].slug}",
            {
                "deck": decks[0].slug,
                "kind": "goldfish",
                "runs": 20,
                "policy_a": "greedy",
                "policy_b": "greedy",
            },
            follow=True,
        )
    assert page.status_code == 200
    assert "broker is unavailable" in page.content.decode()
    assert SimulationBatch.objects.count() == 2


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


@pytest.mark.django_db(transaction=True)
def test_parallel_creates_never_pass_the_active_batch_limit(alice, settings):
    """14 parallel creates, limit 3: exactly 3 batches (the row lock on the owner holds)."""
    import threading

    from django.db import connection

    from catalog.services import catalog_load

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (CI): SQLite serialises writers itself")
    catalog_load()
    settings.SIMULATION_MAX_ACTIVE_PER_USER = 3
    decks = list(Deck.objects.filter(is_sample=True).order_by("slug"))
    start = threading.Barrier(14)
    outcomes = []

    def create():
        start.wait()
        try:
            make(alice, decks, runs=10)
            outcomes.append("created")
        except services.BatchInvalid:
            outcomes.append("refused")
        finally:
            connection.close()

    with patch("play.simulations.services.queue_chunks"):
        threads = [threading.Thread(target=create) for _ in range(14)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert outcomes.count("created") == 3 and outcomes.count("refused") == 11
    assert SimulationBatch.objects.filter(owner=alice).count() == 3


def test_chunk_priorities_follow_the_owners_queued_work_so_users_share_workers_fairly(
    alice, bob, decks, settings, django_capture_on_commit_callbacks
):
    settings.SIMULATION_FAIR_STEP = 4
    with patch("play.simulations.queue.publish_chunk") as publish:
        with django_capture_on_commit_callbacks(execute=True):
            big = make(alice, decks, runs=100)  # 10 chunks
        alices = [c.kwargs["priority"] for c in publish.call_args_list]
        publish.reset_mock()
        with django_capture_on_commit_callbacks(execute=True):
            small = make(bob, decks, runs=10)
        bobs = [c.kwargs["priority"] for c in publish.call_args_list]
    assert alices == [0, 0, 0, 0, 1, 1, 1, 1]  # a window of 8 of her 10 chunks
    assert bobs == [0]
    assert selectors.batch_progress(small)["queue_position"] == 4  # alice's priority-0 chunks
    assert selectors.batch_progress(big)["queue_position"] == 0  # hers were published first


def test_the_queue_position_counts_exactly_the_messages_served_first(
    alice, bob, decks, settings, django_capture_on_commit_callbacks
):
    """Issue #13: the position is the count the broker would serve first, not a guess."""
    from django.contrib.auth import get_user_model

    carol = get_user_model().objects.create_user("carol", password="pw-carol-1")
    settings.SIMULATION_FAIR_STEP = 4
    settings.SIMULATION_QUEUE_WINDOW = 8
    settings.SIMULATION_CHUNK_SIZE = {**settings.SIMULATION_CHUNK_SIZE, "goldfish": 1}
    with patch("play.simulations.queue.publish_chunk") as publish:
        with django_capture_on_commit_callbacks(execute=True):
            big = make(alice, decks, runs=40)  # 40 chunks: 0-3 priority 0, 4-7 priority 1
        for index in range(4):  # her priority-0 chunks run; each publishes one more, priority 1
            with django_capture_on_commit_callbacks(execute=True):
                services.chunk_run(batch_id=big.pk, index=index)
        with django_capture_on_commit_callbacks(execute=True):
            small = make(bob, decks, runs=2)  # priority 0, 0
        with django_capture_on_commit_callbacks(execute=True):
            tiny = make(carol, decks, runs=1)  # priority 0, after bob's two
        with django_capture_on_commit_callbacks(execute=True):
            second = make(alice, decks, runs=5)  # 8 of hers wait: priorities 2, 2, 2, 2, 3
        order = [(c.args[0], c.kwargs["priority"]) for c in publish.call_args_list]
    assert order[:8] == [(big.pk, 0)] * 4 + [(big.pk, 1)] * 4
    assert order[8:12] == [(big.pk, 1)] * 4  # the refills
    assert order[12:] == [(small.pk, 0)] * 2 + [(tiny.pk, 0)] + [(second.pk, 2)] * 4 + [
        (second.pk, 3)
    ]
    # Redis serves priority 0 first, oldest first: nobody is ahead of bob (the approximation
    # said 4: alice's first four, already gone), bob's two before carol, and before alice's
    # second batch all eight of her first batch's waiting chunks, bob's two and carol's one.
    assert selectors.batch_queue_position(small) == 0
    assert selectors.batch_queue_position(tiny) == 2
    assert selectors.batch_queue_position(second) == 11
    big.refresh_from_db()
    assert selectors.batch_queue_position(big) is None  # running
    services.chunk_run(batch_id=small.pk, index=0)  # bob's batch starts
    tiny.refresh_from_db()
    assert selectors.batch_queue_position(tiny) == 1  # only bob's second chunk is left ahead


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


def test_a_chunk_in_a_batchs_middle_costs_a_few_queries_and_publishes_the_next(
    alice, decks, settings, queued, django_capture_on_commit_callbacks, django_assert_num_queries
):
    # read the batch, claim, read the chunk, write the result, the finish check, and the top-up:
    # the window count, the candidates, the owner's waiting count, the next chunk's claim
    settings.SIMULATION_QUEUE_WINDOW = 2
    with django_capture_on_commit_callbacks(execute=True):
        batch = make(alice, decks, runs=50)  # 5 chunks
    services.chunk_run(batch_id=batch.pk, index=0)  # the first: status and sample logs too
    queued.reset_mock()
    with django_assert_num_queries(9):
        services.chunk_run(batch_id=batch.pk, index=1)
    assert [list(call.args[1]) for call in queued.call_args_list] == [[3]]
    priorities = dict(batch.chunks.filter(queued_at__isnull=False).values_list("index", "priority"))
    assert queued.call_args.kwargs["priorities"] == {3: priorities[3]}
    assert not MatchLog.objects.filter(batch=batch, chunk_index=1).exists()
    assert MatchLog.objects.filter(batch=batch, chunk_index=0).count() == 3
