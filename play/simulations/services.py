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
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from decks.models import Deck
from play import errors as field_errors
from play.models import MatchLog, SimulationBatch, SimulationChunk
from play.simulations import core as simulation
from play.simulations import kinds
from play.simulations.selectors import batch_results

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
        errors["non_field_errors"] = [
            f"You already have {settings.SIMULATION_MAX_ACTIVE_PER_USER} batches running; "
            "wait for one to finish or cancel it."
        ]
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
    prepared = kind.prepare(request=request, errors=errors)
    if errors:
        raise BatchInvalid(errors)
    versions = prepared.versions
    chunk_size = kind.chunk_size()
    specs = kind.plan(runs=request.runs, chunk_size=chunk_size, opponents=prepared.opponents)
    seed = request.seed
    with transaction.atomic():
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
        transaction.on_commit(lambda: queue_chunks(batch.id, range(len(specs))))
    return batch


def lab_batch_create(
    *, owner, variants: list[dict], runs: int, seed: int | None = None
) -> SimulationBatch:
    """Create a Touchdown Heroes lab batch: `runs` games of each rule variant (1 or 2)."""
    return batch_create(
        owner=owner,
        request=BatchRequest(kind="touchdown", variants=variants, runs=runs, seed=seed),
    )


def queue_chunks(batch_id: int, indexes) -> None:
    from play.tasks import simulation_chunk_run

    for index in indexes:
        simulation_chunk_run.delay(batch_id, index)


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


def chunk_run(*, batch_id: int, index: int) -> bool:
    """Compute one chunk and record it; return False when there was nothing to do.

    Safe to run any number of times: a chunk already finished, or of a batch no longer
    active, is skipped; the result write is a conditional UPDATE the first finisher wins.
    """
    batch = SimulationBatch.objects.filter(pk=batch_id).first()
    if batch is None or not batch.is_active:
        return False
    now = timezone.now()
    claimed = SimulationChunk.objects.filter(
        batch_id=batch_id, index=index, finished_at__isnull=True
    ).update(attempts=F("attempts") + 1, last_attempt_at=now)
    if not claimed:
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
    kind = kinds.get(batch.kind)
    keep_logs = simulation.SAMPLE_LOGS_PER_OPPONENT if first_of_opponent else 0
    if not kind.keeps_logs:
        keep_logs = 0
    spec = simulation.ChunkSpec(index, chunk.opponent, chunk.runs)
    result, logs = kind.run_chunk(
        sides=batch.sides,
        params=batch.params,
        spec=spec,
        seed=simulation.chunk_seed(batch.seed, index),
        keep_logs=keep_logs,
    )
    with transaction.atomic():
        won = SimulationChunk.objects.filter(
            batch_id=batch_id, index=index, finished_at__isnull=True
        ).update(result=result, finished_at=timezone.now(), last_error="")
        if won:
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
            )
    if won:
        batch_finish_if_complete(batch_id=batch_id)
    return bool(won)


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


def batches_reconcile(*, stall_seconds: int | None = None) -> int:
    """Re-queue unfinished chunks of active batches that nobody has touched for a while.

    A chunk whose worker died (kill -9, a lost node) is redelivered by the broker only after
    its visibility timeout; this makes stalled batches move again sooner. Running a chunk
    twice is harmless, so re-queueing is safe. Returns the number of chunks re-queued.
    """
    stall = stall_seconds if stall_seconds is not None else settings.SIMULATION_STALL_SECONDS
    cutoff = timezone.now() - timedelta(seconds=stall)
    stalled = SimulationChunk.objects.filter(
        batch__status__in=SimulationBatch.ACTIVE,
        finished_at__isnull=True,
        batch__created_at__lt=cutoff,
    ).filter(Q(last_attempt_at__isnull=True) | Q(last_attempt_at__lt=cutoff))
    pairs = list(stalled.values_list("batch_id", "index"))
    for batch_id, index in pairs:
        SimulationChunk.objects.filter(batch_id=batch_id, index=index).update(
            last_attempt_at=timezone.now()
        )
        queue_chunks(batch_id, [index])
    if pairs:
        log.info("Re-queued %d stalled chunk(s)", len(pairs))
    return len(pairs)
