"""Two tabs edit one deck in headless Chromium: the later save is refused with both edits
shown, and merging keeps the first tab's bench card and description."""

import os

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from catalog.services import catalog_load
from decks.models import Deck
from decks.selectors import deck_content
from decks.services import deck_create
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EVENTS = "set:BS kind:event"


def test_a_second_tab_cannot_silently_discard_the_first_tabs_save(
    live_server, browser, screenshot_dir
):
    catalog_load()
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    sample = Deck.objects.filter(is_sample=True).order_by("slug").first()
    deck = deck_create(owner=alice, name="Two tabs", content=deck_content(sample))
    edit = f"{live_server.url}/decks/{deck.slug}/edit/"
    wait = browser_wait(browser, 20)

    browser.get(live_server.url + "/accounts/login/?next=/decks/")
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)
    wait.until(EC.url_contains("/decks/"))

    browser.get(edit)
    tab_one = browser.current_window_handle
    browser.switch_to.new_window("tab")
    tab_two = browser.current_window_handle
    browser.get(edit)
    wait.until(EC.presence_of_element_located((By.ID, "builder")))

    # Tab one: a bench card and a description, saved.
    browser.switch_to.window(tab_one)
    box = browser.find_element(By.ID, "card-query")
    box.send_keys(EVENTS)
    selector = f'#builder-results .results[data-query="{EVENTS}"] button[data-zone="bench"]'
    wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, selector)))
    bench_button = browser.find_element(By.CSS_SELECTOR, selector)
    bench_card = bench_button.get_attribute("data-card")
    bench_button.click()
    browser.find_element(By.NAME, "description").send_keys("Notes from tab one")
    browser.find_element(By.ID, "save-deck").click()
    wait.until(EC.url_to_be(f"{live_server.url}/decks/{deck.slug}/"))

    # Tab two, opened before that save: renames and saves.
    browser.switch_to.window(tab_two)
    name = browser.find_element(By.NAME, "name")
    name.clear()
    name.send_keys("Renamed in tab two")
    browser.find_element(By.ID, "save-deck").click()
    conflict = wait.until(EC.presence_of_element_located((By.ID, "save-conflict")))
    browser.save_screenshot(os.path.join(screenshot_dir, "deck-conflict-1280.png"))
    assert "Notes from tab one" in conflict.text
    assert bench_card in conflict.find_element(By.ID, "conflict-theirs").text
    deck.refresh_from_db()
    assert deck.name == "Two tabs" and deck.description == "Notes from tab one"

    # Merge, review, save: both tabs' changes are in the deck.
    browser.find_element(By.ID, "conflict-merge").click()
    wait.until(EC.invisibility_of_element_located((By.ID, "save-conflict")))
    assert browser.find_element(By.NAME, "name").get_attribute("value") == "Renamed in tab two"
    browser.find_element(By.ID, "save-deck").click()
    wait.until(EC.url_to_be(f"{live_server.url}/decks/{deck.slug}/"))
    deck.refresh_from_db()
    assert deck.name == "Renamed in tab two"
    assert deck.description == "Notes from tab one"
    assert deck_content(deck).bench.get(bench_card) == 1
