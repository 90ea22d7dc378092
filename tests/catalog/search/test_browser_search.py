"""A person searches the catalog in headless Chromium and reads the results page."""

import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from catalog.models import Card
from catalog.services import catalog_load
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_searching_in_the_browser_shows_matching_cards(live_server, browser, screenshot_dir):
    catalog_load()
    browser.get(live_server.url + "/cards/")
    box = browser.find_element(By.NAME, "q")
    box.send_keys("pos:FW shoot>=8 order:-shoot", Keys.ENTER)
    wait = browser_wait(browser, 10)
    count = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#results .result-count")))
    expected = Card.objects.filter(position="FW", shoot__gte=8).count()
    assert count.text.startswith(f"{expected} cards")
    rows = browser.find_elements(By.CSS_SELECTOR, "#results table.cards tbody tr")
    assert len(rows) == min(expected, 60)
    shoots = [int(r.find_elements(By.CSS_SELECTOR, "td.num")[0].text) for r in rows]
    assert shoots == sorted(shoots, reverse=True) and min(shoots) >= 8
    assert all(r.find_element(By.CSS_SELECTOR, ".kind").text == "FW" for r in rows)
    assert all(r.find_elements(By.CSS_SELECTOR, ".badge.sample") for r in rows)
    assert "q=pos%3AFW" in browser.current_url  # htmx pushed the query into the address bar
    browser.save_screenshot(os.path.join(screenshot_dir, "search-results.png"))

    box = browser.find_element(By.NAME, "q")
    box.clear()
    box.send_keys("(pos:FW", Keys.ENTER)
    error = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#results .error")))
    assert "column" in error.text


def _visible_cells(browser, selector: str) -> int:
    return browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])]"
        ".filter(e => e.offsetParent !== null).length",
        selector,
    )


def test_on_a_phone_every_header_sits_over_its_column(live_server, browser, screenshot_dir):
    catalog_load()
    browser.set_window_size(390, 900)
    browser.get(live_server.url + "/sets/BS/")
    headers = _visible_cells(browser, "table.cards thead th")
    first_row = _visible_cells(browser, "table.cards tbody tr:first-child td")
    assert headers == first_row == 6  # the Team column is hidden, header and cells alike
    browser.save_screenshot(os.path.join(screenshot_dir, "set-table-phone.png"))


def test_the_grid_of_card_faces_is_remembered_and_the_faces_load(
    live_server, browser, screenshot_dir
):
    catalog_load()
    browser.get(live_server.url + "/cards/?q=set:BS")
    browser.find_element(By.LINK_TEXT, "Card faces").click()
    wait = browser_wait(browser, 10)
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, ".card-grid img.card-face")))
    browser.get(live_server.url + "/sets/JP/")  # the choice holds on another page
    faces = browser.find_elements(By.CSS_SELECTOR, ".card-grid img.card-face")
    assert len(faces) == Card.objects.filter(card_set="JP").count()
    wait.until(
        lambda b: b.execute_script(
            "const i = document.querySelector('.card-grid img'); return i.complete && "
            "i.naturalWidth > 0"
        )
    )
    browser.save_screenshot(os.path.join(screenshot_dir, "set-grid.png"))


def _visible_columns(browser, row_selector: str) -> int:
    """Return how many table columns the visible cells of a row cover (colspans counted)."""
    return browser.execute_script(
        "const row = document.querySelector(arguments[0]);"
        "return [...row.cells].filter(c => c.offsetParent !== null)"
        ".reduce((n, c) => n + c.colSpan, 0);",
        row_selector,
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_an_event_effect_has_its_own_readable_cell_under_the_headers(
    live_server, browser, screenshot_dir, width
):
    catalog_load()
    event = Card.objects.filter(card_set="BS", kind="event").order_by("number").first()
    browser.set_window_size(width, 900)
    browser.get(live_server.url + f"/cards/?q=set:BS number>={event.number - 1}&view=table")
    headers = _visible_cells(browser, "table.cards thead th")
    player_row = "table.cards tbody tr:first-child"
    event_row = "table.cards tbody tr:nth-child(2)"
    assert _visible_columns(browser, player_row) == headers
    assert _visible_columns(browser, event_row) == headers
    effect = browser.execute_script(
        "const c = [...document.querySelector(arguments[0]).cells]"
        ".filter(c => c.offsetParent !== null && c.classList.contains('effect'));"
        "return c.map(e => [e.innerText, e.getBoundingClientRect().width]);",
        event_row,
    )
    assert len(effect) == 1
    text, cell_width = effect[0]
    assert "this play phase" in text or "Draw" in text
    # Wider than the three stat columns it once was squeezed into.
    stats = browser.execute_script(
        "return [...document.querySelectorAll('table.cards thead th.num')]"
        ".reduce((w, th) => w + th.getBoundingClientRect().width, 0);"
    )
    assert cell_width > stats
    browser.save_screenshot(os.path.join(screenshot_dir, f"event-row-{width}.png"))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_search_examples_fit_their_boxes_on_a_phone(live_server, browser, language):
    catalog_load()
    browser.get(live_server.url + "/")
    browser.add_cookie({"name": "django_language", "value": language})
    browser.set_window_size(390, 844)
    room = """
        const box = document.querySelector("main input[type=search][name=q]");
        const style = getComputedStyle(box);
        const pen = document.createElement("canvas").getContext("2d");
        pen.font = style.font;
        const inside = box.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight);
        return [box.placeholder, pen.measureText(box.placeholder).width, inside];
    """
    for path in ("/", "/cards/"):
        browser.get(live_server.url + path)
        placeholder, width, inside = browser.execute_script(room)
        assert placeholder and width <= inside, (path, placeholder, width, inside)
