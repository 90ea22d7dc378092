"""Write paths of the play app: turning saved decks into engine input, and simulation batches.

Batches follow one design (ARCHITECTURE.md, issue #5): the batch row and every chunk row are
planned in one transaction; chunk tasks are queued on commit; a task claims nothing and counts
nothing, it computes its chunk (a pure function of the batch seed and chunk index) and writes
the result with a conditional UPDATE that only the first finisher wins; the batch is marked
done by a conditional UPDATE when no chunk is left unfinished.
"""

from __future__ import annotations

import logging
import random
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection, transaction
from django.db.models import Count, Exists, F, OuterRef, Q
from django.utils import timezone

from decks.content import DeckContent
from decks.legality import engine_card
from decks.models import Deck, DeckVersion
from decks.selectors import UnknownCards, cards_of
from play import lab, simulation
from play.engine.legality import deck_problems
from play.models import MatchLog, SimulationBatch, SimulationChunk

log = logging.getLogger(__name__)


class BatchInvalid(ValueError):
    """Bad batch parameters: `errors` maps each field to its messages."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))


class ChunkGaveUp(RuntimeError):
    """A chunk failed too often; its batch is marked failed."""


def latest_version(deck: Deck) -> DeckVersion | None:
    return deck.versions.order_by("-number").first()


def version_snapshot(version: DeckVersion) -> tuple[dict, list]:
    """Return (engine-ready snapshot, problems) for a deck version as the catalog stands."""
    return content_snapshot(name=version.name, content=DeckContent.from_json(version.content))


def content_snapshot(*, name: str, content: DeckContent) -> tuple[dict, list[str]]:
    """Return (engine-ready snapshot, problems) for deck content; problems block play."""
    try:
        cards = cards_of(content)
    except UnknownCards as exc:
        return {}, [f"unknown card id(s) {', '.join(exc.ids)}"]
    engine = {card_id: engine_card(card) for card_id, card in cards.items()}
    deck_cards = [engine[c] for c in sorted(content.deck) for _ in range(content.deck[c])]
    bench_cards = [engine[c] for c in sorted(content.bench) for _ in range(content.bench[c])]
    goalkeeper = engine.get(content.goalkeeper) if content.goalkeeper else None
    pk_goalkeeper = engine.get(content.pk_goalkeeper) if content.pk_goalkeeper else None
    problems = deck_problems(
        deck=[(c, 1) for c in deck_cards],
        bench=[(c, 1) for c in bench_cards],
        goalkeeper=goalkeeper,
        pk_goalkeeper=pk_goalkeeper,
    )
    if problems:
        return {}, [f"{p.rule}: {p.message}" for p in problems]
    snapshot = simulation.side_snapshot(
        name=name,
        cards=[c.to_log() for c in deck_cards],
        goalkeeper=goalkeeper.to_log(),
        pk_goalkeeper=pk_goalkeeper.to_log() if pk_goalkeeper else None,
        bench=[c.to_log() for c in bench_cards],
    )
    return snapshot, []


def gauntlet_decks() -> list[Deck]:
    """Return the public prebuilt (sample) decks a gauntlet plays against, in a fixed order."""
    return list(
        Deck.objects.filter(
            is_sample=True, visibility=Deck.Visibility.PUBLIC, is_legal=True
        ).order_by("slug")
    )


@dataclass
class BatchRequest:
    kind: str
    deck_a: Deck
    deck_b: Deck | None = None
    runs: int = 1000
    seed: int | None = None
    policy_a: str = "greedy"
    policy_b: str = "greedy"


def _common_errors(*, owner, runs, seed) -> dict[str, list[str]]:
    """Return the problems every kind of batch checks: runs, seed, the per-user limit."""
    errors: dict[str, list[str]] = {}
    limit = settings.SIMULATION_MAX_RUNS
    if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= limit:
        errors["runs"] = [f"Runs must be a whole number from 1 to {limit:,}."]
    if seed is not None and not 0 <= seed < 2**63:
        errors["seed"] = ["The seed must be a whole number from 0 to 2^63 - 1."]
    active = SimulationBatch.objects.filter(owner=owner, status__in=SimulationBatch.ACTIVE)
    if active.count() >= settings.SIMULATION_MAX_ACTIVE_PER_USER:
        errors.update(_limit_error())  # checked again under a lock when the batch is written
    return errors


def _check(request: BatchRequest, owner) -> dict[str, list[str]]:
    errors = _common_errors(owner=owner, runs=request.runs, seed=request.seed)
    if request.kind not in simulation.KINDS:
        errors["kind"] = [f"Unknown kind {request.kind!r}: use {', '.join(simulation.KINDS)}."]
    for name in ("policy_a", "policy_b"):
        if getattr(request, name) not in simulation.POLICIES:
            errors[name] = [f"Unknown policy: use {', '.join(simulation.POLICIES)}."]
    if request.kind in ("pk", "match") and request.deck_b is None:
        errors["deck_b"] = ["This kind of batch needs an opponent deck."]
    return errors


def _batch_save(
    *, kind: str, runs: int, seed: int | None, opponents: int, opponent_versions=(), **fields
) -> SimulationBatch:
    """Write the batch and all of its chunk rows in one transaction; queue them on commit.

    The total planned runs (all opponents or variants together) are capped, and the per-user
    active-batch limit is checked under a lock on the owner's row, so parallel requests cannot
    both pass the check and insert (a plain count-then-insert let 14 parallel POSTs leave 11
    active batches against a limit of 3).
    """
    chunk_size = settings.SIMULATION_CHUNK_SIZE[kind]
    specs = simulation.plan_chunks(kind=kind, runs=runs, chunk_size=chunk_size, opponents=opponents)
    total = sum(spec.runs for spec in specs)
    limit = settings.SIMULATION_MAX_RUNS
    if total > limit:
        raise BatchInvalid(
            {
                "runs": [
                    f"{runs:,} runs for each of {opponents} opponents or variants make "
                    f"{total:,} in all; a batch may plan at most {limit:,}."
                ]
            }
        )
    owner = fields["owner"]
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        active = SimulationBatch.objects.filter(owner=owner, status__in=SimulationBatch.ACTIVE)
        if active.count() >= settings.SIMULATION_MAX_ACTIVE_PER_USER:
            raise BatchInvalid(_limit_error())
        batch = SimulationBatch.objects.create(
            kind=kind,
            runs=runs,
            seed=seed if seed is not None else random.SystemRandom().getrandbits(62),
            chunk_size=chunk_size,
            chunk_count=len(specs),
            **fields,
        )
        batch.opponent_versions.set(opponent_versions)
        SimulationChunk.objects.bulk_create(
            SimulationChunk(batch=batch, index=s.index, opponent=s.opponent, runs=s.runs)
            for s in specs
        )
        batch.broker_unavailable = False
        transaction.on_commit(lambda: _publish_new_batch(batch, len(specs)))
    return batch


def _limit_error() -> dict[str, list[str]]:
    return {
        "non_field_errors": [
            f"You already have {settings.SIMULATION_MAX_ACTIVE_PER_USER} batches running; "
            "wait for one to finish or cancel it."
        ]
    }


# Errors of the infrastructure, not of a chunk: retried with backoff, never counted as attempts.
def transient_errors() -> tuple[type[BaseException], ...]:
    from django.db import InterfaceError, OperationalError
    from kombu.exceptions import OperationalError as BrokerError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (OperationalError, InterfaceError, BrokerError, RedisConnectionError, RedisTimeoutError)


def _publish_new_batch(batch: SimulationBatch, count: int) -> None:
    """Queue a new batch's chunks: the first few here, the rest from the control worker.

    A 12,000-chunk gauntlet published inside the request took 12-38 s; now the request sends at
    most SIMULATION_PUBLISH_INLINE messages. With the broker down nothing is lost: the batch is
    saved, `broker_unavailable` tells the caller, and the reconciler queues the never-delivered
    chunks once the broker is back.
    """
    from play.tasks import simulation_batch_publish

    inline = min(count, settings.SIMULATION_PUBLISH_INLINE)
    try:
        queue_chunks(batch.id, range(inline))
        if count > inline:
            simulation_batch_publish.apply_async((batch.id, inline), queue=settings.CONTROL_QUEUE)
    except transient_errors() as exc:
        log.warning("Batch %s saved but not queued (broker unavailable: %s)", batch.id, exc)
        batch.broker_unavailable = True


def batch_publish_rest(*, batch_id: int, start: int) -> int:
    """Queue chunks `start..` of a batch (control worker); stops early if it was cancelled."""
    indexes = list(
        SimulationChunk.objects.filter(
            batch_id=batch_id, index__gte=start, finished_at__isnull=True
        )
        .order_by("index")
        .values_list("index", flat=True)
    )
    sent = 0
    for offset in range(0, len(indexes), 200):
        if not SimulationBatch.objects.filter(
            pk=batch_id, status__in=SimulationBatch.ACTIVE
        ).exists():
            break
        queue_chunks(batch_id, indexes[offset : offset + 200])
        sent += len(indexes[offset : offset + 200])
    return sent


def batch_create(*, owner, request: BatchRequest) -> SimulationBatch:
    """Create a batch and its chunk rows; queue the chunks once the transaction commits."""
    errors = _check(request, owner)
    versions: list[DeckVersion] = []
    sides: list[dict] = []
    decks = [("deck_a", request.deck_a)]
    if request.kind in ("pk", "match"):
        decks.append(("deck_b", request.deck_b))
    elif request.kind == "goldfish":
        decks.append(("deck_b", request.deck_b or _default_goldfish_opponent()))
    elif request.kind == "gauntlet":
        decks += [("deck_b", deck) for deck in gauntlet_decks()]
    for field, deck in decks:
        if deck is None:
            errors.setdefault(field, []).append("No opponent deck is available.")
            continue
        version = latest_version(deck)
        snapshot, problems = version_snapshot(version) if version else ({}, ["never saved"])
        if problems:
            errors.setdefault(field, []).append(
                f"{deck.name} is not legal, so it cannot be simulated: " + "; ".join(problems)
            )
        versions.append(version)
        sides.append(snapshot)
    if errors:
        raise BatchInvalid(errors)
    params = {"runs": request.runs, "policy_a": request.policy_a, "policy_b": request.policy_b}
    if request.kind == "goldfish":
        params["policy_b"] = "passive"
    if request.kind == "pk":
        params["exact"] = simulation.exact_pk_probability(
            simulation.side_deck(sides[0]), simulation.side_deck(sides[1])
        )
    return _batch_save(
        kind=request.kind,
        runs=request.runs,
        seed=request.seed,
        opponents=len(sides) - 1,
        opponent_versions=versions[1:],
        owner=owner,
        deck_a_version=versions[0],
        deck_b_version=versions[1] if len(versions) == 2 else None,
        params=params,
        sides=sides,
    )


def lab_batch_create(
    *, owner, variants: list[dict], runs: int, seed: int | None = None
) -> SimulationBatch:
    """Create a Touchdown Heroes lab batch: `runs` games of each rule variant (1 or 2)."""
    errors = _common_errors(owner=owner, runs=runs, seed=seed)
    if not 1 <= len(variants) <= 2:
        errors["variants"] = ["Give one rule variant, or two to compare."]
    cleaned = []
    for number, variant in enumerate(variants[:2]):
        try:
            cleaned.append(lab.clean_variant(variant, prefix=f"variant_{'ab'[number]}_"))
        except lab.VariantError as exc:
            errors.update(exc.errors)
    if errors:
        raise BatchInvalid(errors)
    return _batch_save(
        kind=SimulationBatch.Kind.TOUCHDOWN,
        runs=runs,
        seed=seed,
        opponents=len(cleaned),
        owner=owner,
        params={"runs": runs, "variants": [v["label"] for v in cleaned]},
        sides=cleaned,
    )


def _default_goldfish_opponent() -> Deck | None:
    decks = gauntlet_decks()
    return decks[0] if decks else None


def queue_chunks(batch_id: int, indexes) -> None:
    """Publish chunk messages, each with a priority from its owner's work queued before it.

    Fair sharing between users: the n-th unfinished chunk of an owner (counting their older
    active batches first) gets priority n // SIMULATION_FAIR_STEP (0 is served first, at most
    9), so one user's 12,000-chunk batch fills the low priorities while another user's small
    batch still starts within a few chunks. Priorities need the Redis broker (queue order
    strategy "priority"); the filesystem broker of `make run` ignores them.
    """
    from play.tasks import simulation_chunk_run

    indexes = list(indexes)
    if not indexes:
        return
    batch = SimulationBatch.objects.only("owner_id", "created_at").get(pk=batch_id)
    ahead = SimulationChunk.objects.filter(
        batch__owner_id=batch.owner_id,
        batch__status__in=SimulationBatch.ACTIVE,
        finished_at__isnull=True,
    ).filter(
        Q(batch__created_at__lt=batch.created_at) | Q(batch_id=batch_id, index__lt=min(indexes))
    )
    queued_before = ahead.count()
    step = max(1, settings.SIMULATION_FAIR_STEP)
    for position, index in enumerate(indexes):
        priority = min(9, (queued_before + position) // step)
        simulation_chunk_run.apply_async((batch_id, index), priority=priority)


def batch_queue_position(batch: SimulationBatch) -> int | None:
    """How many chunks of other users' batches are served before this queued batch starts.

    Counts the unfinished, unclaimed chunks of other active batches whose priority (see
    `queue_chunks`) is at most this batch's first chunk's, approximated per owner as
    min(their unclaimed chunks, (rank + 1) x SIMULATION_FAIR_STEP), where rank is this batch's
    own first-chunk priority. None once the batch is running.
    """
    if batch.status != SimulationBatch.Status.QUEUED:
        return None
    step = max(1, settings.SIMULATION_FAIR_STEP)
    mine_before = SimulationChunk.objects.filter(
        batch__owner_id=batch.owner_id,
        batch__status__in=SimulationBatch.ACTIVE,
        batch__created_at__lt=batch.created_at,
        finished_at__isnull=True,
    ).count()
    rank = min(9, mine_before // step)
    per_owner = (
        SimulationChunk.objects.filter(
            batch__status__in=SimulationBatch.ACTIVE,
            finished_at__isnull=True,
            last_attempt_at__isnull=True,
        )
        .exclude(batch__owner_id=batch.owner_id)
        .values("batch__owner_id")
        .annotate(n=Count("id"))
    )
    others = sum(min(row["n"], (rank + 1) * step) for row in per_owner)
    return others + mine_before


def batch_cancel(*, batch: SimulationBatch) -> bool:
    """Cancel an active batch; return whether it was active."""
    return bool(
        SimulationBatch.objects.filter(pk=batch.pk, status__in=SimulationBatch.ACTIVE).update(
            status=SimulationBatch.Status.CANCELLED, finished_at=timezone.now()
        )
    )


def batch_fail(*, batch_id: int, reason: str) -> None:
    SimulationBatch.objects.filter(pk=batch_id, status__in=SimulationBatch.ACTIVE).update(
        status=SimulationBatch.Status.FAILED, failure_reason=reason, finished_at=timezone.now()
    )


def chunk_run(*, batch_id: int, index: int, count_attempt: bool = True) -> bool:
    """Compute one chunk and record it; return False when there was nothing to do.

    Safe to run any number of times: a chunk already finished, or of a batch no longer
    active, is skipped; the result write is a conditional UPDATE the first finisher wins.
    A chunk found finished also finishes its batch if it was the last one: the worker that
    wrote it may have died (or lost its connection) before marking the batch done.
    `count_attempt=False` is a retry after an infrastructure error, which is not the chunk's
    fault and does not use up its SIMULATION_MAX_ATTEMPTS.
    """
    batch = SimulationBatch.objects.filter(pk=batch_id).first()
    if batch is None or not batch.is_active:
        return False
    now = timezone.now()
    claimed = SimulationChunk.objects.filter(
        batch_id=batch_id, index=index, finished_at__isnull=True
    ).update(attempts=F("attempts") + (1 if count_attempt else 0), last_attempt_at=now)
    if not claimed:
        batch_finish_if_complete(batch_id=batch_id)
        return False
    chunk = SimulationChunk.objects.get(batch_id=batch_id, index=index)
    if chunk.attempts > settings.SIMULATION_MAX_ATTEMPTS:
        reason = (
            f"Chunk {index} failed {chunk.attempts - 1} times; giving up. "
            f"Last error: {chunk.last_error or 'the worker running it was lost'}"
        )
        batch_fail(batch_id=batch_id, reason=reason)
        raise ChunkGaveUp(reason)
    SimulationBatch.objects.filter(pk=batch_id, status=SimulationBatch.Status.QUEUED).update(
        status=SimulationBatch.Status.RUNNING, started_at=now
    )
    first_of_opponent = not SimulationChunk.objects.filter(
        batch_id=batch_id, opponent=chunk.opponent, index__lt=index
    ).exists()
    keep_logs = simulation.SAMPLE_LOGS_PER_OPPONENT if first_of_opponent else 0
    if batch.kind in ("pk", "touchdown"):
        keep_logs = 0  # no Eleven Stars match to replay
    spec = simulation.ChunkSpec(index, chunk.opponent, chunk.runs)
    with chunk_lease(batch_id=batch_id, index=index):
        result, logs = simulation.run_chunk(
            kind=batch.kind,
            sides=batch.sides,
            params=batch.params,
            spec=spec,
            seed=simulation.chunk_seed(batch.seed, index),
            keep_logs=keep_logs,
        )
    with transaction.atomic():
        won = SimulationChunk.objects.filter(
            batch_id=batch_id, index=index, finished_at__isnull=True
        ).update(result=result, finished_at=timezone.now())  # errors stay on the row
        if won:
            MatchLog.objects.bulk_create(
                [
                    MatchLog(
                        owner_id=batch.owner_id,
                        source=MatchLog.Source.BATCH,
                        title=_log_title(batch, match_log),
                        batch_id=batch_id,
                        chunk_index=index,
                        sample_number=number,
                        deck_version_id=batch.deck_a_version_id,
                        log=match_log,
                    )
                    for number, match_log in enumerate(logs)
                ],
                ignore_conflicts=True,
            )
    batch_finish_if_complete(batch_id=batch_id)
    return bool(won)


def lease_renew_seconds() -> float:
    return max(0.5, settings.SIMULATION_STALL_SECONDS / 4)


@contextmanager
def chunk_lease(*, batch_id: int, index: int):
    """Keep a claimed chunk's lease (`last_attempt_at`) fresh while it computes.

    A thread with its own database connection renews it every SIMULATION_STALL_SECONDS / 4,
    so the reconciler re-queues a chunk only when its worker stopped renewing (died, lost
    its node), never one that is merely slow. A failed renewal is retried at the next tick.
    """
    stop = threading.Event()

    def renew():
        try:
            while not stop.wait(lease_renew_seconds()):
                try:
                    SimulationChunk.objects.filter(
                        batch_id=batch_id, index=index, finished_at__isnull=True
                    ).update(last_attempt_at=timezone.now())
                except Exception as exc:  # the next tick tries again
                    log.warning("Lease of chunk %s/%s not renewed: %s", batch_id, index, exc)
                    close_old_connections()
        finally:
            connection.close()

    thread = threading.Thread(target=renew, name=f"lease-{batch_id}-{index}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=10)


def _log_title(batch: SimulationBatch, match_log: dict) -> str:
    a, b = match_log["sides"]["A"]["name"], match_log["sides"]["B"]["name"]
    goals = match_log["result"]["goals"]
    pk = match_log["result"]["pk"]
    score = f"{goals['A']}–{goals['B']}" + (f" (PK {pk['A']}–{pk['B']})" if pk else "")
    return f"{a} {score} {b}"


def chunk_record_error(*, batch_id: int, index: int, error: str) -> None:
    SimulationChunk.objects.filter(batch_id=batch_id, index=index).update(last_error=error[:2000])


def batch_finish_if_complete(*, batch_id: int) -> bool:
    """Mark the batch done, with its merged results, if every chunk has finished."""
    if SimulationChunk.objects.filter(batch_id=batch_id, finished_at__isnull=True).exists():
        return False
    batch = SimulationBatch.objects.get(pk=batch_id)
    results = batch_results(batch)
    unfinished = SimulationChunk.objects.filter(batch=OuterRef("pk"), finished_at__isnull=True)
    return bool(
        SimulationBatch.objects.filter(pk=batch_id, status__in=SimulationBatch.ACTIVE)
        .filter(~Exists(unfinished))
        .update(status=SimulationBatch.Status.DONE, results=results, finished_at=timezone.now())
    )


def batch_results(batch: SimulationBatch) -> dict:
    """Return the batch's results computed from its finished chunk rows."""
    rows = list(
        batch.chunks.filter(finished_at__isnull=False)
        .order_by("index")
        .values("opponent", "result")
    )
    by_opponent: dict[int, list[dict]] = {}
    for row in rows:
        by_opponent.setdefault(row["opponent"], []).append(row["result"])
    kind = batch.kind
    exact = batch.params.get("exact")
    if kind == "touchdown":
        variants = []
        for index, variant in enumerate(batch.sides):
            results = by_opponent.get(index)
            if results:
                variants.append(lab.summarize(variant, simulation.merge_results(results)))
        return {"kind": kind, "variants": variants, "runs": sum(v["runs"] for v in variants)}
    if kind == "gauntlet":
        table = []
        for opponent, results in sorted(by_opponent.items()):
            merged = simulation.merge_results(results)
            summary = simulation.summarize("match", merged)
            summary["opponent"] = batch.sides[opponent]["name"]
            table.append(summary)
        return {"kind": kind, "table": table, "runs": sum(r["runs"] for r in table)}
    merged = simulation.merge_results([r for results in by_opponent.values() for r in results])
    if not merged:
        return {"kind": kind, "runs": 0}
    return {"kind": kind, **simulation.summarize(kind, merged, exact_pk=exact)}


def batch_progress(batch: SimulationBatch) -> dict:
    """Return {done, total, runs_done, eta_seconds} computed from the chunk rows."""
    done_rows = batch.chunks.filter(finished_at__isnull=False)
    done = done_rows.count()
    eta = None
    if batch.is_active and batch.started_at and 0 < done < batch.chunk_count:
        elapsed = (timezone.now() - batch.started_at).total_seconds()
        eta = elapsed / done * (batch.chunk_count - done)
    runs_done = sum(done_rows.values_list("runs", flat=True))
    return {
        "done": done,
        "total": batch.chunk_count,
        "runs_done": runs_done,
        "eta_seconds": eta,
        "queue_position": batch_queue_position(batch),
    }


def batches_reconcile(*, stall_seconds: int | None = None) -> int:
    """Re-queue unfinished chunks of active batches that nobody has touched for a while.

    A chunk whose worker died (kill -9, a lost node) is redelivered by the broker only after
    its visibility timeout; this makes stalled batches move again sooner. Running a chunk
    twice is harmless, so re-queueing is safe. Returns the number of chunks re-queued.
    """
    stall = stall_seconds if stall_seconds is not None else settings.SIMULATION_STALL_SECONDS
    cutoff = timezone.now() - timedelta(seconds=stall)
    # Batches whose last chunk was written by a worker that died before marking them done.
    unfinished = SimulationChunk.objects.filter(batch=OuterRef("pk"), finished_at__isnull=True)
    complete = SimulationBatch.objects.filter(status__in=SimulationBatch.ACTIVE).filter(
        ~Exists(unfinished)
    )
    for batch_id in complete.values_list("pk", flat=True):
        if batch_finish_if_complete(batch_id=batch_id):
            log.info("Closed batch %s: every chunk had finished", batch_id)
    active = SimulationChunk.objects.filter(
        batch__status__in=SimulationBatch.ACTIVE, finished_at__isnull=True
    )
    # Claimed chunks whose lease expired: their worker stopped renewing it (chunk_lease).
    stalled = Q(last_attempt_at__lt=cutoff)
    # Never claimed: re-queued only when the chunk queue is empty, so chunks that are simply
    # waiting behind a backlog are not queued a second time (the queue once doubled).
    if chunk_queue_length() == 0:
        stalled |= Q(last_attempt_at__isnull=True, batch__created_at__lt=cutoff)
    pairs = list(active.filter(stalled).values_list("batch_id", "index"))
    for batch_id, index in pairs:
        SimulationChunk.objects.filter(batch_id=batch_id, index=index).update(
            last_attempt_at=timezone.now()
        )
        queue_chunks(batch_id, [index])
    if pairs:
        log.info("Re-queued %d stalled chunk(s)", len(pairs))
    return len(pairs)


def chunk_queue_length() -> int | None:
    """Messages waiting in the chunk queue (None if the broker cannot tell or is down)."""
    from cardsite.celery import app

    try:
        with app.connection_for_read() as conn:
            channel = conn.default_channel
            # Not passive: an empty Redis queue has no key, and a passive declare would fail.
            return channel.queue_declare(
                queue=settings.CELERY_TASK_DEFAULT_QUEUE, durable=True, auto_delete=False
            ).message_count
    except Exception as exc:
        log.info("Chunk queue length unknown: %s", exc)
        return None
