"""A collector proposes a real card in Chromium, an editor reviews the difference and accepts,
and the card page shows the real card with its history."""

import io
import os

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from catalog.models import Card, CardProposal
from catalog.services import catalog_load
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(browser, live_server, username, password, next_url):
    browser.delete_all_cookies()
    browser.get(f"{live_server.url}/accounts/login/?next={next_url}")
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys(password)
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit], form input[type=submit]")
    browser.find_element(By.NAME, "password").submit()
    # A submit does not wait for the next page as a navigation does: wait for it here.
    browser_wait(browser, 20).until(
        lambda b: (
            "/accounts/login/" not in b.current_url
            and b.execute_script("return document.readyState") == "complete"
        )
    )


def scan_file(tmp_path) -> str:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (630, 880), (18, 89, 42))
    draw = ImageDraw.Draw(image)
    draw.rectangle((30, 30, 600, 850), outline=(252, 211, 77), width=12)
    draw.text((60, 80), "BS-012 Real Striker", fill=(255, 255, 255))
    path = tmp_path / "front.png"
    out = io.BytesIO()
    image.save(out, format="PNG")
    path.write_bytes(out.getvalue())
    return str(path)


def test_proposal_review_accept_and_card_history_in_the_browser(
    live_server, browser, screenshot_dir, tmp_path, settings
):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.SERVE_MEDIA = True
    catalog_load()
    users = get_user_model().objects
    users.create_user("alice", "alice@example.com", "correct-horse-1")
    users.create_user("erin", "erin@example.com", "correct-horse-3", is_staff=True)
    sample_name = Card.objects.get(id="BS-012").name
    wait = browser_wait(browser, 10)

    log_in(browser, live_server, "alice", "correct-horse-1", "/sets/BS/")
    wait.until(EC.presence_of_element_located((By.ID, "checklist")))
    browser.find_element(By.CSS_SELECTOR, '#checklist a[href$="number=12"]').click()
    wait.until(EC.presence_of_element_located((By.NAME, "source")))
    assert (
        Select(browser.find_element(By.NAME, "set")).first_selected_option.get_attribute("value")
        == "BS"
    )
    fields = {
        "name": "Real Striker",
        "name_ja": "本物 ストライカー",
        "person": "Real Striker",
        "shoot": "7",
        "keep": "2",
        "defense": "1",
        "rarity": "R",
        "source": "my own card",
    }
    for name, value in fields.items():
        element = browser.find_element(By.NAME, name)
        element.clear()
        element.send_keys(value)
    Select(browser.find_element(By.NAME, "kind")).select_by_value("player")
    Select(browser.find_element(By.NAME, "position")).select_by_value("FW")
    Select(browser.find_element(By.NAME, "team")).select_by_value("kashima")
    browser.find_element(By.NAME, "front").send_keys(scan_file(tmp_path))
    browser.find_element(By.CSS_SELECTOR, ".contrib-form button[type=submit]").click()
    wait.until(EC.presence_of_element_located((By.ID, "review-diff")))
    proposal = CardProposal.objects.get()
    assert proposal.status == "pending" and proposal.scans.count() == 1
    assert not browser.find_elements(By.ID, "review-form")  # the proposer cannot review

    log_in(browser, live_server, "erin", "correct-horse-3", "/review/")
    browser.find_element(By.LINK_TEXT, "BS-012").click()
    diff = wait.until(EC.presence_of_element_located((By.ID, "review-diff")))
    changed = [row.text for row in diff.find_elements(By.CSS_SELECTOR, "tr.changed")]
    assert any(sample_name in row and "Real Striker" in row for row in changed)
    image = browser.find_element(By.CSS_SELECTOR, ".scans img")
    wait.until(lambda b: b.execute_script("return arguments[0].naturalWidth", image) == 488)
    browser.save_screenshot(os.path.join(screenshot_dir, "review-diff.png"))
    browser.set_window_size(390, 900)
    browser.save_screenshot(os.path.join(screenshot_dir, "review-diff-390.png"))
    browser.set_window_size(1280, 900)

    browser.find_element(By.CSS_SELECTOR, "#review-form button[value=accept]").click()
    wait.until(EC.presence_of_element_located((By.ID, "history")))
    assert "/cards/BS-012/" in browser.current_url
    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert "Real Striker" in heading and "sample" not in heading
    history = browser.find_element(By.ID, "history").text
    assert "r1" in history and "alice" in history and "erin" in history
    assert "my own card" in history
    browser.save_screenshot(os.path.join(screenshot_dir, "card-after-accept.png"))
    card = Card.objects.get(id="BS-012")
    assert not card.is_sample and card.revisions.count() == 1 and card.scans.count() == 1


def test_a_rejection_reaches_the_proposer_with_its_reason(live_server, browser, screenshot_dir):
    catalog_load()
    users = get_user_model().objects
    alice = users.create_user("alice", "alice@example.com", "correct-horse-1")
    users.create_user("erin", "erin@example.com", "correct-horse-3", is_staff=True)
    from catalog.contributions.services import proposal_create

    proposal = proposal_create(
        proposer=alice,
        data={"set": "BS", "number": "13", "name": "Guess", "kind": "player", "position": "MF"},
        source="I think so",
    )
    wait = browser_wait(browser, 10)
    log_in(browser, live_server, "erin", "correct-horse-3", f"/proposals/{proposal.pk}/")
    reason = wait.until(EC.presence_of_element_located((By.NAME, "reason")))
    reason.send_keys("Please send a scan: BS-013 is a goalkeeper in my binder.")
    browser.find_element(By.CSS_SELECTOR, "#review-form button[value=reject]").click()
    wait.until(EC.url_contains("/review/"))
    log_in(browser, live_server, "alice", "correct-horse-1", "/users/alice/")
    section = wait.until(EC.presence_of_element_located((By.ID, "my-proposals")))
    assert "BS-013 is a goalkeeper in my binder" in section.text and "Rejected" in section.text
    browser.save_screenshot(os.path.join(screenshot_dir, "profile-rejected.png"))
