"""A Celery worker rigged for the process tests: the app itself has no gate and no fault hook.

Run as `python -m tests.play.rigged_worker -A cardsite worker ...` (`Workers.start(gate=...,
fault=...)` in tests/play/workers.py), with either or both of:

- `CHUNK_GATE=<path>`: each chunk, once claimed and inside its lease, waits until that file
  exists, so the test decides how long a chunk lasts (longer than the stall time, or until the
  database connections are cut) and no test depends on how fast this machine plays matches.
  While it waits, `<path>.held` names the chunk held at the gate ("<index> <seed>"), so a test
  knows which chunk is held without waiting a guessed time for one that slipped through;
- `WORKER_FAULT=kill_after_last_chunk_commit`: the worker kills itself with SIGKILL right after
  committing its batch's last chunk and before the batch is marked done, the window that
  redelivery and the reconciler must close.
"""

import logging
import os
import signal
import sys
import time
from pathlib import Path

from celery.__main__ import main
from celery.signals import worker_init

log = logging.getLogger(__name__)


@worker_init.connect
def rig(**_):
    import django

    django.setup()
    if os.environ.get("CHUNK_GATE"):
        gate_every_kind(Path(os.environ["CHUNK_GATE"]))
    fault = os.environ.get("WORKER_FAULT")
    if fault:
        FAULTS[fault]()


def gate_every_kind(gate: Path) -> None:
    from play.simulations import kinds

    for kind in kinds.all_kinds():
        kind.run_chunk = gated(kind.run_chunk, gate)


def gated(run_chunk, gate: Path):
    held = gate.with_name(gate.name + ".held")

    def run_when_let(**kwargs):
        if not gate.exists():
            written = held.with_name(held.name + ".new")  # renamed: never read half written
            written.write_text(f"{kwargs['spec'].index} {kwargs['seed']}")
            written.replace(held)
            while not gate.exists():
                time.sleep(0.05)
        return run_chunk(**kwargs)

    return run_when_let


def kill_after_last_chunk_commit() -> None:
    from play.models import SimulationChunk
    from play.simulations import services

    finish = services.batch_finish_if_complete

    def killing_finish(*, batch_id: int) -> bool:
        if not SimulationChunk.objects.filter(batch_id=batch_id, finished_at__isnull=True).exists():
            log.warning("Fault kill_after_last_chunk_commit: killing worker pid %s", os.getpid())
            os.kill(os.getpid(), signal.SIGKILL)
        return finish(batch_id=batch_id)

    # chunk_run calls it by its module global, right after its result's commit.
    services.batch_finish_if_complete = killing_finish


FAULTS = {"kill_after_last_chunk_commit": kill_after_last_chunk_commit}


if __name__ == "__main__":
    sys.argv[0] = "celery"
    sys.exit(main())
