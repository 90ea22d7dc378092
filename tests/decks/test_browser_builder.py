"""A person builds a legal deck from an empty one in headless Chromium: search, click, watch
the counters reach 60/60 and 10/10, pick the goalkeeper by keyboard, save."""

import os

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from catalog.services import catalog_load
from decks.models import Deck
from decks.selectors import deck_content, deck_problems_now
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = "set:BS team:urawa kind:player"
KEEPER = "set:BS team:urawa kind:goalkeeper"


def read(browser, selector: str, prop: str = "textContent") -> str:
    """Return an element's property, read in one step (an htmx swap can replace it between a
    find and a read, which Selenium reports as a stale element)."""
    return browser.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? String(e[arguments[1]]) : null",
        selector,
        prop,
    )


def counter(browser, name: str) -> str:
    """Return a counter's text, read in one step (htmx swaps the counters on every change)."""
    return browser.execute_script(
        "return document.querySelector(arguments[0]).textContent.trim()",
        f'[data-counter="{name}"] strong',
    )


def search(browser, wait, query: str):
    box = browser.find_element(By.ID, "card-query")
    box.clear()
    box.send_keys(query)
    wait.until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, f'#builder-results .results[data-query="{query}"] .result')
        )
    )
    return box


def test_building_a_legal_deck_from_scratch_in_the_browser(live_server, browser, screenshot_dir):
    catalog_load()
    get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    wait = browser_wait(browser, 15)

    browser.get(live_server.url + "/accounts/login/?next=/decks/new/")
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)
    wait.until(EC.presence_of_element_located((By.ID, "builder")))
    assert counter(browser, "cards") == "0/60" and counter(browser, "persons") == "0/10"
    browser.find_element(By.NAME, "name").send_keys("Reds from scratch")

    search(browser, wait, PLAYERS)
    buttons = browser.find_elements(
        By.CSS_SELECTOR, '#builder-results button.primary-action[data-zone="deck"]'
    )
    assert len(buttons) == 12
    for button in buttons[:10]:
        for _ in range(6):
            button.click()
    wait.until(lambda b: counter(b, "cards") == "60/60")
    wait.until(lambda b: counter(b, "persons") == "10/10")
    wait.until(lambda b: "bad" in read(b, '[data-counter="goalkeeper"]', "className"))
    wait.until(lambda b: "R-DECK-4" in read(b, "#builder-problems"))

    # The keyboard: a query and Enter make the first result (the club's keeper) the goalkeeper.
    box = search(browser, wait, KEEPER)
    box.send_keys(Keys.ENTER)
    wait.until(lambda b: counter(b, "goalkeeper") == "✓")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#builder-counters .badge.legal")))
    wait.until(lambda b: "No problems" in read(b, "#builder-problems"))
    assert read(browser, "#goalkeeper-picker", "value") == "BS-053"
    assert read(browser, "#dirty-note", "hidden") == "false"
    browser.save_screenshot(os.path.join(screenshot_dir, "deck-builder.png"))

    browser.set_window_size(390, 844)
    browser.save_screenshot(os.path.join(screenshot_dir, "deck-builder-phone.png"))
    browser.set_window_size(1280, 900)

    browser.find_element(By.ID, "save-deck").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".deck-head .badge.legal")))
    deck = Deck.objects.get(owner__username="alice")
    assert deck.name == "Reds from scratch" and deck.is_legal
    assert sum(deck_content(deck).deck.values()) == 60 and deck_problems_now(deck) == []
    assert deck.versions.count() == 1
    assert browser.current_url.endswith(deck.get_absolute_url())
    browser.save_screenshot(os.path.join(screenshot_dir, "deck-page.png"))


class Actions:
    """Count what a person does: each key press, typed string or click is one action."""

    def __init__(self, browser):
        self.browser, self.count = browser, 0

    def type(self, text_or_key):
        self.count += 1
        self.browser.switch_to.active_element.send_keys(text_or_key)

    def click(self, element):
        self.count += 1
        element.click()


def test_a_legal_deck_is_built_with_the_keyboard_in_at_most_30_actions(live_server, browser):
    catalog_load()
    get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    wait = browser_wait(browser, 15)
    browser.get(live_server.url + "/accounts/login/?next=/decks/new/")
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)
    wait.until(EC.presence_of_element_located((By.ID, "builder")))
    you = Actions(browser)

    browser.find_element(By.NAME, "name").click()
    you.type("Reds by keys")
    you.click(browser.find_element(By.ID, "card-query"))
    you.type(PLAYERS)
    wait.until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, f'#builder-results .results[data-query="{PLAYERS}"] .result')
        )
    )
    you.type(Keys.ARROW_DOWN)
    for row in range(10):
        you.type("6")  # six copies of the focused result
        shown = f"#builder-results li.result:nth-of-type({row + 1}) [data-in-draft]"
        if row < 9:
            you.type(Keys.ARROW_DOWN)
    # The counter moves before the server answers, then the server confirms it.
    wait.until(lambda b: counter(b, "cards") == "60/60")
    wait.until(lambda b: counter(b, "persons") == "10/10")
    assert browser.find_element(By.CSS_SELECTOR, shown).text
    you.type("/")  # back to the search box, its text selected
    you.type(KEEPER)
    wait.until(
        EC.presence_of_element_located(
            (By.CSS_SELECTOR, f'#builder-results .results[data-query="{KEEPER}"] .result')
        )
    )
    you.type(Keys.ENTER)  # the first result, the club's keeper, becomes the goalkeeper
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#builder-counters .badge.legal")))
    you.click(browser.find_element(By.ID, "save-deck"))
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".deck-head .badge.legal")))
    deck = Deck.objects.get(owner__username="alice")
    assert deck.name == "Reds by keys" and deck.is_legal
    assert sum(deck_content(deck).deck.values()) == 60
    assert you.count <= 30, you.count
