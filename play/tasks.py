"""Celery tasks: thin wrappers that take ids and call play.services."""

import logging

from celery import shared_task
from django.conf import settings

from play.simulations import services

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,  # bounded by SIMULATION_MAX_ATTEMPTS, counted in the chunk row
)
def simulation_chunk_run(self, batch_id: int, chunk_index: int) -> bool:
    """Compute one chunk of a batch (idempotent: a finished chunk is skipped)."""
    try:
        return services.chunk_run(batch_id=batch_id, index=chunk_index)
    except services.ChunkGaveUp:
        return False
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        log.exception("Chunk %s of batch %s failed", chunk_index, batch_id)
        services.chunk_record_error(batch_id=batch_id, index=chunk_index, error=error)
        backoff = settings.SIMULATION_RETRY_BACKOFF * 2**self.request.retries
        raise self.retry(exc=exc, countdown=min(backoff, 60)) from None


@shared_task
def simulation_reconcile() -> int:
    """Re-queue the chunks of stalled batches (run by celery beat)."""
    return services.batches_reconcile()
