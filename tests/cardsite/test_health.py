"""`/api/health/`: database, broker and a recent reconciler run (cardsite/health.py)."""

import logging
import time

import pytest

from play import heartbeat, tasks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def own_heartbeat(settings, tmp_path, monkeypatch):
    """The file store of the heartbeat in a folder of this test (no Redis), or the test cache;
    and no stale-reconciler warning left rate-limited by an earlier test of this process."""
    settings.BROKER_DIR = tmp_path / "broker"
    monkeypatch.setattr(heartbeat, "_last_warning", 0.0)
    if settings.REDIS_URL:
        from django.core.cache import cache

        cache.delete(heartbeat.KEY)


def test_health_is_503_naming_the_reconciler_when_beat_never_ran(anon_client, caplog):
    with caplog.at_level(logging.WARNING):
        response = anon_client.get("/api/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["ok"] is False
    assert body["database"] == {"ok": True}
    assert body["reconciler"]["ok"] is False and body["reconciler"]["last_run"] is None
    assert "reconciler has never run" in caplog.text


def test_the_scheduled_reconciler_task_records_its_run_and_health_turns_ok(anon_client):
    tasks.simulation_reconcile()
    status = heartbeat.reconciler_status()
    assert status["ok"] and status["age_seconds"] < 5
    body = anon_client.get("/api/health/").json()
    assert body["reconciler"]["ok"] is True
    assert body["ok"] is body["broker"]["ok"]


def test_a_reconciler_that_stopped_running_is_logged_and_reported(anon_client, caplog):
    heartbeat.reconciler_ran(at=time.time() - 1000)
    with caplog.at_level(logging.WARNING):
        response = anon_client.get("/api/health/")
    assert response.status_code == 503
    assert response.json()["reconciler"]["age_seconds"] >= 1000
    assert "celery beat or the control worker is down" in caplog.text
