"""Deck pages in headless Chromium: starring a deck, and the main pages in Japanese on a phone."""

import os

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from catalog.services import catalog_load
from decks.models import Deck, DeckStar
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAMPLE = "sample-cd00-kashima-antlers-2000"


def log_in(browser, live_server, wait, next_path: str):
    get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    browser.get(live_server.url + "/accounts/login/?next=" + next_path)
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)


def test_a_user_stars_a_deck_and_finds_it_in_their_stars(live_server, browser):
    catalog_load()
    wait = browser_wait(browser, 15)
    log_in(browser, live_server, wait, f"/decks/{SAMPLE}/")
    button = wait.until(EC.element_to_be_clickable((By.ID, "star-button")))
    assert button.get_attribute("aria-pressed") == "false"
    assert button.find_element(By.CLASS_NAME, "star-count").text == "0"
    button.click()
    # Read in one step: htmx swaps the button when the server answers.
    pressed = "return document.getElementById('star-button').getAttribute('aria-pressed')"
    wait.until(lambda b: b.execute_script(pressed) == "true")
    count = "return document.querySelector('#star-button .star-count').textContent"
    assert browser.execute_script(count) == "1"
    assert DeckStar.objects.filter(deck__slug=SAMPLE, user__username="alice").count() == 1
    browser.get(live_server.url + "/decks/starred/")
    links = browser.find_elements(By.CSS_SELECTOR, "table.deck-index td a")
    assert Deck.objects.get(slug=SAMPLE).name in [a.text for a in links]


def test_five_main_pages_in_japanese_at_phone_width(live_server, browser):
    catalog_load()
    wait = browser_wait(browser, 15)
    log_in(browser, live_server, wait, "/decks/")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "table.deck-index")))
    browser.add_cookie({"name": "django_language", "value": "ja"})
    browser.set_window_size(390, 844)
    out = os.environ.get("SCREENSHOT_DIR") or "/tmp/cardlab-screenshots"
    os.makedirs(out, exist_ok=True)
    pages = {
        "decks": ("/decks/", "公開デッキ"),
        "deck": (f"/decks/{SAMPLE}/", "ドロー確率"),
        "builder": ("/decks/new/", "カードを追加"),
        "cards": ("/cards/?q=team:kashima", "カード"),
        "play": ("/play/", "手動でプレイ"),
    }
    for name, (path, japanese) in pages.items():
        browser.get(live_server.url + path)
        wait.until(EC.presence_of_element_located((By.TAG_NAME, "footer")))
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ja"
        assert japanese in browser.find_element(By.TAG_NAME, "main").text, name
        # Nothing spills past the phone's width.
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400, (name, width)
        browser.save_screenshot(os.path.join(out, f"ja-phone-{name}.png"))
    # The chart caption sits above the draw-odds heading, not on it.
    browser.get(live_server.url + f"/decks/{SAMPLE}/")
    caption = browser.find_element(By.CSS_SELECTOR, ".chart-figure figcaption").rect
    heading = browser.find_element(By.CSS_SELECTOR, "#odds h2").rect
    assert caption["y"] + caption["height"] <= heading["y"]


def test_badges_and_headings_of_deck_tables_keep_to_one_line_in_japanese_on_a_phone(
    live_server, browser
):
    catalog_load()
    browser.get(live_server.url + "/decks/")
    browser.add_cookie({"name": "django_language", "value": "ja"})
    browser.set_window_size(390, 844)
    browser.get(live_server.url + "/decks/")
    browser_wait(browser, 15).until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "table.deck-index .badge"))
    )
    # Japanese may break between any two characters: a squeezed column stacked 適正 and
    # サンプルデッキ one character a line.
    broken = browser.execute_script(
        """
        const lines = (e) => {
            const range = document.createRange();
            range.selectNodeContents(e);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        };
        const cells = "table.deck-index .badge, table.deck-index th";
        return [...document.querySelectorAll(cells)]
            .filter((e) => lines(e) > 1)
            .map((e) => e.textContent.trim());
        """
    )
    assert broken == []


def test_the_owner_reads_every_catalogue_change_and_dismisses_them(
    live_server, browser, screenshot_dir
):
    import json

    from django.core.management import call_command

    from decks.services import deck_copy

    catalog_load()
    wait = browser_wait(browser, 15)
    log_in(browser, live_server, wait, "/decks/")
    alice = get_user_model().objects.get(username="alice")
    deck = deck_copy(deck=Deck.objects.get(slug=SAMPLE), owner=alice)
    held = sorted(e.card_id for e in deck.entries.all() if e.card_id.startswith("CD00"))
    assert len(held) >= 2
    for number, (card_id, shoot) in enumerate(zip(held[:2], (9, 4), strict=True)):
        from catalog.models import Card

        card = Card.objects.get(id=card_id)
        row = {
            "set": card.card_set_id,
            "number": card.number,
            "name": f"Real {number}",
            "kind": card.kind,
            "position": card.position,
            "person": card.person,
            "shoot": shoot,
            "keep": card.keep,
            "defense": card.defense,
        }
        path = os.path.join(screenshot_dir, f"real-{number}.json")
        with open(path, "w", encoding="utf-8") as out:
            json.dump([row], out)
        call_command("import_cards", path)
    browser.get(live_server.url + deck.get_absolute_url())
    notice = wait.until(EC.presence_of_element_located((By.ID, "catalog-notice")))
    items = notice.find_elements(By.CSS_SELECTOR, ".catalog-changes > li")
    assert len(items) == 2
    assert "Real 0" in items[0].text and "Real 1" in items[1].text
    browser.save_screenshot(os.path.join(screenshot_dir, "deck-catalog-notice.png"))
    browser.add_cookie({"name": "django_language", "value": "ja"})
    browser.set_window_size(390, 844)
    browser.get(live_server.url + deck.get_absolute_url())
    notice = wait.until(EC.presence_of_element_located((By.ID, "catalog-notice")))
    assert "実在のカード" in notice.text and "確認済みにする" in notice.text
    browser.save_screenshot(os.path.join(screenshot_dir, "deck-catalog-notice-ja-390.png"))
    notice.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(lambda b: not b.find_elements(By.ID, "catalog-notice"))  # htmx removed it
    browser.get(live_server.url + "/users/alice/")
    assert not browser.find_elements(By.ID, "changed-decks")
    browser.set_window_size(1280, 900)
    deck.refresh_from_db()
    assert deck.catalog_seen == deck.versions.order_by("-number").first().number
