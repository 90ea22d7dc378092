"""The chunk queue on the broker: publish a chunk's message, count what waits, and take a
cancelled batch's waiting messages out.

Services enqueue through here by task name (`CHUNK_TASK`), so no service imports a task module
and the tasks, which call the services, form no cycle. The project's Celery app
(cardsite/celery.py) is the current one; play/ never imports cardsite/.
"""

from __future__ import annotations

import base64
import json
import logging
import os
from pathlib import Path

from celery import current_app as app
from django.conf import settings

log = logging.getLogger(__name__)

CHUNK_TASK = "play.tasks.simulation_chunk_run"


def publish_chunk(batch_id: int, index: int, *, priority: int) -> None:
    """Send one chunk's message, served by priority (0 first)."""
    app.send_task(CHUNK_TASK, args=(batch_id, index), priority=priority)


def queue_names() -> list[str]:
    """The Redis lists of the chunk queue, one per priority (kombu's "priority" order)."""
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    sep = settings.REDIS_TRANSPORT_PRIORITIES["sep"]
    steps = settings.REDIS_TRANSPORT_PRIORITIES["priority_steps"]
    return [queue if step == 0 else f"{queue}{sep}{step}" for step in steps]


def message_batch(raw: bytes) -> int | None:
    """Return the batch id of a chunk task message as kombu stores it in Redis, else None."""
    try:
        message = json.loads(raw)
        if message.get("headers", {}).get("task") != CHUNK_TASK:
            return None
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return int(args[0])
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def purge_batch(batch_id: int) -> int | None:
    """Remove the batch's chunk messages waiting in the broker; return how many (None: this
    broker cannot be searched).

    Redis: the chunk queue's lists are searched and the batch's messages removed (`LREM`).
    The filesystem broker of `make run`: each waiting message is a file in its queue folder,
    read and removed. A message a worker takes at the same moment is delivered and skipped
    (its batch is no longer active); another broker removes nothing (None), and the window's
    few messages are skipped the same way when delivered.
    """
    broker_url = str(app.conf.broker_url or "")
    if broker_url.startswith(("redis://", "rediss://")):
        return _purge_redis(batch_id)
    if broker_url.startswith("filesystem://"):
        return _purge_filesystem(batch_id)
    return None


def _purge_redis(batch_id: int) -> int:
    removed = 0
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        for name in queue_names():
            for raw in client.lrange(name, 0, -1):
                if message_batch(raw) == batch_id:
                    removed += client.lrem(name, 1, raw)
    return removed


def _purge_filesystem(batch_id: int) -> int:
    """Remove the batch's message files (kombu names them `<time>_<uuid>.<queue>.msg`)."""
    options = app.conf.broker_transport_options or {}
    folder = options.get("data_folder_out") or options.get("data_folder_in")
    if not folder:
        return 0
    queues = {f"{name}.msg" for name in queue_names()}
    removed = 0
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return 0
    for name in names:
        if name.partition(".")[2] not in queues:
            continue
        path = Path(folder) / name
        try:
            raw = path.read_bytes()
        except OSError:  # a worker took it meanwhile
            continue
        if message_batch(raw) != batch_id:  # another batch's, or still being written
            continue
        try:
            path.unlink()
        except FileNotFoundError:  # a worker took it first: it skips the chunk
            continue
        removed += 1
    return removed


def queue_length() -> int | None:
    """Messages waiting in the chunk queue (None if the broker cannot tell or is down)."""
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
