"""Errata, rulings and the open-data import in headless Chromium, as a demanding user meets
them: at 1280 px and 390 px wide, in English and Japanese. A collector proposes an erratum and
a ruling for a real card (after bad input each form names its field), an editor accepts them,
the card page shows them and `has:errata` finds the card; an editor uploads another site's
export at /data/import/ (a non-JSON file is refused clearly), reviews the changeset with its
marks and differences, accepts it, and the card changes. No page scrolls sideways at 390 px.

Screenshots go to $SCREENSHOT_DIR (var/screenshots by default), for a person to look at."""

import json
import os
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from catalog.models import Card, CardNoteProposal, Changeset, Erratum, Ruling
from catalog.services import catalog_load
from tests.browser_waits import browser_wait, page_replaced
from tests.catalog.test_opendata_import import BY_HAND, ERRATUM, checksummed
from tests.test_japanese_pages import _data_words, english_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARD = "BS-012"
OVERFLOW = "return document.documentElement.scrollWidth - window.innerWidth"
WIDTHS = (1280, 390)
# A long unbroken source, as a pasted address is: it must wrap, not push the page sideways.
JUDGE = "https://judges.example/answers/" + "BasicSet012" * 12 + "?q=end"


def user(name: str, editor: bool = False):
    users = get_user_model().objects
    person = users.create_user(name, f"{name}@example.com", "correct-horse-9")
    if editor:
        person.user_permissions.add(Permission.objects.get(codename="review_proposal"))
    return person


def sign_in(browser, live_server, person, language: str) -> None:
    """Sign in by the session cookie (the sign-in form has its own browser tests)."""
    client = Client()
    client.force_login(person)
    browser.delete_all_cookies()
    browser.get(live_server.url + "/robots.txt")
    browser.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value})
    browser.add_cookie({"name": "django_language", "value": language})


def open_page(browser, url: str):
    browser.get(url)
    return browser_wait(browser, 15).until(EC.presence_of_element_located((By.TAG_NAME, "footer")))


def submit(browser, selector: str) -> None:
    button = browser.find_element(By.CSS_SELECTOR, selector)
    button.click()
    browser_wait(browser, 15).until(page_replaced(button))


def look(browser, screenshot_dir: str, name: str, language: str, at: str = "") -> None:
    """At each width: a screenshot (scrolled to the element `at`, if given), and no horizontal
    scroll (the page fits a phone)."""
    for width in WIDTHS:
        browser.set_window_size(width, 900)
        if at:
            browser.execute_script("document.querySelector(arguments[0]).scrollIntoView()", at)
        browser.save_screenshot(os.path.join(screenshot_dir, f"{name}-{language}-{width}.png"))
        assert browser.execute_script(OVERFLOW) <= 0, f"{name} scrolls sideways at {width} px"
    browser.set_window_size(1280, 900)


def no_english(browser, language: str, *data: str) -> None:
    if language == "ja":
        allowed = _data_words() | set(data)
        assert english_in(browser.page_source, allowed) == []


def main_text(browser) -> str:
    return browser.find_element(By.TAG_NAME, "main").text


def fill(browser, values: dict[str, str]) -> None:
    for name, value in values.items():
        field = browser.find_element(By.NAME, name)
        field.clear()
        if len(value) > 200:  # typing 5,000 keys takes seconds: set it as a paste would
            browser.execute_script("arguments[0].value = arguments[1]", field, value)
        else:
            field.send_keys(value)


def errors_of(browser) -> dict[str, str]:
    return {
        e.get_attribute("data-field"): e.text
        for e in browser.find_elements(By.CSS_SELECTOR, "ul.errorlist[data-field]")
    }


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_erratum_and_a_ruling_from_proposal_to_the_card_page(
    live_server, browser, screenshot_dir, language
):
    catalog_load()
    Card.objects.filter(id=CARD).update(is_sample=False, source="my own card")
    alice, erin = user("alice"), user("erin", editor=True)
    base = live_server.url

    sign_in(browser, live_server, alice, language)
    open_page(browser, f"{base}/cards/{CARD}/notes/propose/?kind=erratum")
    submit(browser, "#note-form button[type=submit]")  # all empty
    errors = errors_of(browser)
    assert {"printed_text", "current_text", "source"} <= set(errors), errors
    look(browser, screenshot_dir, "erratum-empty", language)
    no_english(browser, language)
    fill(browser, {"printed_text": "x" * 5000, "current_text": "Draw 1 card.", "source": "FAQ"})
    submit(browser, "#note-form button[type=submit]")
    assert "printed_text" in errors_of(browser)
    look(browser, screenshot_dir, "erratum-too-long", language)
    fill(
        browser,
        {
            "printed_text": "Draw 2 cards.",
            "current_text": "Draw 1 card.",
            "source": "Publisher FAQ, 2002-05: https://publisher.example/" + "FAQ2002" * 20,
        },
    )
    submit(browser, "#note-form button[type=submit]")
    assert "/notes/" in browser.current_url and "Draw 1 card." in main_text(browser)
    look(browser, screenshot_dir, "erratum-sent", language)

    open_page(browser, f"{base}/cards/{CARD}/notes/propose/?kind=ruling")
    fill(browser, {"text": "It ends at the end of the phase.", "ruling_date": "2002-13-45"})
    fill(browser, {"source": JUDGE})
    submit(browser, "#note-form button[type=submit]")
    assert "2002-13-45" in errors_of(browser)["ruling_date"]  # not "use the form" alone
    look(browser, screenshot_dir, "ruling-bad-date", language)
    no_english(browser, language, "It ends at the end of the phase.", JUDGE)
    fill(browser, {"ruling_date": "2002-04-01"})
    submit(browser, "#note-form button[type=submit]")
    assert CardNoteProposal.objects.filter(status="pending").count() == 2

    sign_in(browser, live_server, erin, language)
    open_page(browser, f"{base}/review/")
    queue = main_text(browser)
    assert CARD in browser.find_element(By.ID, "note-queue").text
    with translation.override(language):  # it said so above the two notes waiting
        assert gettext("Nothing to review: every proposal has been answered.") not in queue
    look(browser, screenshot_dir, "review-queue-notes", language)
    for proposal in CardNoteProposal.objects.order_by("pk"):
        open_page(browser, f"{base}/notes/{proposal.pk}/")
        fields = browser.find_element(By.ID, "note-fields").text
        if proposal.kind == "erratum":
            assert "Draw 2 cards." in fields and "Draw 1 card." in fields
            no_english(browser, language, "Draw 2 cards.", "Draw 1 card.", "Publisher FAQ")
        else:
            assert "2002-04-01" in fields and "It ends at the end of the phase." in fields
            no_english(browser, language, "It ends at the end of the phase.", JUDGE)
            submit(browser, "#review-form button[value=reject]")  # with no reason
            assert browser.find_element(By.ID, "review-form").is_displayed()
            look(browser, screenshot_dir, "note-reject-no-reason", language)
            with translation.override(language):  # it said "reason:", the code's name
                assert gettext("Reason") + ":" in main_text(browser)
            no_english(browser, language, "It ends at the end of the phase.", JUDGE)
            assert CardNoteProposal.objects.get(pk=proposal.pk).status == "pending"
        look(browser, screenshot_dir, f"note-review-{proposal.kind}", language)
        submit(browser, "#review-form button[value=accept]")
    assert Erratum.objects.filter(card_id=CARD).count() == 1
    assert Ruling.objects.filter(card_id=CARD).count() == 1

    open_page(browser, f"{base}/cards/{CARD}/")
    errata = browser.find_element(By.ID, "errata").text
    assert "Draw 2 cards." in errata and "Draw 1 card." in errata and "Publisher FAQ" in errata
    rulings = browser.find_element(By.ID, "rulings").text
    assert "2002-04-01" in rulings and "It ends at the end of the phase." in rulings
    assert JUDGE in rulings
    look(browser, screenshot_dir, "card-notes", language, at="#errata")
    browser.set_window_size(390, 900)
    wrap = "const w = document.querySelector('#errata .table-wrap');"
    wrap += "return [w.scrollWidth, w.clientWidth]"
    scroll_width, client_width = browser.execute_script(wrap)
    assert scroll_width <= client_width, "the errata table scrolls sideways on a phone"
    browser.set_window_size(1280, 900)

    open_page(browser, f"{base}/cards/BS-013/notes/propose/?kind=ruling")  # a sample card
    assert browser.find_element(By.ID, "sample-card").is_displayed()
    assert not browser.find_elements(By.ID, "note-form")
    # Nothing asks for a ruling the page then refuses: no how-to, no "propose an erratum instead".
    assert not browser.find_elements(By.CSS_SELECTOR, "main a[href='?kind=erratum']")
    assert len(browser.find_elements(By.CSS_SELECTOR, "main p")) == 1
    look(browser, screenshot_dir, "sample-no-form", language)
    no_english(browser, language)

    open_page(browser, f"{base}/cards/?q=has:errata")
    results = main_text(browser)
    assert CARD in results or Card.objects.get(id=CARD).display_name in results
    look(browser, screenshot_dir, "search-has-errata", language, at="main")


# The export's own words (card data, the site, its licence), not the page's.
EXPORT_DATA = (
    "Hand Written",
    "手書き",
    "てがき",
    "hand.example",
    "CC-BY-SA-4.0",
    "Keep 3",
    "Keep 4",
    "official errata",
    "starter booklet p.3",
)


def export_bytes() -> bytes:
    document = json.loads(json.dumps(BY_HAND))
    document["cards"][0]["errata"] = [ERRATUM]
    return json.dumps(checksummed(document), ensure_ascii=False).encode()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_editor_imports_an_export_reviews_the_changeset_and_the_card_changes(
    live_server, browser, screenshot_dir, tmp_path, language
):
    catalog_load()
    erin, rita = user("erin", editor=True), user("rita", editor=True)
    base = live_server.url
    not_json = tmp_path / "BS.json"
    not_json.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 200)
    bomb = tmp_path / "data.zip"  # 60 MB of spaces in a zip of some 60 kB
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("sets/BS.json", b" " * 60_000_000)
    good = tmp_path / "export.json"
    good.write_bytes(export_bytes())

    sign_in(browser, live_server, erin, language)
    open_page(browser, f"{base}/data/import/")
    look(browser, screenshot_dir, "import-form", language)
    no_english(browser, language)
    browser.find_element(By.NAME, "export").send_keys(str(not_json))
    browser.find_element(By.NAME, "instance").send_keys("hand.example")
    submit(browser, "#open-data-import button[type=submit]")
    problems = browser.find_element(By.ID, "import-problems").text
    assert "BS.json" in problems
    look(browser, screenshot_dir, "import-not-json", language, at="#import-problems")
    no_english(browser, language, "hand.example")
    box = browser.find_element(By.ID, "import-problems")
    assert box.value_of_css_property("border-left-style") == "solid"  # shown as a problem
    browser.find_element(By.NAME, "export").send_keys(str(bomb))
    submit(browser, "#open-data-import button[type=submit]")
    problems = browser.find_element(By.ID, "import-problems").text
    assert "data.zip" in problems and "60,000,000" in problems and "10,000,000" in problems
    with translation.override(language):  # its unpacked size, said in the page's language
        assert (
            gettext("unpacks to %(size)s bytes (at most %(limit)s)")
            % {
                "size": "60,000,000",
                "limit": "10,000,000",
            }
            in problems
        )
    assert not Changeset.objects.exists()

    browser.find_element(By.NAME, "export").send_keys(str(good))
    instance = browser.find_element(By.NAME, "instance")
    assert instance.get_attribute("value") == "hand.example"  # kept after the refusal
    submit(browser, "#open-data-import button[type=submit]")
    changeset = Changeset.objects.get()
    assert browser.current_url.endswith(changeset.get_absolute_url())
    assert Card.objects.get(id="BS-007").is_sample  # nothing applied yet
    assert "hand.example" in browser.find_element(By.ID, "changeset-origin").text
    look(browser, screenshot_dir, "import-sent", language)
    no_english(browser, language, *EXPORT_DATA)

    sign_in(browser, live_server, rita, language)
    open_page(browser, base + changeset.get_absolute_url())
    origin = browser.find_element(By.ID, "changeset-origin").text
    assert "hand.example" in origin and "CC-BY-SA-4.0" in origin
    card = browser.find_element(By.ID, "card-BS-007")
    assert card.find_element(By.CSS_SELECTOR, "[data-mark=different]").is_displayed()
    name = card.find_element(By.CSS_SELECTOR, "tr[data-field=name]").text
    assert "Hand Written" in name
    assert "Keep 4" in card.find_element(By.CSS_SELECTOR, "[data-notes]").text
    look(browser, screenshot_dir, "import-changeset", language, at="#card-BS-007")
    no_english(browser, language, *EXPORT_DATA)
    submit(browser, "#changeset-review button[type=submit]")
    card = Card.objects.get(id="BS-007")
    assert (card.name, card.is_sample) == ("Hand Written", False)

    open_page(browser, f"{base}/cards/BS-007/")
    heading = browser.find_element(By.TAG_NAME, "h1").text
    assert ("手書き" if language == "ja" else "Hand Written") in heading
    assert "Keep 4" in browser.find_element(By.ID, "errata").text
    look(browser, screenshot_dir, "import-card-after", language, at="#errata")
    browser.set_window_size(390, 900)
    wrap = "const w = document.querySelector('#history .table-wrap');"
    wrap += "return [w.scrollWidth, w.clientWidth, w.innerText]"
    scroll_width, client_width, history = browser.execute_script(wrap)
    assert "hand.example" in history and "kenji" in history
    assert scroll_width <= client_width, "the imported revisions scroll sideways on a phone"
