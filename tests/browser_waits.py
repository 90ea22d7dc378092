"""Waits shared by the browser tests.

`browser_wait` is Selenium's WebDriverWait checked every 0.1 s instead of its default 0.5 s: a
page swapped in 50 ms would otherwise cost half a second, hundreds of times in a half played
by clicking.

`EC.staleness_of` only catches StaleElementReferenceException, but when a click replaces the
document Chromium may instead answer "Node with given id does not belong to the document" (a
plain WebDriverException) for the old element. `page_replaced` treats both as "gone" and then
waits for the new document to finish loading, so the next find reads the new page.
"""

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.wait import WebDriverWait

POLL_SECONDS = 0.1


def browser_wait(browser, timeout: float) -> WebDriverWait:
    """A WebDriverWait on `browser` for up to `timeout` seconds, checked every POLL_SECONDS."""
    return WebDriverWait(browser, timeout, poll_frequency=POLL_SECONDS)


def page_replaced(old):
    """An expected condition: `old` (an element of the previous page) is gone and the new
    document has loaded."""

    def condition(browser):
        try:
            old.is_enabled()
        except (StaleElementReferenceException, WebDriverException):
            return browser.execute_script("return document.readyState") == "complete"
        return False

    return condition


# Loaded, no htmx request in flight, and no response (page, script, htmx swap, image) for
# `quiet_ms`: what a page's deferred scripts, delayed htmx triggers and charts have settled by.
_SETTLED = """
const quietMs = arguments[0];
if (document.readyState !== "complete" || document.querySelector(".htmx-request")) return false;
const entries = performance.getEntriesByType("navigation")
  .concat(performance.getEntriesByType("resource"));
const last = Math.max(0, ...entries.map((e) => Math.max(e.responseEnd, e.loadEventEnd || 0)));
return performance.now() - last >= quietMs;
"""


def page_settled(quiet_ms: int = 500):
    """An expected condition: the page has loaded and the network has been quiet for
    `quiet_ms` (longer than the pages' htmx delays, so a delayed request has started)."""

    def condition(browser):
        return browser.execute_script(_SETTLED, quiet_ms)

    return condition
