"""Benchmark: a goldfish batch from the POST to results ready, on 1 and 2 local workers.

Usage: .venv/bin/python bench/simulations.py [--runs 10000] [--workers 1 2] [--chunk-size N]
       [--database cardlab_bench_sim] [--redis redis://127.0.0.1:6379/14] [--cold]

Needs PostgreSQL (127.0.0.1:5432, user postgres) and Redis (127.0.0.1:6379). It creates its own
database `cardlab_bench_sim` (dropped and re-created), loads the catalog, starts Celery worker
processes (one process each, prefork concurrency 1) on Redis db 14, POSTs the batch to the API
and polls the database (every 10 ms) until the batch is done. Before the clock starts, a small
warm-up batch (one chunk for each worker) runs through the same API and workers, as it would
on a server that has served before: the first request of a process imports the URL conf and
the views (≈ 0.3 s), a worker's first chunk opens its connections. `--cold` leaves it out.
It prints the wall time, matches per second,
the 2-to-1 worker ratio, and the PostgreSQL rows written per chunk (from pg_stat_user_tables).
It then prints where the wall time went, from the chunk rows' claim and finish times: the POST,
the wait for the first claim, each worker's chunks and the gaps between them (message pickup,
a chunk's own database work), the idle tail while the last chunk runs alone, the "done"
transition and the poll that saw it.
"""

import argparse
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DB_NAME = "cardlab_bench_sim"
SERVER = "postgresql://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/14"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--database", default=DB_NAME, help=f"dropped and re-made (default {DB_NAME})"
    )
    parser.add_argument("--redis", default=REDIS, help=f"Redis URL with its db (default {REDIS})")
    parser.add_argument("--chunk-size", type=int, help="SIMULATION_CHUNK_MATCHES for the batch")
    parser.add_argument("--cold", action="store_true", help="no warm-up batch before the clock")
    args = parser.parse_args()
    db_name = args.database

    if args.chunk_size:
        os.environ["SIMULATION_CHUNK_MATCHES"] = str(args.chunk_size)
    os.environ.update(
        DATABASE_URL=f"{SERVER}/{db_name}",
        REDIS_URL=args.redis,
        DJANGO_SETTINGS_MODULE="cardsite.settings",
        DEBUG="1",
    )
    sys.path.insert(0, str(ROOT))
    recreate_database(db_name)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("load_catalog", verbosity=0)

    import redis

    redis.Redis.from_url(args.redis).flushdb()
    path = subprocess.run(
        [sys.executable, "-c", "import play.engine as e; print(getattr(e, 'COMPILED', False))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(f"engine path in the workers: {'compiled' if path == 'True' else 'plain Python'}")
    timings = {}
    for count in args.workers:
        timings[count] = run_batch(args.runs, count, warm=not args.cold)
    if 1 in timings and 2 in timings:
        print(f"speed-up 2 workers / 1 worker: {timings[1] / timings[2]:.2f}x (goal >= 1.8x)")


def recreate_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name} ENCODING 'UTF8' TEMPLATE template0")


def table_writes() -> dict[str, int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute(
            "SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_user_tables "
            "WHERE relname LIKE 'play_%'"
        )
        return dict(cursor.fetchall())


def start_workers(
    count: int, *, name: str = "bench", quiet: bool = False
) -> list[subprocess.Popen]:
    """Start `count` Celery worker processes (prefork, concurrency 1), each in its own session;
    `quiet` sends their banners and warnings to /dev/null (a bench printing only figures)."""
    output = subprocess.DEVNULL if quiet else None
    procs = []
    for number in range(count):
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "cardsite",
                    "worker",
                    "--concurrency",
                    "1",
                    "--hostname",
                    f"{name}{number}@%h",
                    "--loglevel",
                    "WARNING",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                ],
                cwd=ROOT,
                env=os.environ.copy(),
                start_new_session=True,
                stdout=output,
                stderr=output,
            )
        )
    time.sleep(4)  # let the workers connect before the clock starts
    return procs


def group_cpu_seconds(procs) -> float:
    """Return the CPU seconds (user + system) used so far by the workers' process groups."""
    groups = {proc.pid for proc in procs}
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) in groups:  # pgrp; each worker leads its own session
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def stop_workers(procs) -> None:
    for proc in procs:
        os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=60)  # a worker finishes the chunk in hand before it stops


def post_and_wait(client, deck, runs: int, seed: int):
    """POST a goldfish batch; poll its row until it is no longer active; return it and the
    POST's own duration."""
    from play.models import SimulationBatch

    started = time.perf_counter()
    response = client.post(
        "/api/simulations/",
        {"kind": "goldfish", "deck_a": deck.slug, "runs": runs, "seed": seed},
        format="json",
    )
    assert response.status_code == 201, response.content
    posted = time.perf_counter() - started
    rows = SimulationBatch.objects.filter(pk=response.json()["id"])
    while rows.filter(status__in=SimulationBatch.ACTIVE).exists():
        time.sleep(0.01)
    return rows.get(), posted


def run_batch(runs: int, workers: int, *, warm: bool = True) -> float:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from decks.models import Deck

    user, _ = get_user_model().objects.get_or_create(username=f"bench{workers}")
    deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
    client = APIClient()
    client.force_authenticate(user)
    procs = start_workers(workers)
    warm_chunks = 0
    try:
        # The rows written are counted from before the warm-up to after the workers stopped:
        # a worker's kept connection reports its statistics to PostgreSQL only now and then
        # (at most every second) and when it closes.
        before = table_writes()
        if warm:
            warmed, _ = post_and_wait(
                client, deck, workers * settings.SIMULATION_CHUNK_MATCHES, seed=2
            )
            warm_chunks = warmed.chunk_count
        cpu_before = group_cpu_seconds(procs)
        started = time.perf_counter()
        started_at = datetime.now(UTC)
        batch, posted = post_and_wait(client, deck, runs, seed=1)
        elapsed = time.perf_counter() - started
        seen_at = datetime.now(UTC)
        cpu = group_cpu_seconds(procs) - cpu_before
    finally:
        stop_workers(procs)
    time.sleep(0.5)  # the workers' server processes report their statistics as they exit
    after = table_writes()
    writes = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    chunks = batch.chunk_count
    print(
        f"{workers} worker(s): {runs} goldfish matches in {chunks} chunks: {elapsed:.2f} s "
        f"({runs / elapsed:,.0f} matches/s){'' if warm else ' cold'}, status {batch.status}, "
        f"results runs {batch.results and batch.results.get('runs')}"
    )
    load = os.getloadavg()[0]
    print(
        f"  workers' CPU: {cpu:.2f} s ({runs / cpu:,.0f} matches per CPU second); "
        f"load average {load:.1f}: on an idle machine about {cpu / workers:.2f} s of wall time"
    )
    chunk_rows = writes.get("play_simulationchunk", 0)
    print(
        f"  PostgreSQL rows written: {sum(writes.values())} in all "
        f"({writes}{f', with the warm-up batch of {warm_chunks} chunks' if warm else ''}); "
        f"chunk-table rows per chunk: {chunk_rows / (chunks + warm_chunks):.2f}"
    )
    timeline(batch, started_at=started_at, posted=posted, seen_at=seen_at, workers=workers)
    return elapsed


def timeline(batch, *, started_at, posted: float, seen_at, workers: int) -> None:
    """Print where the wall time went, from the chunk rows' claim and finish times.

    The rows do not say which worker ran a chunk: each chunk is given to the worker that
    finished its previous chunk last before the claim (the workers run one chunk at a time).
    """
    rows = sorted(
        batch.chunks.values_list("index", "last_attempt_at", "finished_at"), key=lambda r: r[1]
    )

    def at(moment) -> float:
        return (moment - started_at).total_seconds()

    free = [(0.0, None)] * workers  # (time the worker became free, its last chunk's finish)
    busy = gaps = 0.0
    gap_count = 0
    for _index, claimed, finished in rows:
        claim, finish = at(claimed), at(finished)
        slot = max(
            (i for i in range(workers) if free[i][0] <= claim + 1e-3),
            key=lambda i: free[i][0],
            default=min(range(workers), key=lambda i: free[i][0]),
        )
        if free[slot][1] is not None:
            gaps += claim - free[slot][1]
            gap_count += 1
        busy += finish - claim
        free[slot] = (finish, finish)
    first_claim = at(rows[0][1])
    last = max(at(r[2]) for r in rows)
    ends = sorted(f for f, _ in free)
    done = at(batch.finished_at)
    print(
        f"  timeline (s from the POST): POST {posted:.3f}; first claim {first_claim:.3f}; "
        f"chunks claim to finish {busy / len(rows) * 1000:.1f} ms on average; gaps between a "
        f"worker's chunks {gaps / max(gap_count, 1) * 1000:.1f} ms on average ({gaps:.3f} in all)"
        f"; workers' last finishes {', '.join(f'{e:.3f}' for e in ends)} (tail "
        f"{ends[-1] - ends[0]:.3f}); done {done:.3f} (+{(done - last) * 1000:.1f} ms); "
        f"seen {at(seen_at):.3f} (+{(at(seen_at) - done) * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    main()
