"""Marking a set's layout in headless Chromium (issue #25, 1.): a collector chooses a synthetic
phone photo of a card, watches it being straightened, drags the card number's rectangle (with
the mouse at 1280 px in English, with a finger at 390 px in Japanese), sends it, and an editor
accepts it; the set's layout page then draws it. No page scrolls sideways at 390 px.

Screenshots go to $SCREENSHOT_DIR (var/screenshots by default), for a person to look at."""

import os
import shutil

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from catalog.reading import tools
from tests.browser_waits import browser_wait, page_replaced

MISSING = tools.missing_message()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
]

OVERFLOW = "return document.documentElement.scrollWidth - window.innerWidth"
WIDTHS = (1280, 390)
CENTRE = """const r = arguments[0].getBoundingClientRect();
return [r.left + r.width / 2, r.top + r.height / 2];"""


@pytest.fixture(scope="module")
def photo_path(tmp_path_factory):
    if shutil.which("chromium") is None:
        pytest.skip("headless chromium renders the synthetic faces (apt-get install chromium)")
    from catalog.reading import synthetic

    photo = synthetic.scans_and_photos(1, seed=3)[2][0]
    path = tmp_path_factory.mktemp("photo") / "card.jpg"
    path.write_bytes(photo)
    return str(path)


def person(name: str, *codenames: str):
    user = get_user_model().objects.create_user(name, f"{name}@example.com", "correct-horse-9")
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return user


def sign_in(browser, live_server, user, language: str) -> None:
    """Sign in by the session cookie (the sign-in form has its own browser tests)."""
    client = Client()
    client.force_login(user)
    browser.delete_all_cookies()
    browser.get(live_server.url + "/robots.txt")
    browser.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value})
    browser.add_cookie({"name": "django_language", "value": language})


def look(browser, screenshot_dir: str, name: str, language: str, at: str = "") -> None:
    """At each width: a screenshot (scrolled to `at`, if given), and no sideways scroll."""
    size = browser.get_window_size()
    for width in WIDTHS:
        browser.set_window_size(width, 900)
        if at:
            browser.execute_script("document.querySelector(arguments[0]).scrollIntoView()", at)
        browser.save_screenshot(
            os.path.join(screenshot_dir, f"layout-{name}-{language}-{width}.png")
        )
        assert browser.execute_script(OVERFLOW) <= 0, f"{name} scrolls sideways at {width} px"
    browser.set_window_size(size["width"], size["height"])


def drag(browser, element, dx: int, dy: int, finger: bool) -> None:
    """Drag the element by (dx, dy) CSS pixels, with the mouse or with a finger (touch)."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    if not finger:
        ActionChains(browser).click_and_hold(element).move_by_offset(
            dx // 2, dy // 2
        ).move_by_offset(dx - dx // 2, dy - dy // 2).release().perform()
        return
    x, y = (round(v) for v in browser.execute_script(CENTRE, element))
    actions = ActionBuilder(browser, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to_location(x, y).pointer_down()
    for step in range(1, 5):
        actions.pointer_action.move_to_location(x + dx * step // 4, y + dy * step // 4)
    actions.pointer_action.pointer_up()
    actions.perform()


def expected_failure(message: str) -> bool:
    """The sign-in's robots.txt (404) and the marked region outside the card (400)."""
    return "robots.txt" in message or ("/layout/mark/" in message and "status of 400" in message)


def send_form(browser, wait) -> None:
    send = browser.find_element(By.ID, "mark-send")
    browser.execute_script("arguments[0].scrollIntoView()", send)
    send.click()
    wait.until(page_replaced(send))


@pytest.mark.parametrize(("language", "width"), [("en", 1280), ("ja", 390)])
def test_a_collector_marks_a_layout_by_dragging_and_an_editor_accepts_it(
    live_server, browser, photo_path, screenshot_dir, settings, tmp_path, language, width
):
    from catalog.models import LayoutProposal, SetLayout
    from catalog.services import catalog_load

    settings.MEDIA_ROOT = str(tmp_path / "media")
    catalog_load()
    alice = person("alice")
    carol = person("carol", "review_proposal")
    wait = browser_wait(browser, 30)

    sign_in(browser, live_server, alice, language)
    browser.set_window_size(width, 900)
    browser.get(live_server.url + "/sets/BS/layout/")
    wait.until(EC.presence_of_element_located((By.ID, "layout-none")))
    look(browser, screenshot_dir, "none", language)
    browser.find_element(By.ID, "mark-button").click()
    wait.until(EC.presence_of_element_located((By.ID, "upload-form")))
    look(browser, screenshot_dir, "upload", language)
    browser.find_element(By.NAME, "photo").send_keys(photo_path)
    browser.find_element(By.ID, "upload-send").click()
    editor = wait.until(EC.presence_of_element_located((By.ID, "layout-editor")))
    assert "?job=" in browser.current_url
    assert not browser.find_elements(By.ID, "mark-problems")
    image = browser.find_element(By.CSS_SELECTOR, "#layout-editor image")
    loaded = "return fetch(arguments[0]).then(r => r.status)"
    assert browser.execute_script(loaded, image.get_attribute("href")) == 200

    left = browser.find_element(By.NAME, "number-left")
    top = browser.find_element(By.NAME, "number-top")
    before = float(left.get_attribute("value")), float(top.get_attribute("value"))
    number = editor.find_element(By.CSS_SELECTOR, 'g[data-region="number"] rect')
    card_width = browser.execute_script("return arguments[0].getBoundingClientRect().width", editor)
    drag(browser, number, 40, -30, finger=language == "ja")
    after = float(left.get_attribute("value")), float(top.get_attribute("value"))
    # The rectangle moved by the drag, in fractions of the card as it is drawn.
    assert after[0] - before[0] == pytest.approx(40 / card_width, abs=0.01)
    assert after[1] - before[1] == pytest.approx(-30 / (card_width * 1.4), abs=0.01)
    assert (
        browser.find_element(By.CSS_SELECTOR, 'fieldset[data-region="number"]')
        .get_attribute("class")
        .endswith("active")
    )
    look(browser, screenshot_dir, "mark", language, at="#layout-editor")

    # A region typed outside the card: the page names it and keeps what was marked.
    art_right = browser.find_element(By.NAME, "art-right")
    art_right.clear()
    art_right.send_keys("1.2")
    assert "invalid" in editor.find_element(By.CSS_SELECTOR, 'g[data-region="art"]').get_attribute(
        "class"
    )
    browser.find_element(By.NAME, "source").send_keys("my own copy")
    send_form(browser, wait)
    problems = browser.find_element(By.ID, "mark-problems").text
    assert ("Art: marked outside the card" if language == "en" else "イラスト: カードの外側") in (
        problems
    )
    assert not LayoutProposal.objects.exists()
    assert float(browser.find_element(By.NAME, "number-left").get_attribute("value")) == (
        pytest.approx(after[0], abs=1e-4)
    )
    look(browser, screenshot_dir, "problem", language)
    art_right = browser.find_element(By.NAME, "art-right")
    art_right.clear()
    art_right.send_keys("0.93")
    send_form(browser, wait)
    proposal = LayoutProposal.objects.get()
    assert browser.current_url.endswith(proposal.get_absolute_url())
    assert proposal.regions["number"][0] == pytest.approx(after[0], abs=1e-4)
    assert proposal.regions["number"][1] == pytest.approx(after[1], abs=1e-4)

    sign_in(browser, live_server, carol, language)
    browser.set_window_size(width, 900)
    browser.get(live_server.url + "/review/")
    browser.find_element(By.CSS_SELECTOR, "#layout-queue a").click()
    accept = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "button[value=accept]")))
    look(browser, screenshot_dir, "proposal", language)
    browser.execute_script("arguments[0].scrollIntoView()", accept)
    accept.click()
    wait.until(EC.presence_of_element_located((By.ID, "layout-version")))
    layout = SetLayout.objects.get(card_set_id="BS")
    assert layout.version == 1 and layout.regions["number"][0] == pytest.approx(after[0], abs=1e-4)
    assert browser.find_elements(
        By.CSS_SELECTOR, f'#layout-history a[href="/layouts/{proposal.pk}/"]'
    )
    look(browser, screenshot_dir, "accepted", language)
    errors = [
        entry
        for entry in browser.get_log("browser")
        if entry["level"] == "SEVERE" and not expected_failure(entry["message"])
    ]
    assert not errors, errors
