"""Write paths of simulation batches: create, run a chunk, finish, cancel, reconcile.

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
from collections.abc import Callable
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from decks.models import Deck
from play import errors as field_errors
from play.models import MatchLog, SimulationBatch, SimulationChunk, new_token
from play.seeds import chunk_seed
from play.simulations import core as simulation
from play.simulations import kinds, queue
from play.simulations.selectors import batch_results, chunk_results_by_opponent

log = logging.getLogger(__name__)


class BatchInvalid(field_errors.FieldErrors):
    """Bad batch parameters: `errors` maps each field to its messages."""


class ChunkGaveUp(RuntimeError):
    """A chunk failed too often; its batch is marked failed."""


@dataclass
class BatchRequest:
    kind: str
    deck_a: Deck | None = None
    deck_b: Deck | None = None
    runs: int = 1000
    seed: int | None = None
    policy_a: str = "greedy"
    policy_b: str = "greedy"
    variants: list[dict] | None = None  # kinds that play rule variants (the Touchdown lab)
    owner: object = None  # the requesting user (batch_create sets it): whose collection
    options: dict | None = None  # rule options of kinds that play matches: empty_timing, deck_out
    study: dict | None = None  # the Touchdown lab's strategy table or sweep (issue #14)


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


def batch_create(*, owner, request: BatchRequest) -> SimulationBatch:
    """Create a batch and its chunk rows; queue the chunks once the transaction commits.

    The kind (play/simulations/kinds/) says what the batch needs and how it is planned.
    """
    errors = _common_errors(owner=owner, runs=request.runs, seed=request.seed)
    kind = kinds.get(request.kind)
    if kind is None:
        errors["kind"] = [f"Unknown kind {request.kind!r}: use {', '.join(kinds.keys())}."]
        raise BatchInvalid(errors)
    request = replace(request, owner=owner)
    prepared = kind.prepare(request=request, errors=errors)
    if errors:
        raise BatchInvalid(errors)
    versions = prepared.versions
    chunk_size = prepared.chunk_size or kind.chunk_size()
    specs = prepared.specs
    if specs is None:
        specs = kind.plan(runs=request.runs, chunk_size=chunk_size, opponents=prepared.opponents)
    # The total planned runs (all opponents or variants together) are capped, and the per-user
    # active-batch limit is checked under a lock on the owner's row, so parallel requests cannot
    # both pass the check and insert (14 parallel POSTs once left 11 active batches, limit 3).
    total = sum(spec.runs for spec in specs)
    limit = settings.SIMULATION_MAX_RUNS
    if total > limit:
        raise BatchInvalid(
            {
                "runs": [
                    f"{request.runs:,} runs for each of {prepared.opponents} opponents or "
                    f"variants make {total:,} in all; a batch may plan at most {limit:,}."
                ]
            }
        )
    seed = request.seed
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        active = SimulationBatch.objects.filter(owner=owner, status__in=SimulationBatch.ACTIVE)
        if active.count() >= settings.SIMULATION_MAX_ACTIVE_PER_USER:
            raise BatchInvalid(_limit_error())
        batch = SimulationBatch.objects.create(
            owner=owner,
            kind=kind.key,
            runs=request.runs,
            seed=seed if seed is not None else random.SystemRandom().getrandbits(62),
            chunk_size=chunk_size,
            chunk_count=len(specs),
            deck_a_version=versions[0] if versions else None,
            deck_b_version=versions[1] if len(versions) == 2 else None,
            params=prepared.params,
            sides=prepared.sides,
        )
        batch.opponent_versions.set(versions[1:])
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
    """Queue a new batch's first window of chunks (at most SIMULATION_QUEUE_WINDOW messages).

    A 12,000-chunk gauntlet published inside the request took 12-38 s; now the request sends a
    window, and each finished chunk publishes the next (`batch_top_up`). With the broker down
    nothing is lost: the batch is saved, `broker_unavailable` tells the caller, and the
    reconciler queues the never-delivered chunks once the broker is back.
    """
    try:
        batch_top_up(batch_id=batch.id, owner_id=batch.owner_id)
    except transient_errors() as exc:
        log.warning("Batch %s saved but not queued (broker unavailable: %s)", batch.id, exc)
        batch.broker_unavailable = True


def batch_top_up(*, batch_id: int, owner_id: int | None = None) -> int:
    """Publish the next chunks until SIMULATION_QUEUE_WINDOW are out; return how many.

    A batch never has more than a window of messages in the broker: a finished chunk (or the
    reconciler) publishes the next one. So a cancelled batch leaves at most a window of
    messages, which `batch_cancel` removes from Redis, and never thousands of no-ops in front
    of other users' work. Each chunk is taken by a conditional UPDATE (`queued_at IS NULL`), so
    two workers topping up at once never publish the same chunk twice; the same UPDATE writes
    the message's fair-share priority (`queue_chunks`). A batch no longer active (cancelled,
    failed) has nothing counted and nothing published. `owner_id` saves a query when known.

    Queries: the window count, the candidates, and, when one is published, the owner's
    waiting count and one claim per chunk (a worker's top-up after a chunk: 2 or 4).
    """
    unfinished = SimulationChunk.objects.filter(
        batch_id=batch_id, batch__status__in=SimulationBatch.ACTIVE, finished_at__isnull=True
    )
    out = unfinished.filter(Q(queued_at__isnull=False) | Q(last_attempt_at__isnull=False)).count()
    room = max(0, settings.SIMULATION_QUEUE_WINDOW) - out
    if room <= 0:
        return 0
    candidates = list(
        unfinished.filter(queued_at__isnull=True, last_attempt_at__isnull=True)
        .order_by("index")
        .values_list("index", flat=True)[:room]
    )
    if not candidates:
        return 0
    if owner_id is None:
        owner_id = SimulationBatch.objects.values_list("owner_id", flat=True).get(pk=batch_id)
    queued_before = waiting_chunks().filter(batch__owner_id=owner_id).count()
    now = timezone.now()
    taken: dict[int, int] = {}  # chunk index -> the priority its claim wrote
    for index in candidates:
        priority = fair_priority(queued_before + len(taken))
        if SimulationChunk.objects.filter(
            batch_id=batch_id, index=index, queued_at__isnull=True
        ).update(queued_at=now, priority=priority):
            taken[index] = priority
    if taken:
        queue_chunks(batch_id, list(taken), priorities=taken)
    return len(taken)


def fair_priority(waiting: int) -> int:
    """The priority of an owner's message with `waiting` of theirs already waiting (0-9)."""
    return min(9, waiting // max(1, settings.SIMULATION_FAIR_STEP))


def batch_publish_rest(*, batch_id: int, start: int = 0) -> int:
    """Messages of the old control task `simulation_batch_publish`: top the batch's window up."""
    return batch_top_up(batch_id=batch_id)


def lab_batch_create(
    *,
    owner,
    variants: list[dict],
    runs: int,
    seed: int | None = None,
    study: dict | None = None,
) -> SimulationBatch:
    """Create a Touchdown Heroes lab batch: `runs` games of each rule variant (1 or 2), or a
    study (a strategy table or a sweep: `runs` seeds a cell, each played twice)."""
    return batch_create(
        owner=owner,
        request=BatchRequest(
            kind="touchdown", variants=variants, runs=runs, seed=seed, study=study
        ),
    )


def waiting_chunks():
    """Chunks whose message waits in the broker: published, not yet claimed, not finished."""
    return SimulationChunk.objects.filter(
        batch__status__in=SimulationBatch.ACTIVE,
        queued_at__isnull=False,
        last_attempt_at__isnull=True,
        finished_at__isnull=True,
    )


def queue_chunks(batch_id: int, indexes, *, priorities: dict[int, int] | None = None) -> None:
    """Publish chunk messages, each with a new live token and a fair-share priority.

    Each chunk row takes the token of the message now published (`message_token`): a copy
    published before, still waiting or redelivered later, no longer matches and is skipped
    without using an attempt (`chunk_run`). Fair sharing between users: an owner's n-th
    waiting message gets priority n // SIMULATION_FAIR_STEP (0 is served first, at most 9), so
    one user's big batch fills the low priorities while another user's small batch still
    starts within a few chunks. Each chunk row keeps its message's priority and publish time
    (`priority`, `queued_at`), from which `selectors.batch_queue_position` counts exactly the
    messages served before a batch. Priorities need the Redis broker (queue order strategy
    "priority"); the filesystem broker of `make run` ignores them. `priorities` (index ->
    priority) says the caller has already written them with `queued_at` (`batch_top_up` does,
    in its claim).
    """
    indexes = list(indexes)
    if not indexes:
        return
    published = {}  # the publish time and priority to write, unless the caller wrote them
    if priorities is None:
        owner_id = SimulationBatch.objects.values_list("owner_id", flat=True).get(pk=batch_id)
        queued_before = (
            waiting_chunks()
            .filter(batch__owner_id=owner_id)
            .exclude(batch_id=batch_id, index__in=indexes)
            .count()
        )
        priorities = {
            index: fair_priority(queued_before + position) for position, index in enumerate(indexes)
        }
        published = {"queued_at": timezone.now()}
    for index in indexes:
        token = new_token()
        fields = {**published, "priority": priorities[index]} if published else {}
        SimulationChunk.objects.filter(batch_id=batch_id, index=index).update(
            message_token=token, **fields
        )
        # Sent once the rows saying so are committed (at once in a worker's autocommit), so a
        # message never names a chunk whose token or queued_at a rollback undid.
        transaction.on_commit(
            partial(queue.publish_chunk, batch_id, index, priority=priorities[index], token=token)
        )


def batch_share_link_revoke(*, batch: SimulationBatch) -> str:
    """Revoke the batch's read-only share link: the old link opens nothing; return the new one."""
    batch.share_token = new_token()
    batch.save(update_fields=["share_token"])
    return batch.share_token


def batch_cancel(*, batch: SimulationBatch) -> bool:
    """Cancel an active batch, fix its partial results, and take its waiting messages out.

    Return whether it was cancelled. Under a lock on the batch row, every chunk not finished
    yet is marked `cancelled`: a result computed after that is kept in `late_result` and never
    counted, so the partial figures shown are those of the chunks finished before the cancel
    and do not grow afterwards. A batch whose every chunk had already finished is marked done
    instead (it was complete before the cancel took effect). At most a window of its messages
    is out (`batch_top_up`); they are removed from Redis at once, so no other user's batch
    waits behind them. Should the broker be unreachable, those few are skipped by the workers
    in one query each.
    """
    with transaction.atomic():
        active = (
            SimulationBatch.objects.select_for_update()
            .filter(pk=batch.pk, status__in=SimulationBatch.ACTIVE)
            .exists()
        )
        if not active:
            return False
        frozen = SimulationChunk.objects.filter(batch_id=batch.pk, finished_at__isnull=True).update(
            cancelled=True
        )
        if not frozen:
            batch_finish_if_complete(batch_id=batch.pk)
            return False
        SimulationBatch.objects.filter(pk=batch.pk).update(
            status=SimulationBatch.Status.CANCELLED, finished_at=timezone.now()
        )
    try:
        removed = queue.purge_batch(batch.pk)
    except Exception as exc:  # the broker is down: the few messages left are no-ops
        log.warning("Batch %s cancelled; its messages were not purged (%s)", batch.pk, exc)
    else:
        if removed is not None:  # what is left of the batch no longer waits in the broker
            SimulationChunk.objects.filter(
                batch_id=batch.pk, finished_at__isnull=True, last_attempt_at__isnull=True
            ).update(queued_at=None)
        log.info("Batch %s cancelled; %s queued message(s) removed", batch.pk, removed or 0)
    return True


def batch_fail(*, batch_id: int, reason: str) -> None:
    SimulationBatch.objects.filter(pk=batch_id, status__in=SimulationBatch.ACTIVE).update(
        status=SimulationBatch.Status.FAILED, failure_reason=reason, finished_at=timezone.now()
    )


def chunk_run(
    *,
    batch_id: int,
    index: int,
    count_attempt: bool = True,
    token: str | None = None,
    on_claim: Callable[[], None] | None = None,
) -> bool:
    """Compute one chunk and record it; return False when there was nothing to do.

    Safe to run any number of times: a chunk already finished, or of a batch no longer
    active, is skipped; the result write is a conditional UPDATE the first finisher wins.
    A chunk found finished also finishes its batch if it was the last one: the worker that
    wrote it may have died (or lost its connection) before marking the batch done.
    Only the chunk's live message claims it: a message's `token` must be the row's
    `message_token`, so a copy the reconciler replaced is skipped and uses no attempt (messages
    published before chunks had tokens carry none, and claim as before). Each claim counts one
    attempt, except `count_attempt=False`: a retry of an attempt already counted, after an
    infrastructure error that is not the chunk's fault. `on_claim` is called once the claim
    (and its count) is committed, so the caller knows whether a retry repeats it.
    """
    batch = SimulationBatch.objects.filter(pk=batch_id).first()
    if batch is None or not batch.is_active:
        log.info("Chunk %s of batch %s skipped: the batch is not active", index, batch_id)
        return False
    now = timezone.now()
    live = SimulationChunk.objects.filter(
        batch_id=batch_id, index=index, finished_at__isnull=True, cancelled=False
    )
    if token is not None:  # a message's copy (a direct call, as by a command, has no token)
        live = live.filter(message_token=token)
    claimed = live.update(attempts=F("attempts") + (1 if count_attempt else 0), last_attempt_at=now)
    if not claimed:
        log.info("Chunk %s of batch %s skipped: finished, or a replaced copy", index, batch_id)
        batch_finish_if_complete(batch_id=batch_id)
        # the worker that wrote it may have died before this
        batch_top_up(batch_id=batch_id, owner_id=batch.owner_id)
        return False
    earlier = SimulationChunk.objects.filter(
        batch_id=OuterRef("batch_id"), opponent=OuterRef("opponent"), index__lt=OuterRef("index")
    )
    chunk = SimulationChunk.objects.annotate(first_of_opponent=~Exists(earlier)).get(
        batch_id=batch_id, index=index
    )
    if on_claim is not None:
        on_claim()
    if chunk.attempts > settings.SIMULATION_MAX_ATTEMPTS:
        reason = (
            f"Chunk {index} failed {chunk.attempts - 1} times; giving up. "
            f"Last error: {chunk.last_error or 'the worker running it was lost'}"
        )
        batch_fail(batch_id=batch_id, reason=reason)
        raise ChunkGaveUp(reason)
    if batch.status == SimulationBatch.Status.QUEUED:  # the batch's first chunks only
        SimulationBatch.objects.filter(pk=batch_id, status=SimulationBatch.Status.QUEUED).update(
            status=SimulationBatch.Status.RUNNING, started_at=now
        )
    kind = kinds.get(batch.kind)
    keep_logs = simulation.SAMPLE_LOGS_PER_OPPONENT if chunk.first_of_opponent else 0
    if not kind.keeps_logs:
        keep_logs = 0
    spec = simulation.ChunkSpec(index, chunk.opponent, chunk.runs)
    with chunk_lease(batch_id=batch_id, index=index):
        result, logs = kind.run_chunk(
            sides=batch.sides,
            params=batch.params,
            spec=spec,
            seed=chunk_seed(batch.seed, index),
            keep_logs=keep_logs,
        )
    # A transaction only when sample logs go with the result: one UPDATE is atomic by itself,
    # and BEGIN and COMMIT would be two more round trips for every other chunk.
    with transaction.atomic() if logs else nullcontext():
        won = SimulationChunk.objects.filter(
            batch_id=batch_id, index=index, finished_at__isnull=True, cancelled=False
        ).update(result=result, finished_at=timezone.now())  # errors stay on the row
        if not won:  # cancelled meanwhile: kept apart, never counted in the partial results
            SimulationChunk.objects.filter(
                batch_id=batch_id, index=index, cancelled=True, late_result__isnull=True
            ).update(late_result=result)
        if won and logs:
            MatchLog.objects.bulk_create(
                [
                    MatchLog(
                        owner_id=batch.owner_id,
                        source=MatchLog.Source.BATCH,
                        title=kind.log_title(match_log),
                        batch_id=batch_id,
                        chunk_index=index,
                        sample_number=number,
                        deck_version_id=batch.deck_a_version_id,
                        log=match_log,
                    )
                    for number, match_log in enumerate(logs)
                ],
                ignore_conflicts=True,
                # One row a statement: Django inserts several rows on PostgreSQL through
                # UNNEST of a jsonb[] array, which psycopg's client-side cursor quotes in
                # Python, one regex call per quote of the ~160 KB logs: 3 logs took 87 ms of
                # CPU and 165 ms of wall time, against 12 and 43 one by one.
                batch_size=1,
            )
    batch_finish_if_complete(batch_id=batch_id)
    batch_top_up(batch_id=batch_id, owner_id=batch.owner_id)
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


def chunk_record_error(*, batch_id: int, index: int, error: str) -> None:
    SimulationChunk.objects.filter(batch_id=batch_id, index=index).update(last_error=error[:2000])


def batch_finish_if_complete(*, batch_id: int) -> bool:
    """Mark the batch done, with its merged results, if every chunk has finished (and its kind
    plans no further stage)."""
    if SimulationChunk.objects.filter(batch_id=batch_id, finished_at__isnull=True).exists():
        return False
    if batch_next_stage(batch_id=batch_id):
        return False
    batch = SimulationBatch.objects.get(pk=batch_id)
    results = batch_results(batch)
    unfinished = SimulationChunk.objects.filter(batch=OuterRef("pk"), finished_at__isnull=True)
    return bool(
        SimulationBatch.objects.filter(pk=batch_id, status__in=SimulationBatch.ACTIVE)
        .filter(~Exists(unfinished))
        .update(status=SimulationBatch.Status.DONE, results=results, finished_at=timezone.now())
    )


def batch_next_stage(*, batch_id: int) -> bool:
    """Add and queue the next stage's chunks of a batch whose chunks have all finished, if its
    kind plans one (`BatchKind.next_stage`); return whether the batch has chunks to run.

    Under a lock on the batch row, and only while no chunk is unfinished: two workers finishing
    a stage's last chunks at once add the next stage once. A cancelled batch plans nothing.
    """
    with transaction.atomic():
        batch = (
            SimulationBatch.objects.select_for_update()
            .filter(pk=batch_id, status__in=SimulationBatch.ACTIVE)
            .first()
        )
        if batch is None:
            return False
        if SimulationChunk.objects.filter(batch_id=batch_id, finished_at__isnull=True).exists():
            return True  # another worker added the next stage meanwhile
        kind = kinds.get(batch.kind)
        staged = kind.next_stage(
            sides=batch.sides,
            params=batch.params,
            by_opponent=chunk_results_by_opponent(batch),
            first_index=batch.chunk_count,
        )
        if staged is None:
            return False
        params, specs = staged
        SimulationBatch.objects.filter(pk=batch_id).update(
            params=params, chunk_count=batch.chunk_count + len(specs)
        )
        SimulationChunk.objects.bulk_create(
            SimulationChunk(batch_id=batch_id, index=s.index, opponent=s.opponent, runs=s.runs)
            for s in specs
        )
    batch_top_up(batch_id=batch_id)
    return True


def batches_reconcile(*, stall_seconds: int | None = None) -> int:
    """Re-queue unfinished chunks of active batches that nobody has touched for a while.

    A chunk whose worker died (kill -9, a lost node) is redelivered by the broker only after
    its visibility timeout; this makes stalled batches move again sooner. A re-queued chunk
    gets a new live token, so the old copy, should it still come, uses no attempt. Returns the
    number of chunks re-queued or published.
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
    # Claimed chunks whose lease expired: their worker stopped renewing it (chunk_lease). The
    # broker would redeliver that message only after its visibility timeout; the new message's
    # token makes that copy a no-op.
    pairs = list(active.filter(last_attempt_at__lt=cutoff).values_list("batch_id", "index"))
    # Published, never claimed, and no longer waiting in the broker: the message was lost with
    # the worker that had taken it (prefetched, or held for a retry). One still waiting, however
    # long the backlog in front of it, is left alone; so is every one when the broker cannot say.
    unclaimed = active.filter(last_attempt_at__isnull=True, queued_at__lt=cutoff)
    if unclaimed.exists():
        waiting = queue.waiting_tokens()
        if waiting is not None:
            pairs += [
                (batch_id, index)
                for batch_id, index, token in unclaimed.values_list(
                    "batch_id", "index", "message_token"
                )
                if token not in waiting
            ]
    for batch_id, index in pairs:
        # Published anew and not claimed yet: from now on it is waited for like any message.
        SimulationChunk.objects.filter(batch_id=batch_id, index=index).update(
            last_attempt_at=None, queued_at=timezone.now()
        )
        queue_chunks(batch_id, [index])
    if pairs:
        log.info("Re-queued %d stalled chunk(s)", len(pairs))
    # Windows a finished chunk did not top up (its worker died right after writing it).
    topped = 0
    for batch_id in SimulationBatch.objects.filter(status__in=SimulationBatch.ACTIVE).values_list(
        "pk", flat=True
    ):
        topped += batch_top_up(batch_id=batch_id)
    if topped:
        log.info("Published %d chunk(s) to fill batch windows", topped)
    return len(pairs) + topped


class SwapNotApplied(field_errors.FieldErrors):
    """A swap that cannot be applied: `errors` names the problem."""


def swap_apply_to_copy(*, batch: SimulationBatch, number: int, user) -> Deck:
    """Create a new deck (with its first version): a copy of the deck the swaps batch played,
    one copy of the row's out-card replaced by its in-card. The user's deck is never touched.

    Only the batch's owner, only for a swap the batch tried; the copy must be legal
    (R-DECK-1..5, R-PK-1, checked again on the catalogue as it is now).
    """
    from decks.content import DeckContent
    from decks.legality import content_problems
    from decks.services import deck_create

    if batch.kind != "swaps" or batch.owner_id != user.pk or batch.deck_a_version is None:
        raise SwapNotApplied({"batch": [_("This batch has no swaps of yours to apply.")]})
    tried = (batch.params or {}).get("swaps") or []
    if not 0 <= number < len(tried):
        raise SwapNotApplied({"swap": [_("No swap number %(n)s in this batch.") % {"n": number}]})
    out, card_in = tried[number]
    version = batch.deck_a_version
    content = DeckContent.from_json(version.content)
    if content.deck.get(out, 0) < 1:
        raise SwapNotApplied(
            {"swap": [_("%(card)s is not in the deck version this batch played.") % {"card": out}]}
        )
    deck = dict(content.deck)
    deck[out] -= 1
    if not deck[out]:
        del deck[out]
    deck[card_in] = deck.get(card_in, 0) + 1
    swapped = DeckContent(
        goalkeeper=content.goalkeeper,
        pk_goalkeeper=content.pk_goalkeeper,
        deck=deck,
        bench=dict(content.bench),
    )
    from catalog.models import Card

    cards = Card.objects.in_bulk(list(swapped.card_ids()))
    missing = sorted(swapped.card_ids() - set(cards))
    if missing:
        raise SwapNotApplied(
            {"swap": [_("No longer in the catalogue: %(cards)s.") % {"cards": ", ".join(missing)}]}
        )
    problems = content_problems(swapped, cards)
    if problems:
        raise SwapNotApplied({"swap": [p.message for p in problems]})
    return deck_create(
        owner=user,
        name=f"{version.deck.name} (-{out} +{card_in})"[:100],
        description=version.deck.description,
        content=swapped,
        copied_from=version.deck,
    )
