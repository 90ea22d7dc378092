"""Benchmark: swap suggestions over 200 candidates against the 6-deck field (issue #29 goal).

Goal: "against a 6-deck field, a run over 200 candidate swaps finds any swap worth >= +3 points
of win rate with 95% confidence, and finishes in <= 10 minutes on 2 workers".

Usage: .venv/bin/python bench/swaps.py [--runs 8] [--seed 1] [--candidates 200]
       [--effect "shoot:+2"] [--workers N] [--measure 3000] [--verify N] [--truth N]
       [--database cardlab_bench_swaps] [--redis redis://127.0.0.1:6379/9]

It creates its own PostgreSQL database (dropped and re-created), migrates, loads the catalog,
and plants a known good swap: an event card `Planted` (effect `--effect`) in the catalogue and,
as deck A, a copy of the first prebuilt deck. The candidates are every legal swap of the deck's
cards out for the planted card and ordinary catalogue cards in (cards added in catalogue order
until there are at least `--candidates`); the planted swap is 02-171 (an ordinary event) out,
Planted in. The field is the 6 prebuilt decks.

`--measure N` first plays the planted swap against deck A on N fresh match seeds per field deck
(paired, one process, never the batch's seeds) to say how good the planted swap really is.

`--truth N` after the batch re-plays, with their real card ids, every swap that did not stand but
might be worth +3 points (estimate >= +1, or a screening bound >= +2) on N fresh seeds a deck,
and says whether any is clearly worth more than +3 points (a miss).

Then it creates the swaps batch through `services.batch_create` (the runs cap, the stages) and
runs it: inline, every chunk of every stage in this one process through `services.chunk_run`
(as a worker would), or with `--workers N` on N real Celery worker processes (prefork
concurrency 1, Redis db of `--redis`), polling the batch row. It prints the wall time, the
matches played (deck A once a group), each stage's candidates and decisions, the planted swap's
rank, confirmation and decision, the other swaps that stand, and the load average.
"""

import argparse
import os
import sys
import time
from pathlib import Path
from unittest.mock import patch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.simulations import (  # noqa: E402  (the path above first)
    SERVER,
    recreate_database,
    start_workers,
    stop_workers,
)

DB_NAME = "cardlab_bench_swaps"
REDIS = "redis://127.0.0.1:6379/9"
OUT = "02-171"  # the default out-card of the planted swap (--out)


def main() -> None:
    global OUT  # noqa: PLW0603 - one run, one planted swap
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8, help="first stage's runs per field deck")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--candidates", type=int, default=200)
    parser.add_argument("--effect", default="shoot:+9;keep:+9", help="the planted event's effect")
    parser.add_argument("--out", default=OUT, help="the card of deck A the planted card replaces")
    parser.add_argument("--workers", type=int, default=0, help="0: inline, in this process")
    parser.add_argument("--measure", type=int, default=0, help="fresh paired seeds per deck")
    parser.add_argument("--measure-only", action="store_true", help="no batch, --measure only")
    parser.add_argument(
        "--verify", type=int, default=0, help="re-play each standing swap on N fresh seeds a deck"
    )
    parser.add_argument(
        "--truth",
        type=int,
        default=0,
        help="re-play every swap that did not stand but might be worth +3 on N fresh seeds a deck",
    )
    parser.add_argument("--database", default=DB_NAME, help="dropped and re-made")
    parser.add_argument("--redis", default=REDIS, help="Redis URL with its db (workers only)")
    args = parser.parse_args()
    OUT = args.out

    os.environ.update(
        DATABASE_URL=f"{SERVER}/{args.database}",
        DJANGO_SETTINGS_MODULE="cardsite.settings",
        DEBUG="1",
    )
    if args.workers:
        os.environ["REDIS_URL"] = args.redis
    else:
        os.environ.pop("REDIS_URL", None)
    recreate_database(args.database)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("load_catalog", verbosity=0)
    if args.workers:
        import redis

        redis.Redis.from_url(args.redis).flushdb()

    user, deck, planted, study = plant(args)
    if args.measure:
        from decks.legality import engine_card

        print("the planted swap's true effect:", end=" ")
        measure(deck, [OUT, planted.id], engine_card(planted).to_log(), args.measure)
    if args.measure_only:
        return
    load_before = os.getloadavg()
    started = time.perf_counter()
    if args.workers:
        procs = start_workers(args.workers, name="benchswaps", quiet=True)
        try:
            started = time.perf_counter()
            batch = create(user, deck, args, study, queue=True)
            while batch.is_active:
                time.sleep(0.2)
                batch.refresh_from_db()
        finally:
            stop_workers(procs)
    else:
        with patch("play.simulations.services.queue_chunks"):  # this process is the worker
            batch = create(user, deck, args, study, queue=False)
            run_inline(batch)
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()
    report(batch, planted, elapsed, args, load_before, load_after)
    if args.verify:
        print(f"re-played on fresh seeds ({args.verify} a deck), each swap that stands:")
        for row in [r for r in batch.results["swaps"] if r["stands"]]:
            in_card = batch.params["in_cards"][row["in"]]
            measure(deck, [row["out"], row["in"]], in_card, args.verify)
    if args.truth:
        truth(deck, batch, args.truth)


def plant(args):
    """Return the user, deck A (a copy of the first prebuilt deck), the planted card and the
    study (out, in) that makes at least `--candidates` legal swaps, the planted one among them."""
    from django.contrib.auth import get_user_model

    from catalog.models import Card
    from decks.legality import engine_card
    from decks.services import deck_copy
    from play.simulations import swaps
    from play.simulations.sides import latest_snapshot, prebuilt_decks

    user, _ = get_user_model().objects.get_or_create(username="bench-swaps")
    template = Card.objects.get(pk=OUT)
    planted = Card.objects.create(
        id=Card.make_id(template.card_set.code, 990),
        card_set=template.card_set,
        number=990,
        name="Planted",
        name_ja="仕込み",
        kind="event",
        effect=args.effect,
    )
    field = prebuilt_decks()
    deck = deck_copy(deck=field.first(), owner=user)
    snapshot = latest_snapshot(deck, "deck", {}, verb="played")[1]
    outs = sorted(set(snapshot["cards"]))
    assert OUT in outs
    ins = {planted.id: engine_card(planted).to_log()}
    others = Card.objects.exclude(kind="goalkeeper").exclude(pk=planted.pk).order_by("id")
    for card in others:
        if len(swaps.candidate_swaps(snapshot, ins)) >= args.candidates:
            break
        ins[card.id] = engine_card(card).to_log()
    found = swaps.candidate_swaps(snapshot, ins)
    print(
        f"field: {field.count()} prebuilt decks; deck A: a copy of {field.first().name}; "
        f"candidates: {len(found)} ({len(outs)} cards out x {len(ins)} in, the legal ones); "
        f"planted: {OUT} out, {planted.id} ({args.effect}) in"
    )
    return user, deck, planted, {"out": outs, "in": sorted(ins)}


def measure(deck, swap: list[str], in_card: dict, seeds: int) -> dict:
    """Print and return a swap's true change in win rate, on fresh seeds, paired."""
    from play.simulations import swaps
    from play.simulations.sides import latest_snapshot, prebuilt_decks

    base = latest_snapshot(deck, "deck", {}, verb="played")[1]
    n = up = down = 0
    started = time.perf_counter()
    for number, opponent in enumerate(prebuilt_decks()):
        side = latest_snapshot(opponent, "deck", {}, verb="played")[1]
        result = swaps.run_chunk(
            base=base,
            opponent=side,
            swaps=[swap],
            alive=[0],
            in_cards={swap[1]: in_card},
            params={},
            runs=seeds,
            seed=10**12 + number,  # never a batch's chunk seed
        )
        _wins, u, d = result["candidates"]["0"]
        n, up, down = n + seeds, up + u, down + d
    stat = swaps.paired(n, up, down)
    low, high = stat["interval"]
    print(
        f"{swap[0]} -> {swap[1]} on {n:,} fresh paired seeds: {stat['difference'] * 100:+.2f} "
        f"points [{low * 100:+.2f}, {high * 100:+.2f}] ({time.perf_counter() - started:.0f} s)"
    )
    return stat


def truth(deck, batch, seeds: int) -> None:
    """Look for misses: re-play, with their real card ids, every swap that did not stand and
    whose estimate is at least +1 point or whose screening could not rule out +2, on `seeds`
    fresh paired seeds a field deck, and print those whose fresh interval lies above +3 points
    (a swap worth >= +3 that the run did not mark)."""
    from unittest.mock import patch as patched

    from play.simulations import swaps
    from play.simulations.sides import latest_snapshot, prebuilt_decks

    rows = [
        r
        for r in batch.results["swaps"]
        if not r["stands"] and ((r["difference"] or 0) >= 0.01 or (r["screen_high"] or 0) >= 0.02)
    ]
    print(f"truth: {len(rows)} swaps that did not stand might be worth +3; re-playing them")
    if not rows:
        return
    base = latest_snapshot(deck, "deck", {}, verb="played")[1]
    pairs = [[r["out"], r["in"]] for r in rows]
    totals = {str(i): [0, 0, 0] for i in range(len(rows))}
    started = time.perf_counter()
    real_ids = lambda snapshot, swap, in_cards: swaps.swapped(snapshot, swap, in_cards)  # noqa: E731
    with patched.object(swaps, "stand_in", real_ids):
        for number, opponent in enumerate(prebuilt_decks()):
            side = latest_snapshot(opponent, "deck", {}, verb="played")[1]
            result = swaps.run_chunk(
                base=base,
                opponent=side,
                swaps=pairs,
                alive=list(range(len(pairs))),
                in_cards=batch.params["in_cards"],
                params={},
                runs=seeds,
                seed=2 * 10**12 + number,  # never a batch's chunk seed
            )
            for key, (_wins, up, down) in result["candidates"].items():
                total = totals[str(int(key))]
                total[0] += seeds
                total[1] += up
                total[2] += down
    misses = 0
    for i, row in enumerate(rows):
        stat = swaps.paired(*totals[str(i)])
        low, high = stat["interval"]
        miss = low > swaps.WORTH
        misses += miss
        print(
            f"  {row['out']} -> {row['in']} ({row['decision']}, "
            f"batch {row['difference'] * 100:+.1f}):"
            f" fresh {stat['difference'] * 100:+.2f} [{low * 100:+.2f}, {high * 100:+.2f}]"
            + ("  MISS: worth > +3" if miss else "")
        )
    print(
        f"truth: {misses} of {len(rows)} re-played swaps are clearly worth more than +3 points "
        f"({time.perf_counter() - started:.0f} s)"
    )


def create(user, deck, args, study, *, queue: bool):
    from play.simulations import services

    request = services.BatchRequest(
        kind="swaps", deck_a=deck, runs=args.runs, seed=args.seed, study=study
    )
    if queue:
        return services.batch_create(owner=user, request=request)
    with patch("play.simulations.services.queue_chunks"):
        return services.batch_create(owner=user, request=request)


def run_inline(batch) -> None:
    """Run every chunk of every stage in this process, in index order, as one worker would."""
    from play.simulations import services

    while True:
        batch.refresh_from_db()
        left = list(
            batch.chunks.filter(finished_at__isnull=True)
            .order_by("index")
            .values_list("index", flat=True)
        )
        if not left or not batch.is_active:
            return
        for index in left:
            services.chunk_run(batch_id=batch.pk, index=index)


def report(batch, planted, elapsed, args, load_before, load_after) -> None:
    results = batch.results or {}
    rows = results.get("swaps", [])
    rank = next(
        (i for i, row in enumerate(rows, 1) if (row["out"], row["in"]) == (OUT, planted.id)),
        None,
    )
    row = rows[rank - 1] if rank else None
    standing = [r for r in rows if r["stands"]]
    mode = f"{args.workers} Celery worker(s)" if args.workers else "inline (one process)"
    matches = sum(
        result["runs"] * (1 + len(result["candidates"]))
        for result in batch.chunks.exclude(result=None).values_list("result", flat=True)
    )
    print(f"mode: {mode}; status {batch.status}; stages {results.get('stages')}")
    print(
        f"wall time: {elapsed:.1f} s (goal <= 600 s on 2 workers); matches played: "
        f"{matches:,} ({matches / elapsed:,.0f} matches/s); "
        f"chunks {batch.chunk_count}; candidates {results.get('candidates')}"
    )
    decisions = {}
    for r in rows:
        decisions[r.get("decision")] = decisions.get(r.get("decision"), 0) + 1
    for number, stage in enumerate(batch.params["stages"]):
        print(
            f"  stage {number + 1}{' (confirmation)' if stage['confirmation'] else ''}: "
            f"{len(stage['alive'])} candidates, {stage['runs']} seeds a deck"
            + (
                f"; then {len(stage.get('below', []))} below +3, {len(stage.get('above', []))} "
                "clearly above"
                if not stage["confirmation"]
                else ""
            )
        )
    print(f"decisions: {decisions}; confirmed (Holm's family): {results.get('confirmed')}")
    if row is None:
        print("planted swap: NOT among the results")
    else:
        confirmed = row["confirmed"] or {}
        interval = confirmed.get("interval") or [None, None]
        print(
            f"planted swap: rank {rank} of {len(rows)}, {row['difference'] * 100:+.2f} points "
            f"over {row['matches']:,} pairs, reached stage {row['stages']}; confirmation "
            + (
                f"{confirmed['difference'] * 100:+.2f} points "
                f"[{interval[0] * 100:+.2f}, {interval[1] * 100:+.2f}] on {confirmed['pairs']:,} "
                f"fresh pairs, one-sided p={confirmed['p_better']:.2g}, power "
                f"{(confirmed.get('power') or 0) * 100:.1f}% at "
                f"{(confirmed.get('sized_for') or 0) * 100:+.1f} points"
                if confirmed
                else "none (dropped before it)"
            )
            + f"; decision: {row['decision']}"
        )
    shown = ", ".join(f"{r['out']}->{r['in']} {r['difference'] * 100:+.1f}" for r in standing)
    print(f"swaps standing: {shown or 'none'}")
    print(
        f"load average (1, 5, 15 min) before {tuple(round(x, 1) for x in load_before)}, "
        f"after {tuple(round(x, 1) for x in load_after)}; {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
