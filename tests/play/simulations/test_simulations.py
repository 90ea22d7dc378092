"""Simulation batches on real Celery workers: exact run counts, kill -9, determinism, failure.

These tests run worker processes against a real broker (Redis in CI, the filesystem transport
otherwise) and commit their data, so they use transactional_db and load the catalog themselves.
"""

import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from catalog.services import catalog_load
from decks.models import Deck
from play.models import SimulationBatch, SimulationChunk
from play.seeds import chunk_seed
from play.simulations import queue, services
from play.simulations import sides as deck_sides
from tests.waits import wait_until

pytestmark = pytest.mark.django_db(transaction=True)

SMALL_CHUNKS = {"pk": 100, "goldfish": 20, "match": 20, "gauntlet": 20, "touchdown": 50}
LAB_VARIANTS = [{"onside_rolls": 1}, {"onside_rolls": 2, "minimum_kick": True}]


@pytest.fixture
def setup(settings):
    catalog_load()
    settings.SIMULATION_CHUNK_SIZE = SMALL_CHUNKS
    settings.SIMULATION_MAX_ATTEMPTS = 3
    owner = get_user_model().objects.create_user("simon", password="pw-simulations-1")
    decks = list(Deck.objects.filter(is_sample=True).order_by("slug"))
    return owner, decks


def create(owner, decks, kind, runs, seed=7, **extra):
    if kind == "touchdown":
        return services.lab_batch_create(owner=owner, variants=LAB_VARIANTS, runs=runs, seed=seed)
    return services.batch_create(
        owner=owner,
        request=services.BatchRequest(
            kind=kind, deck_a=decks[0], deck_b=decks[1], runs=runs, seed=seed, **extra
        ),
    )


def finished(batch_id):
    batch = SimulationBatch.objects.get(pk=batch_id)
    return batch if not batch.is_active else None


def runs_recorded(batch) -> int:
    return sum(c.result["runs"] for c in batch.chunks.all())


@pytest.mark.parametrize(
    "kind,runs", [("pk", 250), ("goldfish", 50), ("match", 50), ("touchdown", 120)]
)
def test_a_batch_of_each_kind_completes_with_exactly_the_requested_runs(setup, workers, kind, runs):
    owner, decks = setup
    workers.start()
    batch = create(owner, decks, kind, runs)
    done = wait_until(lambda: finished(batch.pk), timeout=120, what=f"{kind} batch")
    assert done.status == "done", workers.logs()
    per_batch = runs * (len(LAB_VARIANTS) if kind == "touchdown" else 1)
    assert done.results["runs"] == per_batch == runs_recorded(done)
    assert done.chunks.filter(finished_at__isnull=True).count() == 0


def test_a_gauntlet_plays_every_prebuilt_deck(setup, workers):
    owner, decks = setup
    workers.start()
    batch = create(owner, decks, "gauntlet", 20)
    done = wait_until(lambda: finished(batch.pk), timeout=120, what="gauntlet")
    assert done.status == "done", workers.logs()
    opponents = [row["opponent"] for row in done.results["table"]]
    assert opponents == [d.name for d in deck_sides.prebuilt_decks()]
    assert all(row["runs"] == 20 for row in done.results["table"])


# 100 and 60 chunks, with a gate the test closes once two have finished (tests/play/
# rigged_worker.py): the worker is killed holding a claimed chunk, however fast it plays.
# Goldfish chunks of 5 matches: what is checked is per chunk, and 100 of them need not play
# 2000 matches twice (the reference batch and the killed one).
KILLED_CHUNK_SIZE = {"goldfish": 5}


@pytest.mark.parametrize("kind,runs", [("goldfish", 500), ("touchdown", 1500)])
def test_kill_9_of_the_worker_mid_batch_loses_and_doubles_nothing(
    setup, workers, kind, runs, tmp_path, settings
):
    if connection.vendor == "sqlite":
        pytest.skip("SQLite is not a multi-process database; this runs on PostgreSQL (CI).")
    settings.SIMULATION_CHUNK_SIZE = {**SMALL_CHUNKS, **KILLED_CHUNK_SIZE}
    owner, decks = setup
    gate = tmp_path / "compute"
    gate.touch()
    reference = create(owner, decks, kind, runs, seed=99)
    first = workers.start("w1", gate=gate)
    wait_until(lambda: finished(reference.pk), timeout=180, what="reference batch")
    batch = create(owner, decks, kind, runs, seed=99)
    assert batch.chunks.count() == {"goldfish": 100, "touchdown": 60}[kind]
    wait_until(
        lambda: batch.chunks.filter(finished_at__isnull=False).count() >= 2,
        timeout=120,
        interval=0.02,
        what="first chunks",
    )
    gate.unlink()  # the next chunk w1 claims waits
    wait_until(
        lambda: batch.chunks.filter(attempts=1, finished_at__isnull=True).exists(),
        timeout=60,
        what="w1 holding a claimed chunk",
    )
    workers.kill9(first)
    assert batch.chunks.filter(finished_at__isnull=True).exists()
    gate.touch()
    workers.start("w2")
    # The reconciler runs again and again, as beat runs it every 30 s: a message the killed
    # worker had prefetched but not started is re-queued only once the queue is empty.
    last_run = [0.0]

    def reconciled_and_finished():
        if time.monotonic() - last_run[0] >= 3:
            services.batches_reconcile(stall_seconds=0)
            last_run[0] = time.monotonic()
        return finished(batch.pk)

    done = wait_until(reconciled_and_finished, timeout=180, what="batch after kill -9")
    assert done.status == "done", workers.logs()
    expected = runs * (len(LAB_VARIANTS) if kind == "touchdown" else 1)
    assert runs_recorded(done) == expected == done.results["runs"]
    reference.refresh_from_db()
    assert done.results == reference.results


@pytest.mark.parametrize("kind,runs", [("match", 120), ("touchdown", 300)])
def test_one_worker_and_two_workers_give_identical_results(setup, workers, kind, runs):
    owner, decks = setup
    workers.start("w1")
    one = create(owner, decks, kind, runs, seed=4242)
    wait_until(lambda: finished(one.pk), timeout=180, what="one-worker batch")
    workers.start("w2")
    two = create(owner, decks, kind, runs, seed=4242)
    wait_until(lambda: finished(two.pk), timeout=180, what="two-worker batch")
    one.refresh_from_db()
    two.refresh_from_db()
    assert one.results == two.results
    assert one.results["runs"] == runs * (len(LAB_VARIANTS) if kind == "touchdown" else 1)


def test_the_filesystem_broker_runs_a_batch_too(setup, filesystem_broker, tmp_path):
    from tests.play.workers import Workers

    owner, decks = setup
    pool = Workers(filesystem_broker, tmp_path)
    try:
        pool.start("fs")
        batch = create(owner, decks, "goldfish", 40)
        done = wait_until(lambda: finished(batch.pk), timeout=120, what="filesystem batch")
        assert done.status == "done", pool.logs()
        assert done.results["runs"] == 40
    finally:
        pool.stop_all()


def _message_files(folder, batch_id=None) -> list:
    """The chunk message files waiting in a filesystem broker's queue folder (of one batch)."""
    files = [path for path in folder.iterdir() if path.name.endswith(".msg")]
    if batch_id is None:
        return files
    return [path for path in files if queue.message_batch(path.read_bytes()) == batch_id]


def test_cancel_removes_the_batchs_waiting_messages_from_the_filesystem_broker_too(
    setup, filesystem_broker, settings
):
    from pathlib import Path

    settings.SIMULATION_CHUNK_SIZE = {**SMALL_CHUNKS, "goldfish": 1}
    settings.SIMULATION_QUEUE_WINDOW = 8
    owner, decks = setup
    folder = Path(filesystem_broker["BROKER_DIR"]) / "queue"
    big = create(owner, decks, "goldfish", 100)  # 100 chunks, a window of 8 published
    kept = create(owner, decks, "goldfish", 3, seed=9)
    assert len(_message_files(folder, big.pk)) == 8
    assert len(_message_files(folder, kept.pk)) == 3
    assert services.batch_cancel(batch=big) is True
    assert _message_files(folder, big.pk) == []  # no worker spends a delivery on it
    assert len(_message_files(folder, kept.pk)) == 3  # another batch's messages stay
    assert len(_message_files(folder)) == 3


def test_a_chunk_that_always_fails_ends_the_batch_as_failed_with_its_reason(setup, workers):
    owner, decks = setup
    batch = create(owner, decks, "goldfish", 40)
    # Corrupt the snapshot the way a bad deployment could: a card the deck names is missing.
    # Queued chunk messages are already waiting for a worker; none can succeed.
    sides = batch.sides
    missing = sides[0]["cards"][0]
    del sides[0]["card_data"][missing]
    SimulationBatch.objects.filter(pk=batch.pk).update(sides=sides)
    workers.start()
    done = wait_until(lambda: finished(batch.pk), timeout=120, what="failed batch")
    assert done.status == "failed"
    assert "failed 3 times" in done.failure_reason
    assert f"KeyError: '{missing}'" in done.failure_reason
    assert SimulationChunk.objects.filter(batch=done, attempts__gte=3).exists()


# Twenty kill -9s spread over one batch with a backlog in front of it (issue #26): each worker
# is killed holding a chunk it claimed for the first time, and the reconciler runs as beat runs
# it. The batch must finish exactly as a fault-free run of the same seed, and no chunk may use
# more than 2 attempts: a copy the reconciler replaced, delivered later, uses none.
KILLS = 20
STALL = 3  # seconds without a lease renewal before the reconciler re-queues a claimed chunk


def reference_results(owner, decks, runs: int, seed: int) -> dict:
    """The batch computed in this process, chunk by chunk, with no broker and no fault."""
    from unittest.mock import patch

    with patch("play.simulations.services.queue_chunks"):
        batch = create(owner, decks, "goldfish", runs, seed=seed)
        for index in batch.chunks.order_by("index").values_list("index", flat=True):
            services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    assert batch.status == "done"
    return batch.results


@pytest.mark.slow
def test_twenty_kill_9s_over_a_batch_behind_a_backlog_change_nothing(
    setup, workers, tmp_path, settings
):
    if connection.vendor == "sqlite":
        pytest.skip("SQLite is not a multi-process database; this runs on PostgreSQL (CI).")
    owner, decks = setup
    # 300 chunks of 5 goldfish matches: a worker computes a few freely before each kill, and
    # chunks must remain to be held until the twentieth (a loaded machine overshoots more).
    # What is checked is per chunk (attempts, redeliveries, the results summed from chunks), so
    # the chunks are small: the fault-free reference and the run after the kills play a quarter
    # of the matches 20-match chunks would.
    settings.SIMULATION_CHUNK_SIZE = {**SMALL_CHUNKS, "goldfish": 5}
    runs, seed = 1500, 31
    expected = reference_results(owner, decks, runs, seed)

    backlog = create(owner, decks, "goldfish", 100, seed=5)  # 20 chunks, waiting in front
    batch = create(owner, decks, "goldfish", runs, seed=seed)
    ours = [backlog.pk, batch.pk]
    assert batch.chunks.count() == 300 and backlog.chunks.count() == 20
    gate = tmp_path / "compute"  # absent: a claimed chunk waits, its lease kept fresh
    held = tmp_path / "compute.held"  # the chunk waiting at the gate (tests/play/rigged_worker.py)
    env = {"SIMULATION_STALL_SECONDS": str(STALL)}
    last_reconcile = [0.0]

    def reconcile():  # as beat sends it, every second here
        if time.monotonic() - last_reconcile[0] >= 1:
            services.batches_reconcile(stall_seconds=STALL)
            last_reconcile[0] = time.monotonic()

    def held_chunk():
        """The chunk the gated worker holds at the gate, once it says it holds one."""
        reconcile()
        if not held.exists():
            return None
        index, seed = map(int, held.read_text().split())
        chunks = SimulationChunk.objects.filter(batch_id__in=ours, index=index)
        [chunk] = [
            c for c in chunks.select_related("batch") if chunk_seed(c.batch.seed, index) == seed
        ]
        return chunk

    kills = 0
    name = 0
    while kills < KILLS:
        name += 1
        gate.touch()  # the new worker computes a few chunks freely first
        worker = workers.start(f"w{name}", extra_env=env, gate=gate)
        done_before = finished_chunks(ours)
        wanted = done_before + 1 + name % 3  # spread the kills over the batch
        wait_until(
            lambda wanted=wanted: reconcile() or finished_chunks(ours) >= wanted,
            timeout=120,
            interval=0.05,
            what=f"worker w{name} computing",
        )
        while True:  # hold a chunk at its first attempt, then kill the worker holding it
            held.unlink(missing_ok=True)  # (the gate is open: no worker waits at it)
            gate.unlink()
            left = SimulationChunk.objects.filter(batch_id__in=ours, finished_at__isnull=True)
            chunk = wait_until(
                held_chunk,
                timeout=120,
                interval=0.05,
                what=f"a held chunk (kill {kills + 1}, {left.count()} chunks left)\n"
                + workers.logs()[-3000:],
            )
            if chunk.finished_at is None and chunk.attempts == 1:
                break
            gate.touch()  # a redelivered chunk (attempt 2) is let through: kill another
            wait_until(
                lambda chunk=chunk: chunk_finished(chunk), timeout=60, what="the let-through chunk"
            )
        workers.kill9(worker)
        kills += 1

    gate.touch()
    workers.start("last", extra_env=env, gate=gate)
    done = wait_until(
        lambda: reconcile() or (finished(batch.pk) and finished(backlog.pk)),
        timeout=300,
        interval=0.2,
        what="both batches after the kills",
    )
    assert done.status == "done", workers.logs()
    batch.refresh_from_db()
    assert batch.status == "done" and runs_recorded(batch) == runs == batch.results["runs"]
    assert batch.results == expected  # byte for byte the fault-free run
    attempts = list(
        SimulationChunk.objects.filter(batch_id__in=ours).values_list("attempts", flat=True)
    )
    assert max(attempts) <= 2, sorted(attempts)[-5:]
    assert attempts.count(2) == KILLS  # every kill cost its chunk one attempt, and only one


def finished_chunks(batch_ids) -> int:
    return SimulationChunk.objects.filter(batch_id__in=batch_ids, finished_at__isnull=False).count()


def chunk_finished(chunk) -> bool:
    chunk.refresh_from_db()
    return chunk.finished_at is not None
