"""A Celery worker whose chunks wait for the test's word before they compute.

Run as `python -m tests.play.gated_worker -A cardsite worker ...` (Workers.start(gated=True)).
Each chunk, once claimed and inside its lease, waits until the file named by CHUNK_GATE exists:
the test decides how long a chunk lasts (longer than the stall time, or until the database
connections are cut), so no test depends on how fast this machine plays matches.
"""

import os
import sys
import time
from pathlib import Path

from celery.__main__ import main
from celery.signals import worker_init


@worker_init.connect
def gate_every_kind(**_):
    import django

    django.setup()
    from play.simulations import kinds

    gate = Path(os.environ["CHUNK_GATE"])
    for kind in kinds.all_kinds():
        kind.run_chunk = gated(kind.run_chunk, gate)


def gated(run_chunk, gate: Path):
    def run_when_let(**kwargs):
        while not gate.exists():
            time.sleep(0.05)
        return run_chunk(**kwargs)

    return run_when_let


if __name__ == "__main__":
    sys.argv[0] = "celery"
    sys.exit(main())
