"""A photo turned into a collection entry in headless Chromium at 390 px (#25, 3.): a collector
signs in, chooses the set, uploads a synthetic phone photo (catalog.reading.synthetic), sees
the match as a question with the approved scan beside their own crop, adds it, and the
collection holds the card; then a binder page of 9 cards, added with "Add all". In English
and Japanese; no page scrolls sideways at 390 px. Screenshots go to $SCREENSHOT_DIR
(var/screenshots by default), for a person to look at."""

import os
import random

import cv2
import numpy as np
import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.select import Select

from catalog.services import catalog_load
from decks.collections import selectors as sel
from decks.models import CollectionEntry
from tests.browser_waits import browser_wait
from tests.decks.collections.photo_setup import (
    done_job,
    make_set_ready,
    skip_without_tools,
    synthetic_cards,
)
from tests.printings import make_printings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OVERFLOW = "return document.documentElement.scrollWidth - window.innerWidth"
PHONE = (390, 844)


@pytest.fixture(scope="module")
def synthetic_set():
    skip_without_tools()
    return synthetic_cards(9)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def ready(synthetic_set, transactional_db):
    """The catalog, alice, and the Basic Set ready for recognition (layout and 9 scans)."""
    catalog_load()
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    cards, scans, photos = synthetic_set
    make_set_ready(alice, cards, scans, photos[0])
    return alice


def sign_in(browser, live_server, language: str) -> None:
    browser.set_window_size(*PHONE)
    browser.get(live_server.url + "/robots.txt")
    browser.add_cookie({"name": "django_language", "value": language})
    browser.get(live_server.url + "/accounts/login/?next=/collection/")
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)
    browser_wait(browser, 15).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, ".photo-entry"))
    )


def send_photo(browser, tmp_path, data: bytes, name: str) -> None:
    """Choose the Basic Set, pick the photo, send it and wait for the matches."""
    path = tmp_path / name
    path.write_bytes(data)
    wait = browser_wait(browser, 90)
    chooser = browser.find_element(By.ID, "photo-set")
    assert chooser.get_attribute("value") == "BS"  # the ready set comes first
    browser.find_element(By.ID, "photo-file").send_keys(str(path))
    wait.until(lambda b: b.find_element(By.ID, "photo-file-name").text == name)
    browser.find_element(By.ID, "photo-send").click()
    wait.until(EC.presence_of_element_located((By.ID, "photo-add-form")))
    # Each card's crop of the photo is drawn beside its matches.
    wait.until(
        lambda b: all(
            (img.get_attribute("src") or "").startswith("data:image/jpeg")
            for img in b.find_elements(By.CSS_SELECTOR, "img.photo-crop")
        )
    )


def look(browser, screenshot_dir: str, name: str, at: str = "") -> None:
    """A screenshot at 390 and 1280 px (scrolled to `at`); the page never scrolls sideways."""
    for width, height in (PHONE, (1280, 900)):
        browser.set_window_size(width, height)
        if at:
            browser.execute_script("document.querySelector(arguments[0]).scrollIntoView()", at)
        browser.save_screenshot(os.path.join(screenshot_dir, f"{name}-{width}.png"))
        assert browser.execute_script(OVERFLOW) <= 0, f"{name} scrolls sideways at {width} px"
    browser.set_window_size(*PHONE)


def touch_size(element) -> tuple[int, int]:
    size = element.size
    return size["width"], size["height"]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_phone_photo_becomes_a_collection_entry_at_390_px(
    live_server, browser, ready, synthetic_set, screenshot_dir, tmp_path, language
):
    cards, _scans, photos = synthetic_set
    card = cards[4]
    sign_in(browser, live_server, language)
    browser.find_element(By.CSS_SELECTOR, ".photo-entry").click()
    browser_wait(browser, 15).until(EC.presence_of_element_located((By.ID, "photo-form")))
    assert browser.execute_script("return window.innerWidth") <= PHONE[0]
    look(browser, screenshot_dir, f"photo-start-{language}")
    send = browser.find_element(By.ID, "photo-send")
    assert touch_size(send)[1] >= 48 and touch_size(send)[0] >= 300

    send_photo(browser, tmp_path, photos[4], "phone.jpg")
    question = browser.find_element(By.CSS_SELECTOR, ".photo-question").text
    assert question.startswith(f"{card.id} {card.name_ja} ({card.name})")
    if language == "en":
        assert "? Add to my collection" in question
    else:
        assert "コレクションに追加しますか" in question
    choices = browser.find_elements(By.CSS_SELECTOR, ".photo-choice")
    assert len(choices) == 3 and all(touch_size(c)[1] >= 48 for c in choices)
    chosen = browser.find_element(By.CSS_SELECTOR, ".photo-choice input:checked")
    assert chosen.get_attribute("value") == card.id
    thumbnail = browser.find_element(By.CSS_SELECTOR, ".photo-choice.best img")
    assert "/scans/" in thumbnail.get_attribute("src")
    assert browser.execute_script("return arguments[0].naturalWidth", thumbnail) > 0
    assert browser.find_elements(By.CSS_SELECTOR, ".photo-question .badge.sample")
    look(browser, screenshot_dir, f"photo-match-{language}", ".photo-card")

    browser.find_element(By.CSS_SELECTOR, "button.photo-add").click()
    wait = browser_wait(browser, 15)
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".photo-card.added")))
    status = browser.find_element(By.ID, "photo-add-status").text
    assert ("1 copy" in status) if language == "en" else ("1 枚" in status)
    assert sel.owned_counts(ready) == {card.id: 1}
    look(browser, screenshot_dir, f"photo-added-{language}", ".photo-add-form")


def test_a_binder_page_of_nine_is_split_and_added_all_at_once(
    live_server, browser, ready, synthetic_set, screenshot_dir, tmp_path
):
    from catalog.reading import synthetic

    cards, scans, _photos = synthetic_set
    sign_in(browser, live_server, "en")
    browser.get(live_server.url + "/collection/photo/")
    # Failed readings say why, and the page stays usable: a file that is not an image is
    # refused at the door; a photo with no card in it fails on the worker.
    for name, data, said in (
        ("notes.jpg", b"not a photo at all", "not an image"),
        (
            "table.jpg",
            cv2.imencode(".jpg", np.full((600, 800, 3), 128, np.uint8))[1].tobytes(),
            "card",
        ),
    ):
        (tmp_path / name).write_bytes(data)
        browser.find_element(By.ID, "photo-file").send_keys(str(tmp_path / name))
        browser.find_element(By.ID, "photo-send").click()
        error = browser_wait(browser, 60).until(
            EC.visibility_of_element_located((By.ID, "photo-error"))
        )
        assert said in error.text, error.text
        assert browser.find_element(By.ID, "photo-send").is_enabled()
    look(browser, screenshot_dir, "photo-failed-en")
    page = synthetic.binder_page(scans, random.Random(3), columns=3)
    send_photo(browser, tmp_path, page, "binder.jpg")
    found = browser.find_elements(By.CSS_SELECTOR, "fieldset.photo-card")
    assert len(found) == 9
    assert browser.find_element(By.CSS_SELECTOR, "main h2").text == "9 cards found"
    assert "Card 1 of 9" in found[0].text
    look(browser, screenshot_dir, "photo-binder-en", "#photo-add-form")
    # A card the matcher abstained on is never picked silently: the collector picks it here.
    abstained = []
    for place, card in enumerate(found):
        if "abstained" in card.get_attribute("class"):
            assert not card.find_elements(By.CSS_SELECTOR, "input:checked")
            card.find_element(By.CSS_SELECTOR, ".photo-choice").click()
            abstained.append(place)
    chosen = [
        c.find_element(By.CSS_SELECTOR, "input[type=radio]:checked").get_attribute("value")
        for c in browser.find_elements(By.CSS_SELECTOR, "fieldset.photo-card")
    ]
    # One card's quantity raised before adding all.
    quantity = browser.find_element(By.NAME, "quantity-2")
    quantity.clear()
    quantity.send_keys("3")
    add_all = browser.find_element(By.ID, "photo-add-all")
    browser.execute_script("arguments[0].scrollIntoView()", add_all)
    add_all.click()
    wait = browser_wait(browser, 15)
    wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "fieldset.photo-card.added")) == 9)
    assert "11 copies" in browser.find_element(By.ID, "photo-add-status").text
    assert not add_all.is_enabled()
    owned = sel.owned_counts(ready)
    assert sum(owned.values()) == 11 and owned[chosen[1]] >= 3
    # In the page's reading order, each card the matcher was sure of is the card in that pocket.
    assert [chosen[i] for i in range(9) if i not in abstained] == [
        cards[i].id for i in range(9) if i not in abstained
    ]
    look(browser, screenshot_dir, "photo-binder-added-en", "#photo-add-status")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_abstention_asks_which_card_and_offers_only_its_printings(
    live_server, browser, screenshot_dir, language
):
    catalog_load()
    make_printings()  # BS-001 printed four ways, BS-002 with a promo
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    job = done_job(alice, [["BS-001", "BS-002", "BS-003"]], best=False)
    sign_in(browser, live_server, language)
    browser.get(f"{live_server.url}/collection/photo/{job.token}/")
    card = browser_wait(browser, 15).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "fieldset.photo-card.abstained"))
    )
    reason = card.find_element(By.CSS_SELECTOR, ".photo-reason").text
    assert "BS-001" in reason and "BS-002" in reason
    assert not card.find_elements(By.CSS_SELECTOR, "input:checked")  # never a silent pick
    look(browser, screenshot_dir, f"photo-abstained-{language}", ".photo-card")

    # Adding before choosing names the card and adds nothing.
    card.find_element(By.CSS_SELECTOR, "button.photo-add").click()
    status = browser.find_element(By.ID, "photo-add-status")
    browser_wait(browser, 15).until(lambda b: "error" in status.get_attribute("class"))
    assert "1" in status.text and sel.owned_counts(alice) == {}

    # Choosing BS-002 offers its promo only, not BS-001's printings.
    card.find_elements(By.CSS_SELECTOR, ".photo-choice")[1].click()
    printing = Select(card.find_element(By.NAME, "printing-1"))
    offered = [o.get_attribute("value") for o in printing.options if o.is_enabled()]
    assert (
        offered[0] == ""
        and offered[1:]
        and all(code.upper().startswith("ZP") for code in offered[1:])
    ), offered
    printing.select_by_value(offered[1])
    card.find_element(By.CSS_SELECTOR, "button.photo-add").click()
    browser_wait(browser, 15).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, ".photo-card.added"))
    )
    entry = CollectionEntry.objects.get(owner=alice)
    assert (entry.card_id, entry.printing.code) == ("BS-002", offered[1])
