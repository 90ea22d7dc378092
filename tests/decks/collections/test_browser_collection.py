"""A collector fills a set checklist with the keyboard alone in headless Chromium (#15): Tab to
the numbers, Enter and + add copies, the arrow keys move, - and Backspace remove, and the
completion bar, the count and the missing list follow every key."""

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from catalog.models import CardSet
from catalog.services import catalog_load
from decks.collections import selectors as sel
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def completion(browser) -> list:
    """Return the count text, the bar's value and the missing list, read in one step."""
    return browser.execute_script(
        "var box = document.querySelector('.completion');"
        "return [box.querySelector('[data-role=count]').textContent,"
        " box.querySelector('[data-role=bar]').value,"
        " document.querySelector('[data-role=missing]').textContent];"
    )


def focused(browser):
    return browser.switch_to.active_element


def press(browser, *keys):
    focused(browser).send_keys(*keys)


def quantity(button) -> str:
    return button.find_element(By.CSS_SELECTOR, '[data-role="qty"]').text


def test_adding_cards_from_a_set_checklist_with_the_keyboard(live_server, browser):
    catalog_load()
    alice = get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    total = CardSet.objects.get(code="BS").cards.count()
    wait = browser_wait(browser, 15)

    browser.get(live_server.url + "/accounts/login/?next=/collection/sets/BS/")
    browser.find_element(By.NAME, "username").send_keys("alice")
    browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".owned-checklist")))
    count, bar, missing = completion(browser)
    assert count == f"0 / {total}" and bar == 0 and missing.startswith("1, 2, 3")

    # Tab from the top of the page to the first number, as a keyboard user does.
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    for _ in range(60):
        if focused(browser).get_attribute("data-number") == "1":
            break
        press(browser, Keys.TAB)
    first = focused(browser)
    assert first.get_attribute("data-card") == "BS-001"

    press(browser, Keys.ENTER)
    wait.until(lambda b: completion(b)[0] == f"1 / {total}")
    assert completion(browser)[1] == 1 and quantity(first) == "1"
    assert not completion(browser)[2].startswith("1,")
    assert "owned" in first.get_attribute("class")

    # The arrow key moves to the next number; + adds there, twice.
    press(browser, Keys.ARROW_RIGHT)
    second = focused(browser)
    assert second.get_attribute("data-card") == "BS-002"
    press(browser, "+")
    press(browser, "+")
    wait.until(lambda b: quantity(second) == "2")
    assert completion(browser)[:2] == [f"2 / {total}", 2]
    assert focused(browser).get_attribute("aria-label").endswith(": 2")

    # - and Backspace take copies away; the card is missing again at 0.
    press(browser, "-")
    wait.until(lambda b: quantity(second) == "1")
    press(browser, Keys.BACKSPACE)
    wait.until(lambda b: completion(b)[0] == f"1 / {total}")
    assert quantity(second) == "0" and "owned" not in second.get_attribute("class")
    assert completion(browser)[1] == 1 and completion(browser)[2].startswith("2, 3")
    status = browser.find_element(By.CSS_SELECTOR, '[data-role="status"]')
    assert f"1 / {total}" in status.get_attribute("textContent")

    # Home goes back to the first number; End to the last.
    press(browser, Keys.END)
    assert focused(browser).get_attribute("data-number") == str(total)
    press(browser, Keys.HOME)
    assert focused(browser).get_attribute("data-card") == "BS-001"

    assert sel.owned_counts(alice) == {"BS-001": 1}
    browser.refresh()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".owned-checklist")))
    assert completion(browser)[:2] == [f"1 / {total}", 1]
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
