"""The worker processes of `make run` / `make serve` (play/management/processes.py).

Stopping sends SIGTERM to the worker's main pid only: a chunk a pool child is computing
finishes and is recorded once, instead of being killed mid-chunk and run again.
"""

import os
import subprocess
import threading

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


def through_the_gate(command: list[str]) -> list[str]:
    """The same worker command, its chunks held by a gate (tests/play/rigged_worker.py)."""
    at = command.index("-m")
    assert command[at + 1] == "celery", command
    return [*command[: at + 1], "tests.play.rigged_worker", *command[at + 2 :]]


def test_stopping_the_worker_lets_the_running_chunk_finish(settings, broker, tmp_path):
    catalog_load()
    settings.SIMULATION_CHUNK_SIZE = {**settings.SIMULATION_CHUNK_SIZE, "goldfish": 40}
    owner = get_user_model().objects.create_user("stopper", password="pw-stopper-1")
    deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
    gate = tmp_path / "compute"  # the chunk computes once the stop has come
    log_path = tmp_path / "worker.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed below
    worker = subprocess.Popen(
        through_the_gate(processes.chunk_worker_command(concurrency=1, hostname="stop@%h")),
        cwd=ROOT,
        env={**os.environ, **broker, "DATABASE_URL": database_url(), "CHUNK_GATE": str(gate)},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        batch = services.batch_create(
            owner=owner,
            request=services.BatchRequest(kind="goldfish", deck_a=deck, runs=40, seed=3),
        )
        chunk = batch.chunks.get()
        wait_until(
            lambda: batch.chunks.filter(attempts=1).exists(),
            timeout=120,
            interval=0.02,
            what="chunk started",
        )
        running_at_stop = batch.chunks.filter(finished_at__isnull=True).exists()
        stopping = threading.Thread(
            target=processes.stop_all,
            args=({"worker": worker},),
            kwargs={"timeout": 120, "say": lambda message: None},
        )
        stopping.start()
        wait_until(
            lambda: "Warm shutdown" in log_path.read_text(), timeout=30, what="the stop to begin"
        )
        gate.touch()
        stopping.join()
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, 9)
        log.close()
    output = log_path.read_text()
    assert running_at_stop, output
    assert "Warm shutdown" in output, output
    chunk.refresh_from_db()
    assert chunk.finished_at is not None, output
    assert chunk.attempts == 1
    batch.refresh_from_db()
    assert batch.status == SimulationBatch.Status.DONE
    assert batch.results["runs"] == 40
