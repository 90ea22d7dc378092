"""The deck doctor in headless Chromium (issue #29): "A browser walk runs the doctor on a sample
deck at 1280 and 390 px, in both languages."

Signed in with a legal copy of a prebuilt deck that has a bench, a person starts a card report
from the deck page's Simulate form, reads it, presses "Halftime and bench advice" and reads
that; opens swap suggestions and applies one to a copy of the deck; starts a matchup matrix
from the form and reads it. Every results page is looked at 1280 and 390 px wide: its tables
are there, shown (a folded one unfolded) and hold rows; the page never scrolls sideways; at
1280 px no table scrolls inside its box; no heading is squeezed to a word (in Japanese a
character) a line; and in Japanese no English is left (tests/test_japanese_pages.py's nets).
What a person would find wrong is gathered and asserted at the end, so one run lists it all.
In English the card report is started (and the swap applied) at 1280 px, in Japanese at 390
px; the matrix is started at the other width.

Chunks run in this process (services.chunk_run, as workers would) with tiny runs; nothing is
published. The swap suggestions batch is made through the service with two candidates: the
Simulate form narrows the cards taken out, not the cards brought in (the API's study.in), and
one card out against the catalogue is about 150 swaps; its confirmation plays 60 pairs a
candidate instead of the thousands its power needs (the walk reads pages, not power).
Screenshots go to the system's temporary folder (doctor-walk/), for a person to look at.
"""

import os
import tempfile
from unittest.mock import patch

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from catalog.services import catalog_load
from decks.models import Deck
from play.models import SimulationBatch
from play.simulations import services
from play.simulations import swaps as swap_maths
from play.simulations.sides import prebuilt_decks
from tests.browser_waits import browser_wait, page_replaced
from tests.play.simulations.inline import run_all

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BENCHED = "Júbilo Iwata 2001"  # a prebuilt deck with a bench: halftime advice has swaps to try
WIDTHS = (1280, 390)
OVERFLOW = "return document.documentElement.scrollWidth - window.innerWidth"
SHOTS = os.path.join(tempfile.gettempdir(), "doctor-walk")
# A table's header cell squeezed into a column a word or two wide: taller than four lines.
SQUEEZED = """
const lines = (th) => {
  const range = document.createRange();
  range.selectNodeContents(th);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
};
return [...arguments[0].querySelectorAll("thead th")]
  .filter((th) => th.offsetParent !== null && th.textContent.trim())
  .map((th) => [th.textContent.trim(), lines(th)])
  .filter(([text, n]) => n > 4);
"""


def said(language: str, text: str) -> str:
    """Return an English UI text as a person reading `language` sees it."""
    with translation.override(language):
        return gettext(text)


@pytest.fixture
def walk(live_server, browser):
    """A person signed in with a legal copy of a benched prebuilt deck; nothing is queued."""
    from decks.services import deck_copy

    catalog_load()
    user = get_user_model().objects.create_user("dora", password="pw-doctor-1")
    deck = deck_copy(deck=prebuilt_decks().get(name=BENCHED), owner=user)
    assert deck.is_legal and deck.versions.get().content["bench"]
    client = Client()
    client.force_login(user)
    browser.get(live_server.url + "/robots.txt")
    browser.add_cookie(
        {
            "name": settings.SESSION_COOKIE_NAME,
            "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        }
    )
    os.makedirs(SHOTS, exist_ok=True)
    short = lambda n, up, down, *, family: (60, 0.3, swap_maths.WORTH)  # noqa: E731
    with (
        patch("play.simulations.services.queue_chunks"),
        patch.object(swap_maths, "confirmation_pairs", short),
    ):
        yield user, deck


def start_from_the_form(browser, live_server, deck, kind: str, width: int) -> SimulationBatch:
    """Start a batch of `kind` with 2 runs from the deck page's Simulate form; run its chunks."""
    browser.set_window_size(width, 900)
    browser.get(live_server.url + deck.get_absolute_url())
    browser.find_element(By.CSS_SELECTOR, "details.simulate summary").click()
    Select(browser.find_element(By.NAME, "kind")).select_by_value(kind)
    runs = browser.find_element(By.NAME, "runs")
    runs.clear()
    runs.send_keys("2")
    button = browser.find_element(By.CSS_SELECTOR, "form.simulate-form button[type=submit]")
    button.click()
    browser_wait(browser, 15).until(page_replaced(button))
    batch = SimulationBatch.objects.get(kind=kind)
    assert browser.current_url.endswith(batch.get_absolute_url()), browser.current_url
    assert batch.runs == 2
    return run_all(batch)


def read(browser, batch, language: str, name: str, tables: list[str], problems: list) -> None:
    """At each width: the finished page shows its tables; what a person would find wrong (a
    sideways scroll, a header cell squeezed, English in Japanese) goes to `problems`, so one
    run lists every page's."""
    assert batch.status == "done", (batch.kind, batch.status, batch.error)
    for width in WIDTHS:
        browser.set_window_size(width, 900)
        browser.get(browser.current_url.split("#")[0])
        wait = browser_wait(browser, 10)
        for table in tables:
            element = wait.until(EC.presence_of_element_located((By.ID, table)))
            for folded in element.find_elements(By.XPATH, "ancestor::details[not(@open)]"):
                folded.find_element(By.TAG_NAME, "summary").click()  # a person unfolds it
            assert element.is_displayed(), (name, table, width)
            rows = element.find_elements(By.CSS_SELECTOR, "tbody tr")
            assert rows and rows[0].text.strip(), (name, table, width)
            browser.execute_script("arguments[0].scrollIntoView()", element)
            browser.save_screenshot(os.path.join(SHOTS, f"{name}-{table}-{language}-{width}.png"))
            inner = "return arguments[0].scrollWidth - arguments[0].clientWidth"
            if (
                width > 1000
                and browser.execute_script(inner, element.find_element(By.XPATH, "..")) > 0
            ):
                problems.append(f"{name} {width} px: #{table} scrolls sideways in its box")
            squeezed = browser.execute_script(SQUEEZED, element)
            if squeezed:
                problems.append(f"{name} {width} px: #{table}'s headings squeezed: {squeezed}")
        assert browser.execute_script("return window.innerWidth") == width
        if browser.execute_script(OVERFLOW) > 0:
            problems.append(f"{name} scrolls sideways at {width} px")
    if language == "ja":
        from tests.test_japanese_pages import _data_words, english_in

        left = english_in(browser.page_source, _data_words())
        if left:
            problems.append(f"{name}: English in Japanese: {left}")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_doctor_walk(walk, live_server, browser, language):
    user, deck = walk
    browser.add_cookie({"name": "django_language", "value": language})
    form_width, other_width = WIDTHS if language == "en" else WIDTHS[::-1]
    before = deck.versions.get().content
    problems: list[str] = []

    # The card report, from the deck page's form.
    report = start_from_the_form(browser, live_server, deck, "cards", form_width)
    read(browser, report, language, "cards", ["card-report"], problems)
    assert len(report.results["cards"]) == len(set(report.sides[0]["cards"]))

    # Halftime and bench advice, from the report's own button: the report's very matches.
    button = browser.find_element(
        By.CSS_SELECTOR, f"form[action='/simulations/{report.pk}/halftime/'] button"
    )
    assert button.text == said(language, "Halftime and bench advice")
    button.click()
    browser_wait(browser, 15).until(page_replaced(button))
    halftime = run_all(SimulationBatch.objects.get(kind="halftime"))
    assert browser.current_url.endswith(halftime.get_absolute_url())
    assert halftime.params["report"] == report.pk
    read(
        browser,
        halftime,
        language,
        "halftime",
        ["bench-advice", "out-advice", "halftime-swaps"],
        problems,
    )

    # Swap suggestions: two candidates (the form cannot narrow them), 2 runs.
    out = min(report.sides[0]["cards"])
    swaps = services.batch_create(
        owner=user,
        request=services.BatchRequest(
            kind="swaps",
            deck_a=deck,
            runs=2,
            seed=3,
            study={"out": [out], "in": ["02-171", "02-183"]},
        ),
    )
    swaps = run_all(swaps)
    browser.get(live_server.url + swaps.get_absolute_url())
    read(browser, swaps, language, "swaps", ["swap-suggestions"], problems)
    first = swaps.results["swaps"][0]
    if browser.get_window_size()["width"] != form_width:  # applied where the forms were used
        browser.set_window_size(form_width, 900)
        browser.refresh()
    apply = browser.find_element(By.CSS_SELECTOR, "#swap-suggestions tbody tr form button")
    assert apply.text == said(language, "Apply to a copy of my deck")
    assert apply.is_displayed()
    apply.click()
    browser_wait(browser, 15).until(page_replaced(apply))
    copy = Deck.objects.exclude(pk=deck.pk).get(owner=user)
    assert browser.current_url.endswith(copy.get_absolute_url()), browser.current_url
    assert copy.copied_from == deck and copy.is_legal
    content = copy.versions.get().content
    assert content["deck"][first["in"]] == before["deck"].get(first["in"], 0) + 1
    assert content["deck"].get(first["out"], 0) == before["deck"][first["out"]] - 1
    assert deck.versions.get().content == before  # the person's own deck is untouched
    message = browser.find_element(By.CSS_SELECTOR, ".messages .message.success").text
    assert message == said(language, "A new deck was made with the swap; your deck is unchanged.")

    # The matchup matrix, from the form at the other width.
    matrix = start_from_the_form(browser, live_server, deck, "matrix", other_width)
    read(browser, matrix, language, "matrix", ["matchup-matrix", "best-responses"], problems)
    assert len(matrix.results["decks"]) == prebuilt_decks().count() + 1
    assert problems == [], problems
