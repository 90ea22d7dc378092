"""Helpers for the tests that start real Celery worker processes (never eager mode).

A worker runs `celery -A cardsite worker` against the same test database as the test (the
test commits its data: these tests use transactional_db) and against Redis when the suite
has REDIS_URL, else against the filesystem transport in a temporary folder. The fixtures
that use these (`broker`, `filesystem_broker`, `workers`) are in tests/play/conftest.py.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def database_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    host = s["HOST"] or "127.0.0.1"
    port = s["PORT"] or 5432
    user = s["USER"] or "postgres"
    return f"postgresql://{user}@{host}:{port}/{s['NAME']}"


class Workers:
    """Start and kill worker processes for one test."""

    def __init__(self, broker_env: dict, tmp_path: Path):
        self.broker_env = broker_env
        self.tmp_path = tmp_path
        self.procs: list[subprocess.Popen] = []

    def start(
        self,
        name: str = "w1",
        extra_env: dict | None = None,
        *,
        gate: Path | None = None,
        fault: str | None = None,
        queues: str | None = None,
    ) -> subprocess.Popen:
        """Start a worker; with `gate`, its chunks compute only once that file exists; `fault`
        names an injected fault (both: tests/play/rigged_worker.py); `queues`: the queues it
        consumes (default: the chunk queue, CELERY_TASK_DEFAULT_QUEUE)."""
        env = {
            **os.environ,
            **self.broker_env,
            "DATABASE_URL": database_url(),
            "DJANGO_SETTINGS_MODULE": "cardsite.settings",
            "SIMULATION_MAX_ATTEMPTS": str(settings.SIMULATION_MAX_ATTEMPTS),
            "SIMULATION_RETRY_BACKOFF": "0",
            "SIMULATION_QUEUE_WINDOW": str(settings.SIMULATION_QUEUE_WINDOW),
            **(extra_env or {}),
            **({"CHUNK_GATE": str(gate)} if gate else {}),
            **({"WORKER_FAULT": fault} if fault else {}),
        }
        log = open(self.tmp_path / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.play.rigged_worker" if gate or fault else "celery",
                "-A",
                "cardsite",
                "worker",
                "--pool",
                "solo",
                "--hostname",
                f"{name}@%h",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                *(["--queues", queues] if queues else []),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def kill9(self, proc: subprocess.Popen) -> None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)

    def logs(self) -> str:
        return "\n".join(p.read_text() for p in sorted(self.tmp_path.glob("w*.log")))


def redis_env(url: str) -> dict:
    import redis

    redis.Redis.from_url(url).flushdb()
    return {"REDIS_URL": url, "CELERY_VISIBILITY_TIMEOUT": "30"}


def filesystem_env(tmp_path: Path) -> dict:
    folder = tmp_path / "broker"
    for sub in ("queue", "processed", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return {"REDIS_URL": "", "BROKER_DIR": str(folder)}


def configure(app, env: dict) -> None:
    """Point the Celery app of this (test) process at a broker."""
    if env.get("REDIS_URL"):
        app.conf.broker_url = env["REDIS_URL"]
        app.conf.broker_transport_options = {
            "visibility_timeout": 30,
            **settings.REDIS_TRANSPORT_PRIORITIES,
        }
    else:
        folder = Path(env["BROKER_DIR"])
        app.conf.broker_url = "filesystem://"
        app.conf.broker_transport_options = {
            "data_folder_in": str(folder / "queue"),
            "data_folder_out": str(folder / "queue"),
            "processed_folder": str(folder / "processed"),
            "control_folder": str(folder / "control"),
            "store_processed": False,
        }
    app._pool = None
    app.amqp._producer_pool = None
