"""scan_orphans: files under scans/ with no row, and rows whose files are missing."""

import io
import os
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from PIL import Image

from catalog.models import CardProposal, CardScan
from catalog.scans import scan_create

pytestmark = pytest.mark.django_db

REAL_12 = {
    "set": "BS",
    "number": "12",
    "name": "Real Striker",
    "kind": "player",
    "position": "FW",
    "shoot": "7",
}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def scan(alice):
    from catalog.contributions.services import proposal_create

    proposal = proposal_create(proposer=alice, data=REAL_12, source="my own card")
    return scan_create(image=Image.new("RGB", (600, 840)), side="front", proposal=proposal)


def old_file(path, content=b"x"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    an_hour_and_more_ago = time.time() - 3700
    os.utime(path, (an_hour_and_more_ago, an_hour_and_more_ago))
    return path


def run(*args) -> str:
    out = io.StringIO()
    call_command("scan_orphans", *args, stdout=out)
    return out.getvalue()


def test_it_lists_orphan_files_and_rows_missing_files_and_deletes_nothing_by_default(scan, media):
    stray = old_file(media / "scans" / ("a" * 32) / "front-large.jpg")
    loose = old_file(media / "scans" / "left-over.jpg")
    (media / "scans" / ("b" * 32)).mkdir()
    (media / scan.normal.name).unlink()
    out = run()
    assert f"file without a scan row: scans/{'a' * 32}/front-large.jpg" in out
    assert "file without a scan row: scans/left-over.jpg" in out
    assert f"empty folder without a scan row: scans/{'b' * 32}" in out
    assert f"scan row {scan.pk} ({scan.token}) is missing files" in out
    assert "4 found; nothing deleted" in out
    assert stray.exists() and loose.exists() and CardScan.objects.filter(pk=scan.pk).exists()
    assert run("--dry-run") == out


def test_delete_removes_the_orphans_and_the_broken_row_with_its_remaining_files(
    scan, media, django_capture_on_commit_callbacks
):
    old_file(media / "scans" / ("a" * 32) / "front-large.jpg")
    (media / "scans" / ("b" * 32)).mkdir()
    (media / scan.normal.name).unlink()
    with django_capture_on_commit_callbacks(execute=True):
        out = run("--delete")
    assert "Deleted 1 files, 1 empty folders and 1 scan rows." in out
    assert not CardScan.objects.exists() and CardProposal.objects.exists()
    assert list((media / "scans").iterdir()) == []
    assert "0 found" in run()


def test_a_complete_scan_and_a_young_file_are_left_alone(scan, media):
    young = media / "scans" / ("c" * 32) / "front-large.jpg"
    young.parent.mkdir(parents=True)
    young.write_bytes(b"being stored")
    assert "Deleted 0 files, 0 empty folders and 0 scan rows." in run("--delete")
    assert young.exists() and all(
        (media / getattr(scan, size).name).exists() for size in ("thumbnail", "normal", "large")
    )
    assert f"scans/{'c' * 32}/front-large.jpg" in run("--min-age", "0")


def test_with_no_scans_folder_nothing_is_found():
    assert "0 found" in run()


def test_delete_and_dry_run_together_are_refused():
    with pytest.raises(CommandError):
        call_command("scan_orphans", "--delete", "--dry-run")
