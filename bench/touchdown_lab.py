"""Benchmark: the Touchdown recommendation as a lab batch on Celery workers (issue #28 goals).

Usage: .venv/bin/python bench/touchdown_lab.py [--what preview full] [--workers 2]
       [--stronger search|none] [--seed 1] [--database cardlab_bench_td]
       [--redis redis://127.0.0.1:6379/13]

The goal: the recommendation for the draft's rules with greedy bots runs as a lab batch on 2
workers in ≤ 10 minutes, and a quick preview in ≤ 1 minute. Needs PostgreSQL and Redis (as
bench/simulations.py, whose database and worker helpers it uses): it re-creates its own
database, starts the workers (one process each, concurrency 1), creates the batch through the
same service as the lab page (play.simulations.services.lab_batch_create), which queues stage 1;
each later stage (successive halving, then the stronger player's check) is queued by the
workers themselves when a stage ends (BatchKind.next_stage). It polls the batch row every
50 ms and prints, for each run: the wall time from creation to results, the stages, the games,
the workers' CPU seconds and the load average (other work on the machine shows there), and
the stronger player's headline.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.simulations import (  # noqa: E402  (the path above first)
    SERVER,
    group_cpu_seconds,
    recreate_database,
    start_workers,
    stop_workers,
)

DB_NAME = "cardlab_bench_td"
REDIS = "redis://127.0.0.1:6379/13"


def run(what: str, *, workers: int, stronger: str, seed: int) -> None:
    from django.contrib.auth import get_user_model

    from play.models import SimulationBatch
    from play.simulations import services

    user, _ = get_user_model().objects.get_or_create(username=f"bench-td-{what}")
    study = {"kind": "recommend", "bot": "greedy", "preview": what == "preview"}
    study["stronger"] = "" if stronger == "none" else stronger
    procs = start_workers(workers, name="benchtd", quiet=True)
    try:
        cpu_before = group_cpu_seconds(procs)
        started = time.perf_counter()
        batch = services.lab_batch_create(owner=user, variants=[{}], runs=1, seed=seed, study=study)
        while True:
            batch.refresh_from_db()
            if batch.status not in (SimulationBatch.Status.QUEUED, SimulationBatch.Status.RUNNING):
                break
            time.sleep(0.05)
        elapsed = time.perf_counter() - started
        cpu = group_cpu_seconds(procs) - cpu_before
    finally:
        stop_workers(procs)
    load = os.getloadavg()[0]
    if batch.status != SimulationBatch.Status.DONE:
        print(f"{what}: the batch ended {batch.status}: {batch.last_error}")
        return
    found = batch.results["recommendation"]
    check = found.get("strength")
    games = found["games"] + (check["games"] if check else 0)
    goal = 60 if what == "preview" else 600
    stronger_games = f", {check['games']:,} {check['bot']}" if check else ""
    print(
        f"{what}: {elapsed:.1f} s wall on {workers} worker(s) (goal ≤ {goal} s: "
        f"{'met' if elapsed <= goal else 'NOT met'}); {len(batch.params['stages'])} stages, "
        f"{games:,} games ({found['games']:,} greedy{stronger_games}); "
        f"workers' CPU {cpu:.1f} s; load average {load:.1f}"
    )
    top = found["shortlist"][0] if found["shortlist"] else None
    if top:
        print(f"  first: {top['sentence']['en']}")
    if check:
        print(f"  {check['headline']['en']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--what", nargs="+", default=["preview", "full"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--stronger", default="search", help="the check's bot, or none")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", default=DB_NAME)
    parser.add_argument("--redis", default=REDIS)
    args = parser.parse_args()
    os.environ.update(
        DATABASE_URL=f"{SERVER}/{args.database}",
        REDIS_URL=args.redis,
        DJANGO_SETTINGS_MODULE="cardsite.settings",
    )
    recreate_database(args.database)
    import django

    django.setup()
    import redis
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(args.redis).flushdb()
    for what in args.what:
        run(what, workers=args.workers, stronger=args.stronger, seed=args.seed)


if __name__ == "__main__":
    main()
