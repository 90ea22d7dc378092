"""Serve the web app with Celery workers beside it; stop them together (`make run`).

Two workers: one for simulation chunks, one (solo, with celery beat embedded) for the
reconciler on its own queue, so `make run` always reconciles. Stopping sends SIGTERM to each
worker's main pid only: running chunks finish (warm shutdown) instead of being killed.
"""

import os
import signal
import sys

from django.conf import settings
from django.core.management import call_command

from cardsite.web.command_input import CheckedCommand, whole_number
from play.management import processes


class Command(CheckedCommand):
    help = "Run the web server and Celery workers (filesystem broker unless REDIS_URL is set)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=whole_number(1, 65535), default=8000)
        parser.add_argument("--no-worker", action="store_true", help="serve the web app only")

    def handle(self, *args, **options):
        procs = {}
        # Turn SIGTERM into SystemExit so the `finally` below stops the workers too.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        if not options["no_worker"]:
            if not settings.REDIS_URL:
                for folder in ("queue", "processed", "control"):
                    (settings.BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
            broker = settings.REDIS_URL or f"filesystem ({settings.BROKER_DIR})"
            self.stdout.write(f"Starting Celery workers (chunks; control with beat) on {broker}")
            procs["chunk worker"] = processes.start(
                processes.chunk_worker_command(concurrency=os.cpu_count() or 2)
            )
            procs["control worker"] = processes.start(
                processes.control_worker_command(with_beat=True)
            )
        try:
            self.stdout.write(f"Serving http://{options['host']}:{options['port']}/")
            call_command("runserver", f"{options['host']}:{options['port']}", use_reloader=False)
        finally:
            processes.stop_all(procs, timeout=processes.stop_timeout(), say=self.stdout.write)
