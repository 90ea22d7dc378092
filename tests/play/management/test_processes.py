"""The worker processes of `make run` / `make serve` (play/management/processes.py).

Stopping sends SIGTERM to the worker's main pid only: a chunk a pool child is computing
finishes and is recorded once, instead of being killed mid-chunk and run again.
"""

import os
import subprocess

import pytest
from django.contrib.auth import get_user_model

from catalog.services import catalog_load
from decks.models import Deck
from play.management import processes
from play.models import SimulationBatch
from play.simulations import services
from tests.play.workers import ROOT, database_url
from tests.waits import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_chunk_worker_consumes_only_the_chunk_queue_and_the_control_worker_the_reconciler():
    chunk = processes.chunk_worker_command(concurrency=2)
    control = processes.control_worker_command(with_beat=True)
    assert chunk[chunk.index("--queues") + 1] == "chunks"
    assert control[control.index("--queues") + 1] == "control"
    assert "--beat" in control and "--pool" in control
    assert "--beat" not in processes.control_worker_command(with_beat=False)


def test_stopping_the_worker_lets_the_running_chunk_finish(settings, broker, tmp_path):
    catalog_load()
    # One chunk long enough (about 1.5 s on a quick machine) to be running when the stop comes.
    settings.SIMULATION_CHUNK_SIZE = {**settings.SIMULATION_CHUNK_SIZE, "goldfish": 6000}
    owner = get_user_model().objects.create_user("stopper", password="pw-stopper-1")
    deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
    log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 - closed below
    worker = subprocess.Popen(
        processes.chunk_worker_command(concurrency=1, hostname="stop@%h"),
        cwd=ROOT,
        env={**os.environ, **broker, "DATABASE_URL": database_url()},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        batch = services.batch_create(
            owner=owner,
            request=services.BatchRequest(kind="goldfish", deck_a=deck, runs=6000, seed=3),
        )
        chunk = batch.chunks.get()
        wait_until(
            lambda: batch.chunks.filter(attempts=1).exists(),
            timeout=120,
            interval=0.02,
            what="chunk started",
        )
        running_at_stop = batch.chunks.filter(finished_at__isnull=True).exists()
        processes.stop_all({"worker": worker}, timeout=120, say=lambda message: None)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, 9)
        log.close()
    output = (tmp_path / "worker.log").read_text()
    assert running_at_stop, "the chunk finished before the stop; make it bigger"
    assert "Warm shutdown" in output, output
    chunk.refresh_from_db()
    assert chunk.finished_at is not None, output
    assert chunk.attempts == 1
    batch.refresh_from_db()
    assert batch.status == SimulationBatch.Status.DONE
    assert batch.results["runs"] == 6000
