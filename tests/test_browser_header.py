"""The site header in headless Chromium: one row of at most 56 px on a phone, on every kind of
page and in both languages, with the links in a menu that opens without JavaScript."""

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from catalog.services import catalog_load
from tests.browser_waits import browser_wait, page_replaced

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = ["/", "/cards/?q=team:kashima", "/decks/", "/play/", "/lab/touchdown/", "/no-such-page/"]
HEADER_HEIGHT = "return document.querySelector('.site-header').getBoundingClientRect().height"


def log_in(browser, live_server):
    get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")
    # Twice at most: in full PostgreSQL runs the sign-in has met a database session that
    # another test had just ended (the 503 page, "terminating connection due to administrator
    # command"); the header is what this module checks, so such a sign-in is tried again.
    for _ in range(2):
        browser.get(live_server.url + "/accounts/login/")
        field = browser.find_element(By.NAME, "username")
        field.send_keys("alice")
        browser.find_element(By.NAME, "password").send_keys("correct-horse-1", Keys.ENTER)
        browser_wait(browser, 15).until(page_replaced(field))
        if "Back in a moment" not in browser.find_element(By.TAG_NAME, "main").text:
            break
    signed_in = browser.find_elements(By.CSS_SELECTOR, "form[action='/accounts/logout/']")
    assert signed_in, "not signed in: " + browser.find_element(By.TAG_NAME, "main").text[:500]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_phone_header_is_one_row_and_its_menu_opens(live_server, browser, language):
    catalog_load()
    log_in(browser, live_server)  # signed in: the longest list of links
    browser.add_cookie({"name": "django_language", "value": language})
    browser.set_window_size(390, 844)
    wait = browser_wait(browser, 15)
    for path in PAGES:
        browser.get(live_server.url + path)
        wait.until(EC.presence_of_element_located((By.TAG_NAME, "footer")))
        assert browser.execute_script(HEADER_HEIGHT) <= 56, path
        links = browser.find_element(By.CSS_SELECTOR, ".site-header .nav-links")
        assert not links.is_displayed(), path
    browser.find_element(By.CSS_SELECTOR, ".nav-menu > summary").click()
    links = browser.find_element(By.CSS_SELECTOR, ".site-header .nav-links")
    assert links.is_displayed(), browser.find_element(By.TAG_NAME, "header").text
    found = browser.find_elements(By.CSS_SELECTOR, ".nav-links a[href='/collection/']")
    assert found, "no collection link in the menu: " + links.text  # signed in, as above
    collection = found[0]
    assert collection.is_displayed()
    collection.click()
    wait.until(page_replaced(collection))
    assert browser.current_url == live_server.url + "/collection/"
    assert browser.execute_script(HEADER_HEIGHT) <= 56


def test_the_wide_header_shows_its_links_in_the_row(live_server, browser):
    catalog_load()
    browser.get(live_server.url + "/")
    assert not browser.find_element(By.CSS_SELECTOR, ".nav-menu > summary").is_displayed()
    # Shown though the menu is closed (WebDriver's is_displayed rules out a closed <details>'s
    # content, so ask the page what is drawn at the link's centre).
    seen = """
        const link = document.querySelector(".nav-links a[href='/cards/']");
        const box = link.getBoundingClientRect();
        return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === link;
    """
    assert browser.execute_script(seen)
    assert browser.execute_script(HEADER_HEIGHT) <= 110  # one row of links, as before
    cards = browser.find_element(By.CSS_SELECTOR, ".nav-links a[href='/cards/']")
    cards.click()
    browser_wait(browser, 15).until(page_replaced(cards))
    assert browser.current_url == live_server.url + "/cards/"
