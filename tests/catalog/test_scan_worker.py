"""Scans are decoded off the request thread (issue #26): the request checks the header and
stores the raw upload; the control worker's task decodes it within a time limit."""

import io
import os
import time

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from PIL import Image, ImageFile

from catalog import scans
from catalog.contributions.services import ProposalError, proposal_accept, proposal_reject
from catalog.models import CardProposal, CardScan, ScanUpload

pytestmark = pytest.mark.django_db

FORM = {
    "set": "BS",
    "number": "12",
    "name": "Real Striker",
    "kind": "player",
    "position": "FW",
    "shoot": "7",
    "source": "my own card",
}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def jpeg(size=(900, 1260)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (30, 120, 60)).save(out, format="JPEG")
    return out.getvalue()


def upload(content: bytes, name="front.jpg"):
    return SimpleUploadedFile(name, content, content_type="image/jpeg")


def raw_files(media) -> list[str]:
    folder = media / "scan-uploads"
    return sorted(str(p.relative_to(media)) for p in folder.rglob("*")) if folder.exists() else []


def grant(user, *codenames):
    for codename in codenames:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def editor(db):
    user = get_user_model().objects.create_user("erin", "erin@example.com", "correct-horse-3")
    return grant(user, "review_proposal")


@pytest.fixture
def editor_client(editor):
    client = Client()
    client.force_login(editor)
    return client


@pytest.fixture
def queued(alice_client, django_capture_on_commit_callbacks, monkeypatch):
    """Send a proposal with a front scan while decoding is forbidden on the request thread;
    return the callbacks its commit queued (the task, not yet run)."""

    def no_decoding(*args, **kwargs):
        raise AssertionError("a scan was decoded on the request thread")

    content = jpeg()
    with django_capture_on_commit_callbacks() as callbacks:
        with monkeypatch.context() as patch:
            patch.setattr(ImageFile.ImageFile, "load", no_decoding)
            patch.setattr(Image.Image, "load", no_decoding)
            patch.setattr(scans, "scan_decode", no_decoding)
            patch.setattr(scans, "_renditions", no_decoding)
            response = alice_client.post("/cards/propose/", {**FORM, "front": upload(content)})
    assert response.status_code == 302
    return callbacks


@pytest.fixture
def run(django_capture_on_commit_callbacks):
    """Run the queued task (as the control worker would), then what its own commit queued."""

    def run_them(callbacks):
        with django_capture_on_commit_callbacks(execute=True):
            for callback in callbacks:
                callback()

    return run_them


def test_the_request_only_stores_the_upload_and_the_task_makes_the_scan(run, queued, media):
    row = ScanUpload.objects.get()
    assert (row.status, row.side, row.name) == ("pending", "front", "front.jpg")
    assert raw_files(media) == [f"scan-uploads/{row.token}", f"scan-uploads/{row.token}/front.jpg"]
    assert not CardScan.objects.exists()
    run(queued)  # the control worker's task (run inline by tests/conftest.py)
    row.refresh_from_db()
    scan = CardScan.objects.get()
    assert (row.status, row.message, row.scan, row.raw.name) == ("done", "", scan, "")
    assert (scan.side, scan.width, scan.height) == ("front", 900, 1260)
    assert scan.proposal == CardProposal.objects.get()
    assert raw_files(media) == []  # the raw file and its folder are gone


def test_the_page_shows_a_scan_being_processed_then_the_scan(run, queued, alice_client):
    proposal = CardProposal.objects.get()
    page = alice_client.get(proposal.get_absolute_url()).content.decode()
    assert "Scan of the front: being processed…" in page and "<progress" in page
    assert "js/scan_wait.js" in page and "No scan was sent." not in page
    answer = alice_client.get(f"/proposals/{proposal.pk}/scans/").json()
    assert answer == {"pending": 1, "failed": 0}
    run(queued)
    page = alice_client.get(proposal.get_absolute_url()).content.decode()
    assert "being processed" not in page and CardScan.objects.get().normal_url in page
    assert alice_client.get(f"/proposals/{proposal.pk}/scans/").json()["pending"] == 0


def test_the_status_of_the_scans_is_private_to_the_proposer_and_editors(queued, bob_client):
    proposal = CardProposal.objects.get()
    assert bob_client.get(f"/proposals/{proposal.pk}/scans/").status_code == 404


def test_an_editor_cannot_accept_while_a_scan_is_being_processed(
    run, queued, editor, editor_client
):
    proposal = CardProposal.objects.get()
    page = editor_client.get(proposal.get_absolute_url()).content.decode()
    assert 'value="accept" disabled' in page and "A scan is still being processed" in page
    with pytest.raises(ProposalError, match="still being processed"):
        proposal_accept(proposal=proposal, reviewer=editor)
    assert CardProposal.objects.get().status == "pending"
    run(queued)
    accepted = proposal_accept(proposal=proposal, reviewer=editor)
    assert accepted.status == "accepted" and CardScan.objects.get().card_id == "BS-012"


def test_a_trusted_proposers_apply_at_once_goes_ahead_and_the_scan_joins_the_card(
    run, alice, alice_client, django_capture_on_commit_callbacks
):
    grant(alice, "review_proposal", "apply_own_proposal")
    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_client.post(
            "/cards/propose/", {**FORM, "front": upload(jpeg()), "apply_now": "on"}
        )
    assert response.status_code == 302
    assert CardProposal.objects.get().status == "accepted" and not CardScan.objects.exists()
    run(callbacks)
    assert CardScan.objects.get().card_id == "BS-012"


def test_a_file_whose_pixels_cannot_be_decoded_ends_failed_with_a_message(
    alice_client, editor_client, media, django_capture_on_commit_callbacks
):
    broken = jpeg()[:3000]  # the header is whole (it passes the probe), the pixels are cut
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(
            "/cards/propose/", {**FORM, "front": upload(broken, "IMG_0001.jpg")}
        )
    assert response.status_code == 302
    row = ScanUpload.objects.get()
    assert row.status == "failed" and "not an image that can be read" in row.message
    assert not CardScan.objects.exists() and raw_files(media) == []
    proposal = CardProposal.objects.get()
    for client in (alice_client, editor_client):
        page = client.get(proposal.get_absolute_url()).content.decode()
        assert "Scan of the front: not kept" in page and "IMG_0001.jpg" in page
        assert "not an image that can be read" in page
    assert alice_client.get(f"/proposals/{proposal.pk}/scans/").json() == {
        "pending": 0,
        "failed": 1,
    }


def test_processing_past_the_soft_time_limit_ends_failed(
    alice_client, media, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.SCAN_PROCESS_SOFT_SECONDS = 1

    def pathological(image):  # a resize that would never end
        end = time.monotonic() + 30
        while time.monotonic() < end:
            time.sleep(0.05)
        raise AssertionError("the time limit did not stop the processing")

    monkeypatch.setattr(scans, "_renditions", pathological)
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post("/cards/propose/", {**FORM, "front": upload(jpeg())})
    assert time.monotonic() - started < 10
    row = ScanUpload.objects.get()
    assert row.status == "failed"
    assert "took longer than 1 seconds and was stopped" in row.message
    assert not CardScan.objects.exists() and raw_files(media) == []


def test_celerys_own_soft_time_limit_is_handled_the_same(
    alice_client, monkeypatch, django_capture_on_commit_callbacks
):
    # In a prefork pool Celery raises SoftTimeLimitExceeded itself, wherever the task is.
    def interrupted(data):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(scans, "scan_decode", interrupted)
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post("/cards/propose/", {**FORM, "front": upload(jpeg())})
    row = ScanUpload.objects.get()
    assert row.status == "failed" and "took longer than" in row.message
    assert not CardScan.objects.exists()


def test_the_task_has_its_time_limits_and_goes_to_the_control_queue(settings, monkeypatch):
    from cardsite.celery import app
    from play.management.processes import control_worker_command

    app.loader.import_default_modules()  # what a worker does at start: autodiscovery
    scan_process = app.tasks[scans.PROCESS_TASK]
    assert scan_process.soft_time_limit == settings.SCAN_PROCESS_SOFT_SECONDS
    assert scan_process.time_limit == settings.SCAN_PROCESS_HARD_SECONDS
    assert scan_process.soft_time_limit < scan_process.time_limit
    sent = []
    monkeypatch.undo()  # the autouse inline runner replaced scan_publish: test the real one
    monkeypatch.setattr(
        scans.current_app, "send_task", lambda name, **kwargs: sent.append((name, kwargs))
    )
    scans.scan_publish(41)
    assert sent == [(scans.PROCESS_TASK, {"args": (41,), "queue": settings.CONTROL_QUEUE})]
    command = control_worker_command(with_beat=False)
    assert command[command.index("--queues") + 1] == settings.CONTROL_QUEUE


def test_a_broker_that_cannot_be_reached_leaves_the_upload_pending(monkeypatch, caplog):
    monkeypatch.undo()  # the real scan_publish, not the inline runner of tests/conftest.py

    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(scans.current_app, "send_task", down)
    scans.scan_publish(41)  # no error reaches the request: the proposal is saved
    assert "Scan upload 41 not queued: broker down" in caplog.text


def test_rejecting_a_proposal_whose_scan_waits_deletes_the_upload_and_the_task_does_nothing(
    run, queued, editor, media, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        proposal_reject(proposal=CardProposal.objects.get(), reviewer=editor, reason="Not BS.")
    assert not ScanUpload.objects.exists() and raw_files(media) == []
    run(queued)
    assert not CardScan.objects.exists()


def test_an_edit_replaces_an_upload_still_waiting(
    run, queued, alice_client, django_capture_on_commit_callbacks
):
    proposal = CardProposal.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(
            f"/proposals/{proposal.pk}/edit/", {**FORM, "front": upload(jpeg((800, 1120)))}
        )
    assert response.status_code == 302
    run(queued)  # the first upload's task comes late: its row is gone
    assert CardScan.objects.get().width == 800
    assert list(ScanUpload.objects.values_list("status", flat=True)) == ["done"]


def old(path):
    an_hour_and_more_ago = time.time() - 3700
    os.utime(path, (an_hour_and_more_ago, an_hour_and_more_ago))
    return path


def orphans(*args) -> str:
    out = io.StringIO()
    call_command("scan_orphans", *args, stdout=out)
    return out.getvalue()


def test_scan_orphans_covers_raw_uploads_with_no_row_and_uploads_never_processed(
    queued, media, django_capture_on_commit_callbacks
):
    stray = media / "scan-uploads" / ("a" * 32) / "front.jpg"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(b"left by a rolled-back request")
    old(stray)
    (media / "scan-uploads" / ("b" * 32)).mkdir()
    row = ScanUpload.objects.get()
    assert "pending since" not in orphans()  # it was sent a moment ago
    ScanUpload.objects.filter(pk=row.pk).update(
        created_at=row.created_at.replace(year=row.created_at.year - 1)
    )
    out = orphans()
    assert f"uploaded file without an upload row: scan-uploads/{'a' * 32}/front.jpg" in out
    assert f"empty folder without a scan row: scan-uploads/{'b' * 32}" in out
    assert f"upload {row.pk} ({row.token}) pending since" in out
    assert "3 found; nothing deleted" in out and stray.exists()
    with django_capture_on_commit_callbacks(execute=True):
        out = orphans("--delete")
    assert "Deleted 1 uploaded files without a row; 1 pending uploads ended as failed." in out
    row.refresh_from_db()
    assert row.status == "failed" and "not processed in time" in row.message
    assert raw_files(media) == []
    assert "0 found" in orphans()


@pytest.mark.parametrize("prefix", ["scan-uploads", "./scan-uploads", "scans/../scan-uploads"])
def test_a_raw_upload_is_never_served_from_media(queued, client, settings, media, prefix):
    # The raw file still carries its EXIF data (camera, GPS position): never at /media/.
    settings.SERVE_MEDIA = True
    (media / "other.txt").write_text("served")
    assert client.get("/media/other.txt").status_code == 200  # other media files are
    row = ScanUpload.objects.get()
    name = row.raw.name.removeprefix("scan-uploads")
    assert client.get(f"/media/{prefix}{name}").status_code == 404


def test_an_upload_left_pending_is_sent_again_by_the_beat_sweep_then_given_up(
    queued, settings, django_capture_on_commit_callbacks
):
    """A scan sent while the broker was down (its message lost) is not left to the operator:
    beat's sweep sends it again after SCAN_REQUEUE_SECONDS, once per that wait, and ends it
    failed as never processed after SCAN_GIVE_UP_SECONDS."""
    from datetime import timedelta

    from django.utils import timezone

    from catalog.tasks import scans_requeue

    row = ScanUpload.objects.get()  # the commit's message was never run: as if lost
    assert scans.scans_requeue().requeued == []  # too soon: it may still be on its way
    later = timezone.now() + timedelta(seconds=settings.SCAN_REQUEUE_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        sweep = scans.scans_requeue(now=later)
    assert sweep.requeued == [row.pk] and sweep.failed == []
    row.refresh_from_db()
    assert row.status == "done" and CardScan.objects.count() == 1  # the inline worker ran it
    assert scans.scans_requeue(now=later).requeued == []  # nothing pending any more

    # Another, whose re-sends are lost too: sent again once a wait, then given up.
    other = ScanUpload.objects.create(
        token="f" * 32, proposal=row.proposal, side="back", name="back.jpg"
    )
    sent = []
    settings.SCAN_GIVE_UP_SECONDS = 3 * settings.SCAN_REQUEUE_SECONDS
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scans, "scan_publish", sent.append)
        step = timedelta(seconds=settings.SCAN_REQUEUE_SECONDS + 1)
        now = timezone.now()
        with django_capture_on_commit_callbacks(execute=True):
            assert scans.scans_requeue(now=now + step).requeued == [other.pk]
            assert scans.scans_requeue(now=now + step).requeued == []  # it waits again
            assert scans.scans_requeue(now=now + 2 * step).requeued == [other.pk]
            assert scans_requeue.apply().get() == 0  # the beat task: nothing due now
            assert scans.scans_requeue(now=now + 4 * step).failed == [other.pk]
    assert sent == [other.pk, other.pk]
    other.refresh_from_db()
    assert (other.status, other.reason) == ("failed", "stale")
    assert any(
        entry["task"] == "catalog.tasks.scans_requeue"
        and entry["options"]["queue"] == settings.CONTROL_QUEUE
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
    )


# --- a scan of one printing of the card (issue #24: printings have their own scans) ------------


def _reprint():
    from catalog.models import Card, CardSet, Printing

    card = Card.objects.get(id="BS-012")
    other = CardSet.objects.exclude(code="BS").first()
    return Printing.objects.create(
        code=f"{other.code}-077", card=card, card_set=other, number=77, kind="reprint"
    )


def test_a_scan_says_which_printing_it_shows_and_the_scan_keeps_it(
    alice_client, django_capture_on_commit_callbacks
):
    reprint = _reprint()
    page = alice_client.get("/cards/propose/?card=BS-012").content.decode()
    assert f'<option value="{reprint.code}"' in page  # offered: the card has two printings
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(
            "/cards/propose/?card=BS-012",
            {**FORM, "front": upload(jpeg()), "scan_printing": reprint.code},
        )
    assert response.status_code == 302
    scan = CardScan.objects.get()
    assert scan.printing == reprint
    # accepted, the scan shows in its printing's row of the card page, not the first print's
    proposal = CardProposal.objects.get()
    editor = grant(
        get_user_model().objects.create_user("ed", "ed@example.com", "correct-horse-9"),
        "review_proposal",
    )
    proposal_accept(proposal=proposal, reviewer=editor)
    page = alice_client.get("/cards/BS-012/").content.decode()
    row = page[page.index(f'data-printing="{reprint.code}"') :].split("</tr>")[0]
    assert scan.thumbnail_url in row
    first = page[page.index('data-printing="BS-012"') :].split("</tr>")[0]
    assert scan.thumbnail_url not in first and "add a scan" in first
    assert "printing=BS-012" in first
    form = alice_client.get("/cards/propose/?card=BS-012&printing=" + reprint.code)
    assert f'<option value="{reprint.code}" selected' in form.content.decode()


def test_a_printing_of_another_card_is_refused_naming_the_field(alice_client):
    from catalog.models import Printing

    elsewhere = Printing.objects.exclude(card_id="BS-012").first()
    response = alice_client.post(
        "/cards/propose/?card=BS-012",
        {**FORM, "front": upload(jpeg()), "scan_printing": elsewhere.code},
    )
    assert response.status_code == 400
    assert f"“{elsewhere.code}” is not a printing of BS-012." in response.content.decode()
    assert not CardProposal.objects.exists() and not ScanUpload.objects.exists()
