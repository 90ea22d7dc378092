"""A person starts a goldfish batch from a deck page in Chromium and watches it finish."""

import os

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from catalog.services import catalog_load
from decks.models import Deck
from play.models import SimulationBatch
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(browser, live_server, user):
    client = Client()
    client.force_login(user)
    browser.get(live_server.url + "/static/img/favicon.svg")
    browser.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "path": "/",
        }
    )


def test_a_goldfish_batch_runs_to_100_percent_and_shows_its_chart(
    live_server, browser, workers, screenshot_dir, settings
):
    catalog_load()
    settings.SIMULATION_CHUNK_SIZE = {"pk": 100, "goldfish": 15, "match": 15, "gauntlet": 15}
    user = get_user_model().objects.create_user("gina", password="pw-goldfish-1")
    deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
    workers.start()
    log_in(browser, live_server, user)
    browser.get(f"{live_server.url}{deck.get_absolute_url()}")
    browser.find_element(By.CSS_SELECTOR, "details.simulate summary").click()
    Select(browser.find_element(By.NAME, "kind")).select_by_value("goldfish")
    runs = browser.find_element(By.NAME, "runs")
    runs.clear()
    runs.send_keys("60")
    browser.find_element(By.CSS_SELECTOR, "form.simulate-form button[type=submit]").click()

    wait = browser_wait(browser, 120)
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#batch-progress progress")))
    wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "[data-percent]"), "100%"))
    chart = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "canvas[data-drawn='1']")))
    assert chart.size["height"] > 50
    batch = SimulationBatch.objects.get(owner=user)
    assert batch.status == "done"
    assert batch.results["runs"] == 60
    assert "60" in browser.find_element(By.CSS_SELECTOR, ".progress-text").text
    browser.save_screenshot(os.path.join(screenshot_dir, "simulation-results.png"))


def test_the_opponent_choice_follows_the_kind(live_server, browser):
    catalog_load()
    user = get_user_model().objects.create_user("olga", password="pw-opponent-1")
    deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
    log_in(browser, live_server, user)
    browser.get(f"{live_server.url}/simulations/new/?deck={deck.slug}")
    opponent = browser.find_element(By.NAME, "deck_b")
    empty = opponent.find_element(By.CSS_SELECTOR, "option[value='']")
    assert empty.text == "(default) a prebuilt deck"
    kind = Select(browser.find_element(By.NAME, "kind"))
    for value, words, required in [
        ("pk", "Choose a deck", True),
        ("match", "Choose a deck", True),
        ("gauntlet", "(not used) every prebuilt deck plays", False),
        ("goldfish", "(default) a prebuilt deck", False),
    ]:
        kind.select_by_value(value)
        assert empty.text == words, value
        assert browser.execute_script("return arguments[0].required", opponent) is required
    kind.select_by_value("pk")
    browser.find_element(By.CSS_SELECTOR, "form.simulate-form button[type=submit]").click()
    # The browser keeps the form: an opponent must be chosen first.
    assert browser.execute_script("return arguments[0].validity.valueMissing", opponent)
    assert SimulationBatch.objects.count() == 0


def test_the_runs_follow_the_kind_until_the_person_types_a_number(live_server, browser):
    from play.simulations import kinds

    catalog_load()
    user = get_user_model().objects.create_user("rune", password="pw-runs-1")
    deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
    log_in(browser, live_server, user)
    browser.get(f"{live_server.url}/simulations/new/?deck={deck.slug}&kind=halftime")
    runs = browser.find_element(By.NAME, "runs")
    kind = Select(browser.find_element(By.NAME, "kind"))
    assert runs.get_attribute("value") == str(kinds.get("halftime").default_runs)
    kind.select_by_value("gauntlet")
    assert runs.get_attribute("value") == str(kinds.get("gauntlet").default_runs)
    kind.select_by_value("halftime")
    assert runs.get_attribute("value") == str(kinds.get("halftime").default_runs)
    runs.clear()
    runs.send_keys("42")
    kind.select_by_value("goldfish")
    assert runs.get_attribute("value") == "42"  # typed: the person's own number stays
    kind.select_by_value("halftime")
    assert runs.get_attribute("value") == "42"
