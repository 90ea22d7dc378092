"""A Celery worker with a fault injected, for the process tests; faults live here, never in the app.

    python -m tests.play.faulty_worker FAULT worker [celery worker options]

`kill_after_last_chunk_commit`: the worker kills itself with SIGKILL right after committing its
batch's last chunk and before the batch is marked done: the window that redelivery and the
reconciler must close (tests/play/test_tasks.py).
"""

import logging
import os
import signal
import sys

import django

log = logging.getLogger(__name__)


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


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
    django.setup()
    FAULTS[argv[0]]()
    from cardsite.celery import app

    app.worker_main(argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
