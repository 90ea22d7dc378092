"""The set grid in Chromium: 20 real cards entered from the keyboard at no more than 12 keys a
card beyond the typed values, a draft that survives a reload, one changeset sent (issue #24);
and 20 cards each with its fields and one scan, at the same budget (issue #24 item 1)."""

import os

import pytest
from django.contrib.auth import get_user_model
from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from catalog.models import CardScan, Changeset, ScanUpload
from catalog.services import catalog_load
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What a collector types for a card, field by field in grid order; None: left as it is.
PLAN = ["name", "name_ja", None, "kind", "position", "person", None, "shoot", "keep", "defense"]
KEYS_A_CARD = 12


def card_values(n: int) -> dict:
    return {
        "name": f"Real Player {n}",
        "name_ja": f"選手{n}",
        "kind": "player",
        "position": "FW" if n % 2 else "DF",
        "person": f"Real Player {n}",
        "shoot": str(n % 9 + 1),
        "keep": "3",
        "defense": str(9 - n % 9),
    }


def focus(browser, number: int) -> None:
    """Put the cursor in a row's first cell, as a click does (the sticky header may cover it)."""
    cell = browser.find_element(By.CSS_SELECTOR, f'tr[data-number="{number}"] input')
    browser.execute_script("arguments[0].focus(); arguments[0].select();", cell)


def test_a_collector_enters_twenty_cards_from_the_keyboard(live_server, browser, screenshot_dir):
    catalog_load()
    get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    wait = browser_wait(browser, 20)
    browser.get(live_server.url + "/accounts/login/?next=/sets/BS/grid/")
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)
    wait.until(lambda b: b.find_elements(By.ID, "set-grid"))
    focus(browser, 1)
    navigation = 0
    for n in range(1, 21):
        values = card_values(n)
        active = browser.switch_to.active_element
        # A card's values and the keys between them in one send_keys (the same key events,
        # one WebDriver round trip a card instead of two a field).
        typed = ""
        for index, field in enumerate(PLAN):
            if field is not None:
                typed += values[field]
            typed += Keys.ENTER if index == len(PLAN) - 1 else Keys.TAB
            navigation += 1
        active.send_keys(typed)
        assert active != browser.switch_to.active_element
        if n == 5:  # a reload keeps the draft
            browser.refresh()
            wait.until(
                lambda b: b.find_element(By.CSS_SELECTOR, "[data-draft-note]").is_displayed()
            )
            name = browser.find_element(
                By.CSS_SELECTOR, 'tr[data-number="5"] input[data-field="name"]'
            )
            assert name.get_attribute("value") == "Real Player 5"
            assert "changed" in name.get_attribute("class")
            focus(browser, 6)
    assert navigation / 20 <= KEYS_A_CARD
    assert browser.find_element(By.CSS_SELECTOR, "[data-changed-count]").text == "20"
    browser.save_screenshot(os.path.join(screenshot_dir, "set-grid.png"))
    browser.find_element(By.NAME, "source").send_keys("my Basic Set binder")
    browser.find_element(By.CSS_SELECTOR, "[data-send-grid]").click()
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#changeset-review, #changeset-problems"))
    problems = browser.find_elements(By.ID, "changeset-problems")
    assert not problems, problems[0].text if problems else ""
    changeset = Changeset.objects.get()
    proposals = list(changeset.proposals.order_by("number"))
    assert [p.number for p in proposals] == list(range(1, 21))
    for p in proposals:
        expected = card_values(p.number)
        assert {k: p.data[k] for k in expected} == expected
    assert changeset.source == "my Basic Set binder"
    draft = browser.execute_script("return localStorage.getItem('cardlab-grid-draft:BS')")
    assert draft is None  # sent: the draft is gone


def paste(browser, number: int, field: str, text: str) -> None:
    cell = browser.find_element(
        By.CSS_SELECTOR, f'tr[data-number="{number}"] input[data-field="{field}"]'
    )
    browser.execute_script(
        "const data = new DataTransfer(); data.setData('text', arguments[1]);"
        "arguments[0].dispatchEvent(new ClipboardEvent('paste',"
        " {clipboardData: data, bubbles: true, cancelable: true}));",
        cell,
        text,
    )


def value(browser, number: int, field: str) -> str:
    cell = browser.find_element(
        By.CSS_SELECTOR, f'tr[data-number="{number}"] input[data-field="{field}"]'
    )
    return cell.get_attribute("value")


def test_spreadsheet_cells_paste_by_header_or_from_the_cell(live_server, browser):
    catalog_load()
    get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    browser.get(live_server.url + "/accounts/login/?next=/sets/BS/grid/")
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)
    browser_wait(browser, 20).until(lambda b: b.find_elements(By.ID, "set-grid"))
    before = value(browser, 1, "name")
    # A header row names the fields; the number column says which rows.
    paste(browser, 1, "name", "number\tname\tshoot\n30\tPasted Thirty\t8\n31\tPasted 31\t9\n")
    assert value(browser, 1, "name") == before
    assert (value(browser, 30, "name"), value(browser, 30, "shoot")) == ("Pasted Thirty", "8")
    assert (value(browser, 31, "name"), value(browser, 31, "shoot")) == ("Pasted 31", "9")
    # No header: from the cell pasted into, across and down.
    paste(browser, 40, "name", "Forty\t四十\nForty-one\t四十一")
    assert (value(browser, 40, "name"), value(browser, 40, "name_ja")) == ("Forty", "四十")
    assert (value(browser, 41, "name"), value(browser, 41, "name_ja")) == ("Forty-one", "四十一")
    assert browser.find_element(By.CSS_SELECTOR, "[data-changed-count]").text == "4"


def scan_files(folder, numbers) -> list[str]:
    """Write a small scan for each number, named the three ways the grid matches by."""
    paths = []
    for n in numbers:
        name = ("BS-{n:03d}.jpg", "{n:03d}-front.png", "{n}.jpg")[n % 3].format(n=n)
        image = Image.new("RGB", (300, 420), (n * 12 % 256, 80, 140))
        image.save(folder / name, format="PNG" if name.endswith(".png") else "JPEG")
        paths.append(str(folder / name))
    return paths


def sign_in_to_the_grid(live_server, browser):
    catalog_load()
    get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    browser.get(live_server.url + "/accounts/login/?next=/sets/BS/grid/")
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)
    browser_wait(browser, 20).until(lambda b: b.find_elements(By.ID, "set-grid"))


def test_twenty_cards_each_with_a_scan_at_no_more_than_12_keys_a_card(
    live_server, browser, tmp_path, settings, screenshot_dir
):
    """How keys are counted: every Tab and Enter between cells is one key; the typed values
    (the card fields and the source) are not counted, as the issue says ("beyond the typed
    values"); choosing the 20 scans is one action for all of them (Selenium gives the multiple
    file input all 20 paths in one send_keys, as a person picks them in one file dialog); the
    click on "Send" is one more. A file name that names no row is listed and not sent."""
    settings.MEDIA_ROOT = tmp_path / "media"
    sign_in_to_the_grid(live_server, browser)
    focus(browser, 1)
    keys = 0
    for n in range(1, 21):
        values = card_values(n)
        typed = ""  # one send_keys a card: the same key events, fewer round trips
        for index, field in enumerate(PLAN):
            if field is not None:
                typed += values[field]
            typed += Keys.ENTER if index == len(PLAN) - 1 else Keys.TAB
            keys += 1
        browser.switch_to.active_element.send_keys(typed)
    folder = tmp_path / "scans"
    folder.mkdir()
    paths = scan_files(folder, range(1, 21))
    (folder / "notes.jpg").write_bytes(b"not a card")
    chooser = browser.find_element(By.ID, "grid-scans")
    chooser.send_keys("\n".join([*paths, str(folder / "notes.jpg")]))
    keys += 1  # one file dialog for all the scans
    unmatched = browser.find_element(By.ID, "grid-scans-unmatched")
    assert unmatched.is_displayed() and "notes.jpg" in unmatched.text
    assert browser.find_element(By.CSS_SELECTOR, "[data-scan-count]").text == "20"
    assert browser.find_element(By.CSS_SELECTOR, "[data-changed-count]").text == "20"
    row_12 = browser.find_element(By.CSS_SELECTOR, 'tr[data-number="12"] [data-scan-name]')
    assert row_12.text == "BS-012.jpg"
    browser.save_screenshot(os.path.join(screenshot_dir, "set-grid-scans.png"))
    browser.find_element(By.NAME, "source").send_keys("my Basic Set binder")
    browser.find_element(By.CSS_SELECTOR, "[data-send-grid]").click()
    keys += 1
    assert keys / 20 <= KEYS_A_CARD, f"{keys} keys for 20 cards"
    wait = browser_wait(browser, 30)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#changeset-review, #changeset-problems"))
    problems = browser.find_elements(By.ID, "changeset-problems")
    assert not problems, problems[0].text if problems else ""
    changeset = Changeset.objects.get()
    proposals = list(changeset.proposals.order_by("number"))
    assert [p.number for p in proposals] == list(range(1, 21))
    for p in proposals:  # each row's scan went to its own card (processed by the task)
        scan = CardScan.objects.get(proposal=p)
        assert (scan.side, scan.width, scan.height) == ("front", 300, 420)
    assert set(ScanUpload.objects.values_list("status", flat=True)) == {"done"}
    thumbnails = browser.find_elements(By.CSS_SELECTOR, ".changeset-scans img")
    assert len(thumbnails) == 20


def test_a_reload_says_which_chosen_scans_were_dropped_and_a_row_clears_its_scan(
    live_server, browser, tmp_path
):
    sign_in_to_the_grid(live_server, browser)
    folder = tmp_path / "scans"
    folder.mkdir()
    browser.find_element(By.ID, "grid-scans").send_keys("\n".join(scan_files(folder, [3, 7])))
    assert browser.find_element(By.CSS_SELECTOR, "[data-scan-count]").text == "2"
    row_7 = browser.find_element(By.CSS_SELECTOR, 'tr[data-number="7"]')
    assert "changed" in row_7.get_attribute("class")  # a scan alone is a change to send
    row_7.find_element(By.CSS_SELECTOR, "[data-scan-clear]").click()
    assert "changed" not in row_7.get_attribute("class")
    assert browser.find_element(By.CSS_SELECTOR, "[data-scan-count]").text == "1"
    browser.refresh()
    wait = browser_wait(browser, 20)
    wait.until(lambda b: b.find_element(By.ID, "grid-scans-dropped").is_displayed())
    dropped = browser.find_element(By.ID, "grid-scans-dropped").text
    assert "BS-003" in dropped and "BS-007" not in dropped
    assert browser.find_element(By.CSS_SELECTOR, "[data-scan-count]").text == "0"
