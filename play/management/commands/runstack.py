"""The production processes of `make serve`: gunicorn, Celery workers and Celery beat.

Four processes, each in a session of its own, so a Ctrl-C in the terminal reaches only this
command: gunicorn, a worker for simulation chunks, a solo worker for the reconciler on its own
queue (a backlog of chunks cannot delay it) and celery beat, which schedules the reconciler. On
SIGTERM or SIGINT it sends SIGTERM to each process's main pid (never to a process group):
gunicorn finishes its requests and Celery finishes the chunks its pool children are running (a
warm shutdown) before they exit. If any process exits on its own, the others are stopped and
the command fails, so a supervisor (systemd, a container runtime) sees it and restarts it.

Roles: `--web` (gunicorn), `--worker` (the chunk and control workers), `--beat` (celery beat);
none given runs all of them. Beat schedules the reconciler and must run on exactly one host
of a deployment, so a second host runs `runstack --web --worker` (docs/deploy.md).
"""

import os
import signal
import sys
import time

from django.conf import settings
from django.core.management.base import CommandError

from cardsite.web.command_input import CheckedCommand, seconds, whole_number
from play.management import processes


def default_web_workers() -> int:
    """gunicorn's advice, (2 x cores) + 1, kept small enough to leave the cores to the chunks."""
    return min(2 * (os.cpu_count() or 1) + 1, 9)


ROLES = {
    "web": "gunicorn",
    "worker": "the chunk worker and the control worker",
    "beat": "celery beat (one host of a deployment only)",
}


def chosen_roles(options) -> list[str]:
    """Return the roles the options name, in ROLES order; all of them when none is named."""
    named = [role for role in ROLES if options.get(role)]
    return named or list(ROLES)


class Command(CheckedCommand):
    help = "Run gunicorn, Celery workers and Celery beat together (production: docs/deploy.md)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=whole_number(1, 65535), default=8000)
        parser.add_argument(
            "--web-workers",
            type=whole_number(1, 64),
            default=int(os.environ.get("WEB_CONCURRENCY") or default_web_workers()),
            help="gunicorn worker processes (WEB_CONCURRENCY; default 2 x cores + 1, at most 9)",
        )
        parser.add_argument(
            "--chunk-workers",
            type=whole_number(1, 64),
            default=int(os.environ.get("CELERY_CONCURRENCY") or os.cpu_count() or 2),
            help="Celery pool processes running simulation chunks (CELERY_CONCURRENCY; cores)",
        )
        for role, what in ROLES.items():
            parser.add_argument(f"--{role}", action="store_true", help=f"run {what}")
        parser.add_argument(
            "--stop-timeout",
            type=seconds(0, 3600),
            default=processes.stop_timeout(),
            help="seconds to wait for running chunks before killing (STOP_TIMEOUT)",
        )

    def handle(self, *args, **options):
        if settings.DEBUG:
            raise CommandError("runstack is the production stack: set DEBUG=0 (make serve does).")
        roles = chosen_roles(options)
        if not settings.REDIS_URL:
            raise CommandError("runstack needs REDIS_URL (the broker of the workers and beat).")
        commands = self.commands(options, roles)
        procs = {}
        stopping = False

        def request_stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGINT, request_stop)
        died = None
        try:
            for name, command in commands.items():
                self._say(f"starting {name}: {' '.join(command[1:])}")
                procs[name] = processes.start(command)
            if "web" in roles:
                self._say(f"serving http://{options['host']}:{options['port']}/")
            while not stopping and died is None:
                time.sleep(0.5)
                died = next((n for n, p in procs.items() if p.poll() is not None), None)
        finally:
            processes.stop_all(procs, timeout=options["stop_timeout"], say=self._say)
        if died is not None:
            code = procs[died].returncode
            raise CommandError(f"runstack: {died} exited with {code}; stopped the others")

    @staticmethod
    def commands(options, roles: list[str]) -> dict[str, list[str]]:
        """Return the command line of each process of the given roles, by process name."""
        commands = {}
        if "web" in roles:
            commands["web"] = [
                sys.executable,
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
            ]
        if "worker" in roles:
            commands["chunk worker"] = processes.chunk_worker_command(
                concurrency=options["chunk_workers"]
            )
            commands["control worker"] = processes.control_worker_command(with_beat=False)
        if "beat" in roles:
            commands["beat"] = processes.beat_command()
        return commands

    def _say(self, message: str) -> None:
        self.stdout.write(f"runstack: {message}")
        self.stdout.flush()
