"""Waits shared by the browser tests.

`EC.staleness_of` only catches StaleElementReferenceException, but when a click replaces the
document Chromium may instead answer "Node with given id does not belong to the document" (a
plain WebDriverException) for the old element. `page_replaced` treats both as "gone" and then
waits for the new document to finish loading, so the next find reads the new page.
"""

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException


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
