"""Celery tasks of the catalog: process an uploaded scan off the request thread (issue #26).

The request stores the raw upload (catalog.scans.scan_upload_store) and sends this task by name
on the control queue (settings.CONTROL_QUEUE), which the control worker consumes (docs/deploy.md).
The Celery app finds this module by autodiscovery (cardsite/celery.py, INSTALLED_APPS).
"""

from celery import shared_task
from django.conf import settings

from catalog import readings, scans


@shared_task(
    name=scans.PROCESS_TASK,
    acks_late=True,
    reject_on_worker_lost=False,  # a file that kills its worker must not be handed out again
    soft_time_limit=settings.SCAN_PROCESS_SOFT_SECONDS,
    time_limit=settings.SCAN_PROCESS_HARD_SECONDS,
)
def scan_process(upload_id: int) -> str | None:
    """Decode one upload, make its sizes and its CardScan, or end it failed with a message.

    Celery's time limits hold in a prefork pool; the solo control worker relies on the alarm
    of catalog.scans.scan_deadline (the soft limit). Return the upload's status.
    """
    # Celery's Django fixup closes a stale database connection before each task in a worker.
    row = scans.scan_upload_process(upload_id)
    return row.status if row is not None else None


@shared_task(name="catalog.tasks.scans_requeue")
def scans_requeue() -> int:
    """Send again the uploads left pending (sent by celery beat to the control queue)."""
    sweep = scans.scans_requeue()
    return len(sweep.requeued) + len(sweep.failed)


@shared_task(
    name=readings.RUN_TASK,
    acks_late=True,
    reject_on_worker_lost=False,  # a photo that kills its worker must not be handed out again
    soft_time_limit=settings.READING_SOFT_SECONDS,
    time_limit=settings.READING_HARD_SECONDS,
)
def reading_run(job_id: int) -> str | None:
    """Read one photo (straighten, read fields, or recognise its cards) within the time bound;
    the solo control worker relies on catalog.scans.scan_deadline's alarm. Return the status."""
    job = readings.reading_job_process(job_id)
    return job.status if job is not None else None


@shared_task(name="catalog.tasks.readings_sweep")
def readings_sweep() -> int:
    """Send again or end the reading jobs a lost message left open; delete old finished ones."""
    sweep = readings.readings_sweep()
    return len(sweep.requeued) + len(sweep.failed) + sweep.deleted
