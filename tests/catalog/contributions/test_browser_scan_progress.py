"""The proposal page while its scan waits for the control worker (issue #26): a progress line,
then, once the worker has made the scan, the page shows it by itself (static/js/scan_wait.js)."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from selenium.webdriver.common.by import By

from catalog import scans
from catalog.contributions.services import proposal_create
from catalog.models import CardScan, ScanUpload
from catalog.services import catalog_load
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_page_shows_the_progress_then_the_scan_once_processed(
    live_server, browser, tmp_path, settings, monkeypatch
):
    settings.MEDIA_ROOT = tmp_path / "media"
    catalog_load()
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    queued = []
    monkeypatch.setattr(scans, "scan_publish", queued.append)  # the worker is "down" for now
    out = io.BytesIO()
    Image.new("RGB", (630, 880), (18, 89, 42)).save(out, format="JPEG")
    proposal = proposal_create(
        proposer=alice,
        data={"set": "BS", "number": "12", "name": "Real Striker", "kind": "player"}
        | {"position": "FW", "shoot": "7"},
        source="my own card",
        scans={"front": SimpleUploadedFile("front.jpg", out.getvalue())},
    )
    assert queued == [ScanUpload.objects.get().pk]
    browser.get(live_server.url + "/accounts/login/?next=" + proposal.get_absolute_url())
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1")
    browser.find_element(By.NAME, "password").submit()
    wait = browser_wait(browser, 20)
    wait.until(lambda b: b.find_elements(By.ID, "scan-progress"))
    assert browser.find_element(By.CSS_SELECTOR, "#scan-progress progress").is_displayed()
    assert not browser.find_elements(By.CSS_SELECTOR, ".scans img")
    scans.scan_upload_process(queued[0])  # the control worker's task, now
    scan = CardScan.objects.get()
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, ".scans img"))
    image = browser.find_element(By.CSS_SELECTOR, ".scans img")
    assert scan.normal_url in image.get_attribute("src")
    assert not browser.find_elements(By.ID, "scan-progress")
