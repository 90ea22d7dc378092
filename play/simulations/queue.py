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


def publish_chunk(batch_id: int, index: int, *, priority: int, token: str) -> None:
    """Send one chunk's message, served by priority (0 first), carrying the chunk's live token."""
    app.send_task(CHUNK_TASK, args=(batch_id, index), kwargs={"token": token}, priority=priority)


def queue_names() -> list[str]:
    """The Redis lists of the chunk queue, one per priority (kombu's "priority" order)."""
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    sep = settings.REDIS_TRANSPORT_PRIORITIES["sep"]
    steps = settings.REDIS_TRANSPORT_PRIORITIES["priority_steps"]
    return [queue if step == 0 else f"{queue}{sep}{step}" for step in steps]


def message_chunk(raw: bytes) -> tuple[int, str] | None:
    """Return (batch id, token) of a chunk task message as kombu stores it, else None.

    A message published before chunks had tokens carries the token "".
    """
    try:
        message = json.loads(raw)
        if message.get("headers", {}).get("task") != CHUNK_TASK:
            return None
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args, kwargs = json.loads(body)[:2]
        return int(args[0]), str(kwargs.get("token") or "")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None


def message_batch(raw: bytes) -> int | None:
    """Return the batch id of a chunk task message, else None."""
    chunk = message_chunk(raw)
    return chunk[0] if chunk else None


def _broker() -> str | None:
    """ "redis" or "filesystem": the brokers whose waiting messages can be read; else None."""
    broker_url = str(app.conf.broker_url or "")
    if broker_url.startswith(("redis://", "rediss://")):
        return "redis"
    if broker_url.startswith("filesystem://"):
        return "filesystem"
    return None


def _message_files() -> list[Path]:
    """The filesystem broker's waiting chunk messages (kombu: `<time>_<uuid>.<queue>.msg`)."""
    options = app.conf.broker_transport_options or {}
    folder = options.get("data_folder_out") or options.get("data_folder_in")
    if not folder:
        return []
    queues = {f"{name}.msg" for name in queue_names()}
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return []
    return [Path(folder) / name for name in names if name.partition(".")[2] in queues]


def waiting_tokens() -> set[str] | None:
    """Return the tokens of the chunk messages waiting in the broker, not yet delivered.

    None when this broker cannot be read (or is down): the caller must then assume any
    published message may still be waiting.
    """
    try:
        broker = _broker()
        if broker == "redis":
            with app.connection_for_read() as conn:
                client = conn.default_channel.client
                raws = [raw for name in queue_names() for raw in client.lrange(name, 0, -1)]
        elif broker == "filesystem":
            raws = []
            for path in _message_files():
                try:
                    raws.append(path.read_bytes())
                except OSError:  # a worker took it meanwhile
                    continue
        else:
            return None
    except Exception as exc:
        log.info("Waiting chunk messages unknown: %s", exc)
        return None
    return {chunk[1] for chunk in map(message_chunk, raws) if chunk}


def purge_batch(batch_id: int) -> int | None:
    """Remove the batch's chunk messages waiting in the broker; return how many (None: this
    broker cannot be searched).

    Redis: the chunk queue's lists are searched and the batch's messages removed (`LREM`).
    The filesystem broker of `make run`: each waiting message is a file in its queue folder,
    read and removed. A message a worker takes at the same moment is delivered and skipped
    (its batch is no longer active); another broker removes nothing (None), and the window's
    few messages are skipped the same way when delivered.
    """
    broker = _broker()
    if broker == "redis":
        return _purge_redis(batch_id)
    if broker == "filesystem":
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
    removed = 0
    for path in _message_files():
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
