"""The set grid's scan reading, server side (issue #25 item 2): the grid offers "Read scans"
only with the reading tools and the set's accepted layout; otherwise one line says why, and
the grid is the same grid by hand. The reading itself, in Chromium:
test_browser_grid_reading.py."""

import pytest
from django.urls import reverse

from catalog.contributions.layouts import generated_regions
from catalog.contributions.views import grid_reading
from catalog.models import CardSet, SetLayout
from catalog.reading import tools
from catalog.services import catalog_load

pytestmark = pytest.mark.django_db

TESSERACT_MISSING = (
    "Scan reading is off: Tesseract is not installed (apt-get install tesseract-ocr "
    "tesseract-ocr-jpn); fill the grid by hand."
)


@pytest.fixture
def basic():
    catalog_load()
    return CardSet.objects.get(code="BS")


@pytest.fixture
def tools_here(monkeypatch):
    monkeypatch.setattr(tools, "missing_message", lambda: None)


@pytest.fixture
def layout(basic):
    return SetLayout.objects.create(
        card_set=basic, regions=generated_regions(basic), template="layouts/BS/template.png"
    )


def grid(client, code="BS"):
    response = client.get(reverse("catalog:set-grid", args=[code]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_grid_reads_scans_with_the_tools_and_the_sets_layout(alice_client, tools_here, layout):
    page = grid(alice_client)
    assert 'id="grid-reading"' in page
    assert "js/set_grid_reading.js" in page
    assert f'data-url="{reverse("catalog:reading-jobs")}"' in page
    columns = "name:name_ja reading:name_kana shoot:shoot keep:keep defense:defense"
    assert f'data-columns="{columns}"' in page
    basic = layout.card_set
    # a Read button in every row, shown by the page once the row has a scan
    assert page.count("data-read-row hidden") == basic.kinds_count
    assert 'id="grid-reading-off"' not in page


def test_the_reading_sends_no_more_at_once_than_a_user_may_have_waiting(
    alice_client, tools_here, layout, settings
):
    assert 'data-at-once="3"' in grid(alice_client)
    settings.READING_PENDING_MAX = 2
    assert 'data-at-once="2"' in grid(alice_client)


def test_without_a_layout_the_grid_links_to_marking_one(alice_client, tools_here, basic):
    page = grid(alice_client)
    assert 'id="grid-reading"' not in page and "data-read-row" not in page
    assert "set_grid_reading.js" not in page
    assert 'href="/sets/BS/layout/"' in page
    assert "mark where the fields are on one card of BS" in page
    assert 'id="set-grid"' in page  # the grid by hand is all there


def test_without_the_tools_the_grid_says_so_in_one_line(alice_client, monkeypatch, layout):
    monkeypatch.setattr(tools, "missing_message", lambda: TESSERACT_MISSING)
    page = grid(alice_client)
    assert 'id="grid-reading"' not in page and "data-read-row" not in page
    assert (
        '<p class="small notice" id="grid-reading-off">Scan reading is off: Tesseract is not '
        "installed (apt-get install tesseract-ocr tesseract-ocr-jpn); fill the grid by hand.</p>"
    ) in page
    assert "mark where the fields are" not in page  # the tools first: a layout would not help


def test_the_lines_are_in_japanese(alice_client, monkeypatch, basic, tools_here):
    alice_client.cookies["django_language"] = "ja"
    assert "最初に" in grid(alice_client)  # the layout line
    monkeypatch.setattr(tools, "missing_message", lambda: TESSERACT_MISSING)
    assert "手で入力してください" in grid(alice_client)


def test_the_layout_link_follows_the_layout_pages_url_name(basic, tools_here, monkeypatch):
    from catalog.contributions import views

    monkeypatch.setattr(views, "reverse", lambda name, args: f"/marked/{args[0]}/")
    assert grid_reading(basic) == {"on": False, "layout_url": "/marked/BS/"}
