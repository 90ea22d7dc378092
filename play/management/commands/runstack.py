"""The production processes of `make serve`: gunicorn, a Celery worker and Celery beat.

Each process runs in a session of its own, so a Ctrl-C in the terminal reaches only this
command; it then sends SIGTERM to each process's main pid (never to a process group): gunicorn
finishes its requests and Celery's worker finishes the chunks its pool children are running (a
warm shutdown) before they exit. If any of the three exits on its own, the others are stopped
and the command fails, so a supervisor (systemd, a container runtime) sees it and restarts.
"""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


def default_web_workers() -> int:
    """gunicorn's advice, (2 x cores) + 1, kept small enough to leave the cores to the chunks."""
    return min(2 * (os.cpu_count() or 1) + 1, 9)


class Command(BaseCommand):
    help = "Run gunicorn, a Celery worker and Celery beat together (production: docs/deploy.md)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")
        parser.add_argument(
            "--web-workers",
            type=int,
            default=int(os.environ.get("WEB_CONCURRENCY") or default_web_workers()),
            help="gunicorn worker processes (WEB_CONCURRENCY; default 2 x cores + 1, at most 9)",
        )
        parser.add_argument(
            "--chunk-workers",
            type=int,
            default=int(os.environ.get("CELERY_CONCURRENCY") or os.cpu_count() or 2),
            help="Celery pool processes running simulation chunks (CELERY_CONCURRENCY; cores)",
        )
        parser.add_argument(
            "--stop-timeout",
            type=float,
            default=float(os.environ.get("STOP_TIMEOUT") or 330),
            help="seconds to wait for running chunks before killing (default: the task limit)",
        )

    def handle(self, *args, **options):
        if settings.DEBUG:
            raise CommandError("runstack is the production stack: set DEBUG=0 (make serve does).")
        if not settings.REDIS_URL:
            raise CommandError(
                "runstack needs REDIS_URL, the broker of the Celery worker and beat."
            )
        var = settings.BASE_DIR / "var"
        var.mkdir(exist_ok=True)
        python = sys.executable
        commands = {
            "web": [
                python,
                "-m",
                "gunicorn",
                "cardsite.wsgi:application",
                "--bind",
                f"{options['host']}:{options['port']}",
                "--workers",
                str(options["web_workers"]),
                "--timeout",
                "30",
                "--graceful-timeout",
                "20",
                "--access-logfile",
                "-",
                "--forwarded-allow-ips",
                os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
            ],
            "worker": [
                python,
                "-m",
                "celery",
                "-A",
                "cardsite",
                "worker",
                "--loglevel",
                "INFO",
                "--concurrency",
                str(options["chunk_workers"]),
                "--hostname",
                "chunks@%h",
            ],
            "beat": [
                python,
                "-m",
                "celery",
                "-A",
                "cardsite",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(var / "celerybeat-schedule"),
            ],
        }
        procs: dict[str, subprocess.Popen] = {}
        stopping = False

        def request_stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGINT, request_stop)
        try:
            for name, command in commands.items():
                self.stdout.write(f"runstack: starting {name}: {' '.join(command[1:])}")
                self.stdout.flush()
                procs[name] = subprocess.Popen(
                    command, cwd=settings.BASE_DIR, start_new_session=True
                )
            self.stdout.write(f"runstack: serving http://{options['host']}:{options['port']}/")
            self.stdout.flush()
            died = None
            while not stopping and died is None:
                time.sleep(0.5)
                died = next((n for n, p in procs.items() if p.poll() is not None), None)
        finally:
            self._stop(procs, options["stop_timeout"])
        if died is not None:
            code = procs[died].returncode
            raise CommandError(f"runstack: {died} exited with {code}; stopped the others")

    def _stop(self, procs: dict[str, subprocess.Popen], timeout: float) -> None:
        for name, proc in procs.items():
            if proc.poll() is None:
                self.stdout.write(f"runstack: stopping {name} (pid {proc.pid})")
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for name, proc in procs.items():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.stderr.write(f"runstack: {name} did not stop in {timeout:.0f}s; killing it")
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
