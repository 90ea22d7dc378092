"""The worker processes `runlab` (make run) and `runstack` (make serve) start, and how they stop.

Chunks run on a worker consuming the "chunks" queue; the reconciler runs on a worker of its own
consuming only the "control" queue, so a backlog of chunks cannot delay it. Stopping sends
SIGTERM to each process's main pid only, never to its process group: Celery then does a warm
shutdown (its pool children finish the chunk they are running), gunicorn finishes its requests.
Only a process still alive after the timeout is killed, with its whole group.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable

from django.conf import settings


def chunk_worker_command(*, concurrency: int, hostname: str = "chunks@%h") -> list[str]:
    return [
        *_celery("worker"),
        "--queues",
        settings.CELERY_TASK_DEFAULT_QUEUE,
        "--concurrency",
        str(concurrency),
        "--hostname",
        hostname,
    ]


def control_worker_command(*, with_beat: bool) -> list[str]:
    """One solo process for the reconciler; with celery beat embedded (runlab) or not."""
    command = [
        *_celery("worker"),
        "--queues",
        settings.CONTROL_QUEUE,
        "--pool",
        "solo",
        "--hostname",
        "control@%h",
    ]
    if with_beat:
        command += ["--beat", "--schedule", str(beat_schedule_path())]
    return command


def beat_command() -> list[str]:
    return [*_celery("beat"), "--schedule", str(beat_schedule_path())]


def beat_schedule_path():
    folder = settings.BASE_DIR / "var"
    folder.mkdir(exist_ok=True)
    return folder / "celerybeat-schedule"


def _celery(program: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "cardsite", program, "--loglevel", "INFO"]


def start(command: list[str]) -> subprocess.Popen:
    """Start a process in a session of its own (a terminal's Ctrl-C reaches only the parent)."""
    return subprocess.Popen(command, cwd=settings.BASE_DIR, start_new_session=True)


def stop_all(
    procs: dict[str, subprocess.Popen], *, timeout: float, say: Callable[[str], None]
) -> None:
    """SIGTERM each main pid, wait up to `timeout` seconds in all, then kill what is left."""
    for name, proc in procs.items():
        if proc.poll() is None:
            say(f"stopping {name} (pid {proc.pid})")
            proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for name, proc in procs.items():
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            say(f"{name} did not stop in {timeout:.0f}s; killing it")
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def stop_timeout() -> float:
    """Long enough for a running chunk to finish: the task's hard time limit (+ a margin)."""
    return float(os.environ.get("STOP_TIMEOUT") or settings.CELERY_TASK_TIME_LIMIT + 10)
