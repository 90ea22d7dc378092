"""A person plays a Touchdown Heroes seat to the end of a half, then opens the replay."""

import pytest
from django.urls import reverse
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.browser_waits import browser_wait, page_replaced

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_MOVES = 120


def click_and_wait(browser, element):
    """Click a button or link that loads a page, and wait for the new page."""
    old = browser.find_element(By.TAG_NAME, "html")
    element.click()
    browser_wait(browser, 20).until(page_replaced(old))


def test_a_person_plays_a_seat_to_the_end_of_a_half_and_opens_the_replay(browser, live_server):
    browser.get(live_server.url + reverse("play:td-play"))
    Select(browser.find_element(By.CSS_SELECTOR, "[name=seat]")).select_by_value("1")
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "[data-start]"))
    moves = 0
    while "Half 1" in browser.find_element(By.CSS_SELECTOR, ".td-scoreline").text:
        assert moves < MAX_MOVES, "the half did not end"
        shows = browser.find_elements(By.CSS_SELECTOR, "[data-show]")
        if shows:
            for box in browser.find_elements(By.CSS_SELECTOR, "input[name=cards]")[:3]:
                box.click()
            click_and_wait(browser, shows[0])
        else:
            click_and_wait(browser, browser.find_elements(By.CSS_SELECTOR, "[data-action]")[0])
        moves += 1
    events = browser.find_element(By.CSS_SELECTOR, ".td-events").text
    assert "End of half 1" in events
    assert "you" in browser.find_element(By.CSS_SELECTOR, ".td-seat-1").text
    assert "Half 2" in browser.find_element(By.CSS_SELECTOR, ".td-scoreline").text
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "[data-open-replay]"))
    assert "step 0 of" in browser.page_source
    click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "[data-next]"))
    assert "step 1 of" in browser.page_source
    assert len(browser.find_elements(By.CSS_SELECTOR, ".td-seat")) == 4
    assert browser.find_elements(By.CSS_SELECTOR, ".td-field .td-square")


def test_on_a_phone_your_hand_and_your_move_fit_the_first_screen(browser, live_server):
    import os

    browser.set_window_size(390, 844)
    try:
        browser.get(live_server.url + reverse("play:td-play"))
        Select(browser.find_element(By.CSS_SELECTOR, "[name=seat]")).select_by_value("2")
        click_and_wait(browser, browser.find_element(By.CSS_SELECTOR, "[data-start]"))
        height = browser.execute_script("return window.innerHeight")
        for selector in (".td-seat.td-me .td-hand", ".td-actions form button"):
            element = browser.find_element(By.CSS_SELECTOR, selector)
            bottom = browser.execute_script(
                "return arguments[0].getBoundingClientRect().bottom", element
            )
            assert 0 < bottom <= height, (selector, bottom, height)
        header = browser.find_element(By.CSS_SELECTOR, ".td-rules").text
        assert "=" not in header and "onside" in header.lower()  # the rules in words
        out = os.environ.get("SCREENSHOT_DIR") or os.path.join("var", "screenshots")
        os.makedirs(out, exist_ok=True)
        browser.save_screenshot(os.path.join(out, "td-play-390.png"))
    finally:
        browser.set_window_size(1280, 900)
