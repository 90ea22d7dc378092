"""Chunk tasks under real faults, with real worker processes (play/tasks.py, issue #13).

A terminated PostgreSQL connection mid-chunk is retried without using up an attempt; a chunk
slower than the stall time keeps its lease and is never copied (in both, the chunk waits for
the test to open a gate, tests/play/rigged_worker.py, however fast this machine plays); with
the broker (a private Redis on this project's test port, never the shared one) stopped, a
create answers "queued" once, and the reconciler starts the batch when Redis is back, empty.
Each asserts exact runs, one finished row per chunk and the batch reaching done.
"""

import os
import shutil
import socket
import subprocess
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Max
from django.utils import timezone

from catalog.services import catalog_load
from decks.models import Deck
from play.models import MatchLog, SimulationBatch
from play.simulations import queue, selectors, services
from tests.play.workers import Workers, configure
from tests.waits import wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# A port of this test run's own Redis (never the shared server): PRIVATE_REDIS_PORT, else free.
PRIVATE_REDIS_PORT = int(os.environ.get("PRIVATE_REDIS_PORT") or free_port())


@pytest.fixture
def owner(settings):
    catalog_load()
    settings.SIMULATION_RETRY_BACKOFF = 0
    return get_user_model().objects.create_user("faulty", password="pw-faults-1")


def goldfish(owner, runs, seed=11):
    deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
    return services.batch_create(
        owner=owner,
        request=services.BatchRequest(kind="goldfish", deck_a=deck, runs=runs, seed=seed),
    )


def done(batch_id):
    batch = SimulationBatch.objects.get(pk=batch_id)
    return None if batch.is_active else batch


def needs_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (CI): pg_terminate_backend and parallel writers")


def test_a_terminated_database_connection_mid_chunk_is_retried_without_using_an_attempt(
    owner, workers, settings, tmp_path
):
    needs_postgresql()
    settings.SIMULATION_MAX_ATTEMPTS = 1  # a counted failure would fail the batch at once
    settings.SIMULATION_CHUNK_SIZE = {**settings.SIMULATION_CHUNK_SIZE, "goldfish": 40}
    gate = tmp_path / "compute"
    workers.start("w1", gate=gate)
    batch = goldfish(owner, 40)
    wait_until(lambda: batch.chunks.filter(attempts=1).exists(), timeout=60, what="chunk claimed")
    with connection.cursor() as cursor:  # the worker holds its connection, waiting on the gate
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        assert cursor.fetchone()[0] >= 1
    gate.touch()  # the chunk computes, then writes its result on a dead connection
    finished = wait_until(lambda: done(batch.pk), timeout=120, what="batch after the fault")
    logs = workers.logs()
    assert finished.status == "done", logs
    assert "infrastructure error" in logs, logs
    chunk = finished.chunks.get()
    assert chunk.attempts == 1
    assert finished.results["runs"] == 40 == chunk.result["runs"]


def test_a_chunk_slower_than_the_stall_time_keeps_its_lease_and_is_never_copied(
    owner, broker, tmp_path, settings
):
    needs_postgresql()
    settings.SIMULATION_STALL_SECONDS = 2  # leases renewed every half second
    settings.SIMULATION_CHUNK_SIZE = {**settings.SIMULATION_CHUNK_SIZE, "goldfish": 40}
    gate = tmp_path / "compute"
    pool = Workers({**broker, "SIMULATION_STALL_SECONDS": "2"}, tmp_path)
    try:
        pool.start("w1", gate=gate)
        batch = goldfish(owner, 40, seed=12)
        wait_until(lambda: batch.chunks.filter(attempts=1).exists(), timeout=60, what="claim")
        # The chunk waits on the gate for three stall times while the reconciler runs every
        # half second, as beat would run it: real time, since the lease is renewed by the
        # worker's own clock in another process.
        held_until = time.monotonic() + 3 * settings.SIMULATION_STALL_SECONDS
        requeued = 0
        ages = []
        while time.monotonic() < held_until:
            lease = batch.chunks.get().last_attempt_at
            ages.append(round((timezone.now() - lease).total_seconds(), 2))
            requeued += services.batches_reconcile()
            time.sleep(0.5)
        gate.touch()
        finished = wait_until(lambda: done(batch.pk), timeout=120, what="the slow chunk")
    finally:
        pool.stop_all()
    assert finished.status == "done", pool.logs()
    assert requeued == 0, ages
    chunk = finished.chunks.get()
    assert chunk.attempts == 1
    assert finished.results["runs"] == 40


@pytest.fixture
def private_redis(tmp_path):
    """A Redis server of this test on PRIVATE_REDIS_PORT, which the test stops and restarts."""
    binary = shutil.which("redis-server")
    if not binary:
        pytest.skip("redis-server is not installed")

    class Server:
        url = f"redis://127.0.0.1:{PRIVATE_REDIS_PORT}/0"
        proc = None

        def start(self):
            self.proc = subprocess.Popen(
                [binary, "--port", str(PRIVATE_REDIS_PORT), "--bind", "127.0.0.1", "--save", ""]
                + ["--appendonly", "no", "--dir", str(tmp_path)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            wait_until(self.answers, timeout=10, what="private redis")

        def stop(self):
            self.proc.terminate()
            self.proc.wait(timeout=10)
            assert not self.answers()

        def answers(self):
            with socket.socket() as s:
                s.settimeout(0.5)
                return s.connect_ex(("127.0.0.1", PRIVATE_REDIS_PORT)) == 0

    server = Server()
    server.start()
    yield server
    if server.proc.poll() is None:
        server.proc.terminate()
        server.proc.wait(timeout=10)


def test_with_the_broker_down_a_create_is_queued_once_and_starts_when_redis_is_back(
    owner, private_redis, tmp_path, settings, client
):
    from cardsite.celery import app

    settings.SIMULATION_CHUNK_SIZE = {**settings.SIMULATION_CHUNK_SIZE, "goldfish": 20}
    settings.CACHES = {
        "default": {
            "BACKEND": "cardsite.web.tolerant_cache.TolerantRedisCache",
            "LOCATION": private_redis.url,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1},
        }
    }
    env = {"REDIS_URL": private_redis.url, "CELERY_VISIBILITY_TIMEOUT": "30"}
    configure(app, env)
    pool = Workers(env, tmp_path)
    try:
        private_redis.stop()
        client.force_login(owner)
        deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
        response = client.post(
            "/api/simulations/",
            {"kind": "goldfish", "deck_a": deck.slug, "runs": 60, "seed": 13},
            content_type="application/json",
        )
        assert response.status_code == 201, response.content  # throttle and publish: no 500
        assert "broker is unavailable" in response.json()["message"]
        batch = SimulationBatch.objects.get()
        assert batch.status == "queued" and batch.chunk_count == 3
        private_redis.start()  # back, and empty: the messages were never delivered
        pool.start("w1")
        assert services.batches_reconcile(stall_seconds=0) == 3
        finished = wait_until(lambda: done(batch.pk), timeout=120, what="batch after the outage")
    finally:
        pool.stop_all()
        configure(app, {"REDIS_URL": settings.REDIS_URL, "BROKER_DIR": str(settings.BROKER_DIR)})
    assert finished.status == "done", pool.logs()
    assert finished.results["runs"] == 60
    assert sum(c.result["runs"] for c in finished.chunks.all()) == 60
    assert SimulationBatch.objects.count() == 1


def test_a_small_batch_is_not_stuck_behind_another_users_big_one(owner, workers, settings):
    if not os.environ.get("REDIS_URL"):
        pytest.skip("chunk priorities need the Redis broker (CI)")
    settings.SIMULATION_CHUNK_SIZE = {**settings.SIMULATION_CHUNK_SIZE, "goldfish": 10}
    settings.SIMULATION_FAIR_STEP = 4
    other = get_user_model().objects.create_user("small", password="pw-small-1")
    big = goldfish(owner, 400)  # 40 chunks queued first
    small = goldfish(other, 10, seed=14)
    assert selectors.batch_progress(small)["queue_position"] == 4
    workers.start("w1")
    wait_until(lambda: done(small.pk), timeout=120, what="the small batch")
    # Counted by the chunks' own finish times: the poll above may notice `done` only after the
    # worker has finished more of the big batch's short chunks.
    small_done_at = small.chunks.aggregate(last=Max("finished_at"))["last"]
    served_first = big.chunks.filter(finished_at__lt=small_done_at).count()
    assert served_first <= 2 * settings.SIMULATION_FAIR_STEP + 1, served_first  # FIFO: 40
    finished = wait_until(lambda: done(big.pk), timeout=300, what="the big batch")
    assert finished.status == "done" and finished.results["runs"] == 400


def chunk_messages(url: str, batch_id: int | None = None) -> int:
    """Count the chunk messages waiting in a Redis server's chunk queue (of one batch, or all)."""
    import redis

    client = redis.Redis.from_url(url)
    raws = [raw for name in queue.queue_names() for raw in client.lrange(name, 0, -1)]
    if batch_id is None:
        return len(raws)
    return sum(queue.message_batch(raw) == batch_id for raw in raws)


@pytest.fixture
def redis_broker(private_redis, settings):
    """This process's Celery app on the private Redis; the workers' environment for it."""
    from cardsite.celery import app

    env = {"REDIS_URL": private_redis.url, "CELERY_VISIBILITY_TIMEOUT": "30"}
    configure(app, env)
    yield env
    configure(app, {"REDIS_URL": settings.REDIS_URL, "BROKER_DIR": str(settings.BROKER_DIR)})


def test_cancelling_a_1000_chunk_batch_takes_its_messages_out_and_delays_nobody(
    owner, private_redis, redis_broker, tmp_path, settings
):
    settings.SIMULATION_CHUNK_SIZE = {**settings.SIMULATION_CHUNK_SIZE, "goldfish": 1}
    settings.SIMULATION_QUEUE_WINDOW = 8
    other = get_user_model().objects.create_user("patient", password="pw-patient-1")
    pool = Workers(redis_broker, tmp_path)
    try:
        big = goldfish(owner, 1000)  # 1,000 chunks
        assert big.chunk_count == 1000
        # A window is out, not 1,000 messages (nor the 100 once published inline).
        assert chunk_messages(private_redis.url, big.pk) == 8
        assert services.batch_cancel(batch=big) is True
        assert chunk_messages(private_redis.url, big.pk) == 0  # purged by the cancel itself
        small = goldfish(other, 3, seed=5)
        assert selectors.batch_queue_position(small) == 0
        pool.start("w1")
        finished = wait_until(lambda: done(small.pk), timeout=120, what="the other user's batch")
    finally:
        pool.stop_all()
    logs = pool.logs()
    # The worker never spent a delivery on the cancelled batch: nothing of it was left to take.
    assert f"of batch {big.pk} skipped" not in logs, logs
    assert "skipped: the batch is not active" not in logs
    assert finished.status == "done" and finished.results["runs"] == 3, logs
    assert chunk_messages(private_redis.url) == 0
    big.refresh_from_db()
    assert big.status == "cancelled"
    assert not big.chunks.filter(finished_at__isnull=False).exists()


def _same_batch_in_process(owner, runs: int, seed: int) -> dict:
    """Run an identical batch (same kind, deck, runs, seed) chunk by chunk in this process."""
    twin_owner = get_user_model().objects.create_user(
        f"twin{seed}", password="pw-twin-1", is_active=True
    )
    with patch_queue():
        twin = goldfish(twin_owner, runs, seed=seed)
        for chunk in twin.chunks.order_by("index"):
            services.chunk_run(batch_id=twin.pk, index=chunk.index)
    return SimulationBatch.objects.get(pk=twin.pk).results


def patch_queue():
    from unittest.mock import patch

    return patch("play.simulations.services.queue_chunks")


@pytest.mark.parametrize("finisher", ["redelivery to a new worker", "the reconciler"])
def test_a_worker_killed_between_its_last_chunk_and_done_leaves_a_batch_that_still_finishes(
    owner, private_redis, redis_broker, tmp_path, settings, finisher
):
    settings.SIMULATION_CHUNK_SIZE = {**settings.SIMULATION_CHUNK_SIZE, "goldfish": 10}
    pool = Workers(redis_broker, tmp_path)
    # A short visibility timeout: the killed worker's unacknowledged message comes back soon.
    fast = {"CELERY_VISIBILITY_TIMEOUT": "3"}
    try:
        batch = goldfish(owner, 30, seed=21)  # 3 chunks
        victim = pool.start("w1", extra_env=fast, fault="kill_after_last_chunk_commit")
        victim.wait(timeout=120)
        assert victim.returncode == -9, pool.logs()  # killed by the fault hook, no clean exit
        batch.refresh_from_db()
        # The window was hit: every chunk committed, the batch never marked done.
        assert batch.status == "running", pool.logs()
        assert batch.chunks.filter(finished_at__isnull=True).count() == 0
        if finisher == "the reconciler":
            services.batches_reconcile()  # what the control worker runs every 30 s
            finished = done(batch.pk)
        else:
            pool.start("w2", extra_env=fast)
            # Within seconds of the timeout (CELERY_RESTORE_SWEEP_SECONDS), not at kombu's
            # default sweep of 100 s: the bound leaves room for a slow start of w2.
            finished = wait_until(lambda: done(batch.pk), timeout=45, what="the redelivery")
    finally:
        pool.stop_all()
    logs = pool.logs()
    assert "Fault kill_after_last_chunk_commit: killing worker" in logs
    assert finished is not None and finished.status == "done", logs
    chunks = list(finished.chunks.order_by("index"))
    assert [c.attempts for c in chunks] == [1, 1, 1]  # none was computed twice
    assert sum(c.result["runs"] for c in chunks) == 30
    assert finished.results["runs"] == 30
    samples = MatchLog.objects.filter(batch=finished)
    keys = list(samples.values_list("chunk_index", "sample_number"))
    assert len(keys) == len(set(keys)) and keys  # sample logs once each
    assert finished.results == _same_batch_in_process(owner, 30, seed=21)  # as without the fault


def test_a_kept_connection_the_server_closed_between_chunks_is_replaced_before_the_next():
    # Workers keep their connection between tasks (CELERY_DB_REUSE_MAX); one the server
    # closed meanwhile must not fail the next chunk's first query.
    needs_postgresql()
    import psycopg

    from play.tasks import usable_connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    usable_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid
    usable_connection()  # a live connection is kept
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
