"""Printing proposals and imported printings in headless Chromium, at 1280 px and 390 px, in
English and Japanese: an editor asks for changes on a proposal's page, the proposer edits it
on the edit page, the page's history says who did what; a changeset of another site's export
lists the printings it brings. No page scrolls sideways at 390 px.

Screenshots go to $SCREENSHOT_DIR (var/screenshots by default), for a person to look at."""

import json
import os

import pytest
from selenium.webdriver.common.by import By

from catalog.contributions.open_data import import_changeset
from catalog.contributions.printings import (
    printing_proposal_create,
)
from catalog.opendata_import import read_export
from catalog.services import catalog_load
from tests.catalog.contributions.test_browser_notes_import import (
    OVERFLOW,
    open_page,
    sign_in,
    user,
)
from tests.catalog.test_opendata_import import BY_HAND, checksummed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def catalogue(db):
    """The sets and the sample pool: a transactional test before this one may have emptied them."""
    catalog_load()


GOOD = {"set": "CD00", "number": "99", "kind": "promo", "label": "Shop promo", "source": "binder"}
JUDGE = "https://shop.example/promos/" + "BasicSet001" * 10


def shot(browser, screenshot_dir, name: str) -> None:
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(browser.get_window_size()["width"], min(max(height, 600), 2400))
    browser.save_screenshot(os.path.join(screenshot_dir, name))


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("width", [1280, 390])
def test_printing_review_pages_fit_and_speak_the_language(
    browser, live_server, screenshot_dir, width, language
):
    proposer, editor = user("pia"), user("ed", editor=True)
    proposal = printing_proposal_create(
        proposer=proposer, card_id="BS-001", data={**GOOD, "source": JUDGE}
    )
    sign_in(browser, live_server, editor, language)
    browser.set_window_size(width, 900)
    open_page(browser, live_server.url + "/cards/BS-001/")  # the editor's quick review there
    assert browser.find_element(By.CSS_SELECTOR, '#printing-proposals button[value="changes"]')
    assert browser.execute_script(OVERFLOW) <= 0
    browser.execute_script("document.getElementById('printing-proposals').scrollIntoView()")
    browser.save_screenshot(
        os.path.join(screenshot_dir, f"printing-card-editor-{width}-{language}.png")
    )
    open_page(browser, live_server.url + proposal.get_absolute_url())
    assert browser.find_element(By.ID, "review-form").is_displayed()
    assert browser.execute_script(OVERFLOW) <= 0
    shot(browser, screenshot_dir, f"printing-review-{width}-{language}.png")
    browser.set_window_size(width, 900)
    browser.find_element(By.NAME, "reason").send_keys("Which shop gave it?")
    browser.find_element(By.CSS_SELECTOR, 'button[value="changes"]').click()
    open_page(browser, live_server.url + proposal.get_absolute_url())
    status = browser.find_element(By.CSS_SELECTOR, "h1 .status").text
    assert status == ("修正依頼中" if language == "ja" else "Changes requested")

    sign_in(browser, live_server, proposer, language)
    open_page(browser, live_server.url + f"/printing-proposals/{proposal.pk}/edit/")
    assert browser.execute_script(OVERFLOW) <= 0
    shot(browser, screenshot_dir, f"printing-edit-{width}-{language}.png")
    browser.set_window_size(width, 900)
    label = browser.find_element(By.NAME, "label")
    label.clear()
    label.send_keys("Tokyo shop promo")
    browser.find_element(By.CSS_SELECTOR, "#printing-edit-form button[type=submit]").click()
    open_page(browser, live_server.url + proposal.get_absolute_url())
    events = [
        li.get_attribute("data-event")
        for li in browser.find_elements(By.CSS_SELECTOR, "#printing-history li")
    ]
    assert events == ["sent", "changes", "edited"]
    assert browser.execute_script(OVERFLOW) <= 0
    shot(browser, screenshot_dir, f"printing-history-{width}-{language}.png")

    browser.set_window_size(width, 900)
    open_page(browser, live_server.url + "/cards/BS-001/")
    assert browser.execute_script(OVERFLOW) <= 0
    browser.execute_script("document.getElementById('printing-proposals').scrollIntoView()")
    browser.save_screenshot(os.path.join(screenshot_dir, f"printing-card-{width}-{language}.png"))


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("width", [1280, 390])
def test_an_imported_changeset_lists_the_printings_it_brings(
    browser, live_server, screenshot_dir, width, language
):
    importer, editor = user("ivan", editor=True), user("rita", editor=True)
    document = json.loads(json.dumps(BY_HAND))
    document["version"] = 2
    first = {"kind": "first", "set": "BS", "number": 7, "code": "BS-007", "notes": ""}
    document["cards"][0]["printings"] = [
        {**first, "label": "First edition", "is_sample": False},
        {
            **first,
            "kind": "promo",
            "set": "CD00",
            "number": 98,
            "code": "CD00-098",
            "label": "Magazine promo",
            "notes": "Given with a magazine, 2002",
            "is_sample": False,
        },
        {**first, "kind": "foil", "code": "BS-007-foil", "label": "Holo", "is_sample": False},
    ]
    raw = json.dumps(checksummed(document)).encode()
    changeset = import_changeset(
        proposer=importer, export=read_export({"BS.json": raw}), instance="https://a.example/"
    )
    sign_in(browser, live_server, editor, language)
    browser.set_window_size(width, 900)
    open_page(browser, live_server.url + changeset.get_absolute_url())
    rows = browser.find_elements(By.CSS_SELECTOR, "table[data-printings] tr[data-printing]")
    assert [r.get_attribute("data-printing") for r in rows] == ["BS-007", "CD00-098", "BS-007-foil"]
    assert browser.execute_script(OVERFLOW) <= 0
    shot(browser, screenshot_dir, f"changeset-printings-{width}-{language}.png")
