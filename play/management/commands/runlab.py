"""Serve the web app with a Celery worker beside it; stop both together (`make run`)."""

import os
import signal
import subprocess
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run the web server and a Celery worker (filesystem broker unless REDIS_URL is set)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")
        parser.add_argument("--no-worker", action="store_true", help="serve the web app only")

    def handle(self, *args, **options):
        worker = None
        # Turn SIGTERM into SystemExit so the `finally` below stops the worker too.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        if not options["no_worker"]:
            if not settings.REDIS_URL:
                for folder in ("queue", "processed", "control"):
                    (settings.BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
            broker = settings.REDIS_URL or f"filesystem ({settings.BROKER_DIR})"
            self.stdout.write(f"Starting a Celery worker on {broker}")
            worker = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "cardsite",
                    "worker",
                    "--beat",
                    "--loglevel",
                    "INFO",
                    "--concurrency",
                    str(os.cpu_count() or 2),
                    "--schedule",
                    str(settings.BASE_DIR / "var" / "celerybeat-schedule"),
                ],
                cwd=settings.BASE_DIR,
                start_new_session=True,
            )
        try:
            self.stdout.write(f"Serving http://{options['host']}:{options['port']}/")
            call_command("runserver", f"{options['host']}:{options['port']}", use_reloader=False)
        finally:
            if worker is not None and worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
                try:
                    worker.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(worker.pid, signal.SIGKILL)
