"""Serve the web app with Celery workers beside it; stop them together (`make run`).

Two workers: one for simulation chunks, one (solo, with celery beat embedded) for the
reconciler on its own queue, so `make run` always reconciles. Stopping sends SIGTERM to each
worker's main pid only: running chunks finish (warm shutdown) instead of being killed.

The compiled engine (play/engine/compiled.py) is built beside the app, not before it: a first
start serves at once on the plain engine (same results, slower batches), and once the build is
ready the chunk worker is restarted onto it. The web process keeps the engine it started with.
"""

import os
import signal
import sys
import threading

from django.conf import settings
from django.core.management import call_command

from cardsite.web.command_input import CheckedCommand, whole_number
from play.engine import compiled
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
            if not compiled.plain_forced() and compiled.build_state() != "current":
                self._build_beside(procs)
        try:
            self.stdout.write(f"Serving http://{options['host']}:{options['port']}/")
            call_command("runserver", f"{options['host']}:{options['port']}", use_reloader=False)
        finally:
            processes.stop_all(procs, timeout=processes.stop_timeout(), say=self.stdout.write)

    def _build_beside(self, procs: dict) -> None:
        """Compile the engine in the background; restart the chunk worker onto the build."""
        self.stdout.write(
            "Compiling the engine beside the app (a few minutes on a small machine); batches "
            "run on the plain engine until it is ready."
        )
        build = processes.start([sys.executable, "-m", "play.engine", "build"])
        procs["engine build"] = build

        def restart_when_built():
            if build.wait() != 0 or compiled.build_state() != "current":
                return  # no compiler, or it failed: the build said why; plain Python stays
            worker = procs.get("chunk worker")
            if worker is None or worker.poll() is not None:
                return
            self.stdout.write("The compiled engine is ready: restarting the chunk worker on it.")
            processes.stop_all(
                {"chunk worker": worker}, timeout=processes.stop_timeout(), say=self.stdout.write
            )
            procs["chunk worker"] = processes.start(
                processes.chunk_worker_command(concurrency=os.cpu_count() or 2)
            )

        threading.Thread(target=restart_when_built, name="engine-build", daemon=True).start()
