"""A real control worker (`celery worker --queues control --pool solo`, as runstack starts it)
processes an uploaded scan sent by a proposal (issue #26): the task is found by autodiscovery,
routed to the control queue, and reads the raw upload from the shared MEDIA_ROOT."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from catalog.contributions.services import proposal_create
from catalog.models import CardScan, ScanUpload
from catalog.services import catalog_load
from tests.waits import wait_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_control_worker_turns_an_upload_into_a_scan(
    alice, workers, settings, tmp_path, monkeypatch
):
    monkeypatch.undo()  # the real publisher, not the inline runner of tests/conftest.py
    catalog_load()
    media = tmp_path / "media"
    settings.MEDIA_ROOT = media
    out = io.BytesIO()
    Image.new("RGB", (600, 840), (200, 30, 30)).save(out, format="JPEG")
    proposal = proposal_create(
        proposer=alice,
        data={"set": "BS", "number": "12", "name": "Real Striker", "kind": "player"}
        | {"position": "FW", "shoot": "7"},
        source="my own card",
        scans={"front": SimpleUploadedFile("front.jpg", out.getvalue())},
    )
    row = ScanUpload.objects.get()
    assert row.status == "pending" and (media / row.raw.name).exists()
    workers.start("w1", extra_env={"MEDIA_ROOT": str(media)}, queues=settings.CONTROL_QUEUE)

    def finished():
        row.refresh_from_db()
        return row.status != "pending"

    wait_until(finished, timeout=90, what=f"the control worker\n{workers.logs()}")
    assert row.status == "done", workers.logs()
    scan = CardScan.objects.get()
    assert scan.proposal == proposal and (scan.width, scan.height) == (600, 840)
    assert (media / scan.large.name).exists() and not (media / "scan-uploads" / row.token).exists()
