"""DRF's browsable API (cardsite/web/browsable_api.py): in development its pages load under the
CSP, which allows them style attributes and nothing more; with DEBUG off it is off, and the API
answers browsers with JSON."""

import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings

pytestmark = pytest.mark.django_db

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def directives(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part for part in (p.strip() for p in policy.split(";")) if part}


def test_the_browsable_api_allows_style_attributes_and_nothing_more(alice_client):
    page = alice_client.get("/api/decks/", HTTP_ACCEPT=BROWSER_ACCEPT)
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert 'style="' in page.content.decode()  # what the relaxation is for
    policy = directives(page)
    assert policy["style-src-attr"] == "style-src-attr 'unsafe-inline'"
    assert "unsafe-inline" not in policy["script-src"] + policy["style-src"]


def test_the_sites_pages_keep_the_strict_policy(alice_client):
    assert "style-src-attr" not in directives(alice_client.get("/decks/"))
    assert "style-src-attr" not in directives(alice_client.get("/api/decks/?format=json"))


def test_with_debug_off_the_api_answers_browsers_with_json():
    code = (
        "import django; django.setup()\n"
        "from rest_framework.views import APIView\n"
        "print([c.__name__ for c in APIView.renderer_classes])\n"
    )
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardsite.settings",
        "DEBUG": "0",
        "SECRET_KEY": "test-only-key-for-a-production-settings-import",
    }
    environment.pop("API_BROWSABLE", None)
    result = subprocess.run(
        [sys.executable, "-c", code],
        env=environment,
        capture_output=True,
        text=True,
        cwd=django_settings.BASE_DIR,
        check=True,
    )
    assert result.stdout.strip() == "['JSONRenderer']"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_chromium_shows_no_csp_violation_on_the_browsable_api(live_server, browser):
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create_user("bea", password="pw-browse-1")
    client = Client()
    client.force_login(user)
    browser.get(live_server.url + "/api/")
    browser.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value})
    for path in ("/api/decks/", "/api/cards/?q=id:BS-014", "/api/simulations/"):
        browser.get(live_server.url + path)
        assert "Django REST framework" in browser.page_source
        problems = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert problems == [], path  # no CSP violation, no script error
