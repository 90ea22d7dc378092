"""Profile a goldfish batch's chunks in one process: engine time against everything else.

Usage: .venv/bin/python bench/chunk_profile.py [--runs 10000] [--database cardlab_bench_sim]
       [--redis redis://127.0.0.1:6379/14] [--cprofile N] [--freeze]

Runs `services.chunk_run` for every chunk of a fresh batch, in order, in this process, against
PostgreSQL (the database must exist with the catalog loaded, e.g. after bench/simulations.py
with the same --database). Prints each chunk's CPU time and query count, then the batch's CPU
split into the engine (`kind.run_chunk`), the collector (gc callbacks) and the rest (ORM, the
lease thread, results, top-ups). Messages the create and the top-ups publish go to --redis,
whose db is flushed before and after (no worker should consume it meanwhile). `--cprofile N`
prints cProfile's top N functions by cumulative time; `--freeze` sets the collector first as a
worker's pool child does (play.collector.tune_collector_for_matches, called by cardsite/celery.py).
"""

import argparse
import gc
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--database", default="cardlab_bench_sim")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--cprofile", type=int, default=0, metavar="N")
    parser.add_argument("--freeze", action="store_true")
    args = parser.parse_args()
    os.environ.update(
        DATABASE_URL=f"postgresql://postgres@127.0.0.1:5432/{args.database}",
        REDIS_URL=args.redis,
        DJANGO_SETTINGS_MODULE="cardsite.settings",
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import cProfile
    import pstats

    import redis
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    import cardsite.celery  # noqa: F401  (what a worker has imported)
    import play.tasks  # noqa: F401
    from decks.models import Deck
    from play.models import SimulationBatch
    from play.simulations import kinds, services

    broker = redis.Redis.from_url(args.redis)
    broker.flushdb()
    user, _ = get_user_model().objects.get_or_create(username="chunk-profile")
    SimulationBatch.objects.filter(owner=user).delete()
    deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
    batch = services.batch_create(
        owner=user,
        request=services.BatchRequest(kind="goldfish", deck_a=deck, runs=args.runs, seed=1),
    )
    kind = kinds.get("goldfish")
    run_chunk = kind.run_chunk
    spent = {"engine": 0.0, "gc": 0.0}
    gc_start = [0.0]

    def timed_run_chunk(**kwargs):
        started = time.process_time()
        try:
            return run_chunk(**kwargs)
        finally:
            spent["engine"] += time.process_time() - started

    def on_gc(phase, info):
        if phase == "start":
            gc_start[0] = time.process_time()
        else:
            spent["gc"] += time.process_time() - gc_start[0]

    kind.run_chunk = timed_run_chunk
    gc.callbacks.append(on_gc)
    if args.freeze:
        from play.collector import tune_collector_for_matches

        tune_collector_for_matches()
    profile = cProfile.Profile() if args.cprofile else None
    queries = 0
    started = time.process_time()
    try:
        for index in range(batch.chunk_count):
            with CaptureQueriesContext(connection) as captured:
                chunk_started = time.process_time()
                if profile:
                    profile.enable()
                services.chunk_run(batch_id=batch.id, index=index)
                if profile:
                    profile.disable()
            queries += len(captured)
            print(
                f"chunk {index}: {time.process_time() - chunk_started:.3f} CPU-s, "
                f"{len(captured)} queries"
            )
    finally:
        kind.run_chunk = run_chunk
        gc.callbacks.remove(on_gc)
        broker.flushdb()
    total = time.process_time() - started
    batch.refresh_from_db()
    print(
        f"{batch.chunk_count} chunks, status {batch.status}: {total:.2f} CPU-s in all; engine "
        f"{spent['engine']:.2f} (collector inside it {spent['gc']:.3f}), the rest "
        f"{total - spent['engine']:.2f} ({(total - spent['engine']) / batch.chunk_count * 1000:.1f}"
        f" ms a chunk); {queries} queries ({queries / batch.chunk_count:.1f} a chunk); "
        f"collector tuned {'yes' if args.freeze else 'no'}; load average {os.getloadavg()[0]:.1f}"
    )
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.cprofile)


if __name__ == "__main__":
    main()
