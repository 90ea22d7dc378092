"""Celery tasks: thin wrappers that take ids and call play.simulations.services."""

import logging

from celery import shared_task
from django.conf import settings
from django.db import close_old_connections, connection

from play import heartbeat
from play.simulations import services

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,  # bounded by SIMULATION_MAX_ATTEMPTS, counted in the chunk row
)
def simulation_chunk_run(
    self,
    batch_id: int,
    chunk_index: int,
    count_attempt: bool = True,
    transient: int = 0,
    token: str | None = None,
) -> bool:
    """Compute one chunk of a batch (idempotent: a finished chunk, or a replaced copy, is skipped).

    A database or broker error is the infrastructure's, not the chunk's: the connection is
    dropped (never written to again) and the task retried with backoff, up to
    SIMULATION_MAX_TRANSIENT_RETRIES (then it counts like any error); the retry counts an
    attempt only if this one had not claimed the chunk yet, so attempts stay exact. Any other
    error is recorded on the chunk row and retried; past SIMULATION_MAX_ATTEMPTS the batch fails.
    Retries carry the message's token: they are the same live copy.
    """
    heartbeat.warn_if_reconciler_stale()  # a dead beat shows in the workers' logs too
    claimed = []
    try:
        usable_connection()
        return services.chunk_run(
            batch_id=batch_id,
            index=chunk_index,
            count_attempt=count_attempt,
            token=token,
            on_claim=lambda: claimed.append(True),
        )
    except services.ChunkGaveUp:
        return False
    except services.transient_errors() as exc:
        connection.close()  # a broken connection must not be reused for the error handling
        close_old_connections()
        if transient < settings.SIMULATION_MAX_TRANSIENT_RETRIES:
            backoff = min(settings.SIMULATION_RETRY_BACKOFF * 2**transient, 30) or 0.5
            log.warning(
                "Chunk %s of batch %s: infrastructure error (%s); retry %d in %.1f s, "
                "not counted as an attempt",
                chunk_index,
                batch_id,
                exc,
                transient + 1,
                backoff,
            )
            raise self.retry(
                args=(batch_id, chunk_index),
                kwargs={
                    "count_attempt": count_attempt and not claimed,
                    "transient": transient + 1,
                    "token": token,
                },
                countdown=backoff,
            ) from None
        return _failed(self, batch_id, chunk_index, exc, transient, token)
    except Exception as exc:
        return _failed(self, batch_id, chunk_index, exc, transient, token)


def usable_connection() -> None:
    """Check the database connection a worker kept from its last task; drop a dead one.

    The workers keep their connection between tasks (CELERY_DB_REUSE_MAX in
    cardsite/settings.py): a new PostgreSQL connection was 5-15 ms of every chunk's critical
    path. A connection the server closed meanwhile (a restart, pg_terminate_backend) costs
    one `SELECT 1` to notice here and is replaced, instead of failing the chunk's first query
    and waiting out a transient retry's back-off.
    """
    close_old_connections()  # past CONN_MAX_AGE, or left unusable by an error
    if connection.connection is not None and not connection.is_usable():
        connection.close()


def _failed(task, batch_id: int, chunk_index: int, exc: Exception, transient: int, token):
    error = f"{type(exc).__name__}: {exc}"
    log.exception("Chunk %s of batch %s failed", chunk_index, batch_id)
    try:
        services.chunk_record_error(batch_id=batch_id, index=chunk_index, error=error)
    except services.transient_errors():
        connection.close()
    backoff = settings.SIMULATION_RETRY_BACKOFF * 2 ** min(task.request.retries, 6)
    raise task.retry(
        args=(batch_id, chunk_index),
        kwargs={"count_attempt": True, "transient": transient, "token": token},
        exc=exc,
        countdown=min(backoff, 60),
    ) from None


@shared_task
def simulation_batch_publish(batch_id: int, start: int) -> int:
    """Queue the chunks of a big batch beyond the first few (control queue, off the request)."""
    return services.batch_publish_rest(batch_id=batch_id, start=start)


@shared_task
def simulation_reconcile() -> int:
    """Re-queue the chunks of stalled batches (sent by celery beat to the control queue)."""
    heartbeat.reconciler_ran()
    return services.batches_reconcile()
