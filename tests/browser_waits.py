"""Waits shared by the browser tests.

`browser_wait` is Selenium's WebDriverWait checked every 0.1 s instead of its default 0.5 s: a
page swapped in 50 ms would otherwise cost half a second, hundreds of times in a half played
by clicking.

`EC.staleness_of` only catches StaleElementReferenceException, but when a click replaces the
document Chromium may instead answer "Node with given id does not belong to the document" (a
plain WebDriverException) for the old element. `page_replaced` treats both as "gone" and then
waits for the new document to finish loading, so the next find reads the new page. It does not
poll for the swap: the browser watches the document (a MutationObserver) and answers as soon as
the old element leaves it, so a walk of a hundred htmx swaps does not lose half a poll interval
at each.
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
            gone = browser.execute_async_script(_DETACHED, old, DETACH_WATCH_MS)
        except (StaleElementReferenceException, WebDriverException):
            gone = True  # stale, or its document unloaded while the browser watched it
        return gone and browser.execute_script("return document.readyState") == "complete"

    return condition


# Answers true once `old` has left the document (at once if it has), false after `limitMs`:
# the wait then asks again, so its own timeout still holds (overrun by at most `limitMs`).
DETACH_WATCH_MS = 1000
_DETACHED = """
const old = arguments[0], limitMs = arguments[1], done = arguments[arguments.length - 1];
if (!old.isConnected) return done(true);
const observer = new MutationObserver(() => {
  if (old.isConnected) return;
  observer.disconnect();
  clearTimeout(timer);
  done(true);
});
const timer = setTimeout(() => { observer.disconnect(); done(false); }, limitMs);
observer.observe(old.ownerDocument, { childList: true, subtree: true });
"""


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
