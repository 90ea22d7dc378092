"""Health endpoints: `/api/ping/` (trivial, the benchmarks' baseline) and `/api/health/`.

`/api/health/` checks what a deployment needs to make progress: the database answers, the
broker accepts a connection, and the simulation reconciler (sent by celery beat) ran recently.
200 when all hold, 503 with the failing parts otherwise (and a warning in the log), so a load
balancer or a monitor notices a dead beat as well as a dead database.
"""

import logging

from django.db import connection
from django.http import JsonResponse
from django.urls import path
from django.views.decorators.http import require_GET

from play.heartbeat import reconciler_status, warn_if_reconciler_stale

log = logging.getLogger(__name__)


def ping(request):
    return JsonResponse({"ok": True})


def _database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"ok": True}
    except Exception as exc:  # any failure is the answer, never a 500
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}


def _broker() -> dict:
    from cardsite.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"ok": True}
    except Exception as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}


@require_GET
def health(request):
    checks = {"database": _database(), "broker": _broker(), "reconciler": reconciler_status()}
    ok = all(check["ok"] for check in checks.values())
    if not checks["reconciler"]["ok"]:
        warn_if_reconciler_stale()
    for name in ("database", "broker"):
        if not checks[name]["ok"]:
            log.warning("Health: %s unavailable: %s", name, checks[name]["error"])
    return JsonResponse({"ok": ok, **checks}, status=200 if ok else 503)


urlpatterns = [path("", ping, name="ping")]
