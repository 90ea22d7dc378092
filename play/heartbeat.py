"""Is the reconciler alive? Celery beat sends it every SIMULATION_RECONCILE_EVERY seconds; each
run records the time here, and the health endpoint and the chunk workers read it.

Stored in the shared cache (Redis) when there is one; without Redis (the filesystem broker of
`make run`) in a file beside the broker's folders, which every local process can read.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)
KEY = "play:reconciler:last-run"
_last_warning = 0.0


def _file() -> Path:
    return Path(settings.BROKER_DIR) / "reconciler-last-run"


def reconciler_ran(*, at: float | None = None) -> None:
    """Record that the reconciler ran (now, or at the given Unix time)."""
    stamp = time.time() if at is None else at
    if settings.REDIS_URL:
        cache.set(KEY, stamp, None)
    else:
        _file().parent.mkdir(parents=True, exist_ok=True)
        _file().write_text(repr(stamp))


def reconciler_last_run() -> float | None:
    if settings.REDIS_URL:
        return cache.get(KEY)
    try:
        return float(_file().read_text())
    except (OSError, ValueError):
        return None


def reconciler_status() -> dict:
    """{ok, last_run, age_seconds, limit_seconds}: ok while the last run is recent enough."""
    every = settings.CELERY_BEAT_SCHEDULE["reconcile-simulations"]["schedule"]
    limit = 3 * every + 30
    last = reconciler_last_run()
    age = None if last is None else max(0.0, time.time() - last)
    return {
        "ok": age is not None and age <= limit,
        "last_run": last,
        "age_seconds": None if age is None else round(age, 1),
        "limit_seconds": limit,
    }


def warn_if_reconciler_stale() -> bool:
    """Log (at most once a minute per process) when beat or the control worker seems dead."""
    global _last_warning
    status = reconciler_status()
    if status["ok"]:
        return False
    now = time.monotonic()
    if now - _last_warning > 60:
        _last_warning = now
        if status["last_run"] is None:
            log.warning("The simulation reconciler has never run: is celery beat running?")
        else:
            log.warning(
                "The simulation reconciler last ran %.0f s ago (limit %.0f s): "
                "celery beat or the control worker is down",
                status["age_seconds"],
                status["limit_seconds"],
            )
    return True
