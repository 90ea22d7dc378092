"""The 503 page of a database outage in headless Chromium: styled in the site's layout on a
390 px phone, in English and Japanese, with nothing cut off and nothing the CSP refuses."""

import os

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from tests.browser_waits import browser_wait

pytestmark = pytest.mark.browser

HEADINGS = {"en": "Back in a moment", "ja": "しばらくお待ちください"}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_outage_page_on_a_phone(live_server, browser, screenshot_dir, monkeypatch, language):
    # The server's session lookup (the authentication middleware's user) finds the database gone.
    def refuse(self):
        raise OperationalError("connection refused")

    monkeypatch.setattr(SessionStore, "_get_session_from_db", refuse)
    browser.get(live_server.url + "/api/ping/")  # on the site, so its cookies can be set
    browser.add_cookie({"name": "sessionid", "value": "a-signed-in-visitor"})
    browser.add_cookie({"name": "django_language", "value": language})
    browser.set_window_size(390, 844)
    browser.get(live_server.url + "/decks/")
    heading = browser_wait(browser, 15).until(
        EC.visibility_of_element_located((By.CSS_SELECTOR, ".error-page h1"))
    )
    assert heading.text == HEADINGS[language]
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
    # Styled: the site's header is one row, as on every page; nothing wider than the phone.
    header = browser.execute_script(
        "return document.querySelector('.site-header').getBoundingClientRect().height"
    )
    assert 0 < header <= 56
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"
    )
    back = browser.find_element(By.CSS_SELECTOR, ".error-page a[href='/']")
    assert back.is_displayed()
    refused = [
        entry["message"]
        for entry in browser.get_log("browser")
        if "Content Security Policy" in entry["message"] or "Uncaught" in entry["message"]
    ]
    assert refused == []
    browser.save_screenshot(os.path.join(screenshot_dir, f"db503-{language}.png"))
