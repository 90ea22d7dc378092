"""The one pager (templates/_pager.html): the card search and the public deck index both
paginate with it, keep their filters in its links, and show nothing on a single page."""

import re

import pytest
from django.template.loader import render_to_string

from decks.services import deck_create

pytestmark = pytest.mark.django_db

NAV = re.compile(r'<nav class="pager".*?</nav>', re.S)


def pager(html: str) -> str:
    navs = NAV.findall(html)
    assert len(navs) == 1, navs
    return navs[0]


def test_the_card_search_pages_forward_and_back_keeping_the_query(client):
    first = pager(client.get("/cards/", {"q": "kind:player"}).content.decode())
    assert 'href="?q=kind%3Aplayer&page=2" rel="next"' in first
    assert 'rel="prev"' not in first and "Page 1 of " in first
    second = pager(client.get("/cards/", {"q": "kind:player", "page": "2"}).content.decode())
    assert 'href="?q=kind%3Aplayer&page=1" rel="prev"' in second and "Page 2 of " in second


def test_the_deck_index_pages_forward_and_back_keeping_its_filters(client, alice):
    for number in range(31):
        deck_create(owner=alice, name=f"Paged {number:02d}", visibility="public")
    first = pager(client.get("/decks/", {"owner": "alice"}).content.decode())
    assert 'href="?owner=alice&page=2" rel="next"' in first and "Page 1 of 2" in first
    assert 'rel="prev"' not in first
    last = client.get("/decks/", {"owner": "alice", "page": "2"}).content.decode()
    assert "Paged 00" in last or "Paged 30" in last
    last = pager(last)
    assert 'href="?owner=alice&page=1" rel="prev"' in last and 'rel="next"' not in last
    assert "Page 2 of 2" in last


def test_both_pages_render_the_same_pager_markup(client, alice):
    for number in range(31):
        deck_create(owner=alice, name=f"Paged {number:02d}", visibility="public")
    cards = pager(client.get("/cards/", {"q": "kind:player"}).content.decode())
    decks = pager(client.get("/decks/").content.decode())
    shape = re.compile(r'href="[^"]*"|Page \d+ of \d+')
    assert shape.sub("", cards) == shape.sub("", decks)


def test_a_single_page_shows_no_pager(client):
    assert not NAV.search(client.get("/cards/", {"q": "BS-001"}).content.decode())
    assert not NAV.search(client.get("/decks/").content.decode())


def test_the_pager_speaks_japanese(client):
    client.cookies["django_language"] = "ja"
    nav = pager(client.get("/cards/", {"q": "kind:player", "page": "2"}).content.decode())
    assert "Previous" not in nav and "Next" not in nav


def test_the_pager_renders_alone_from_page_and_params():
    from django.core.paginator import Paginator

    page = Paginator(list(range(10)), 3).get_page(2)
    html = render_to_string("_pager.html", {"page": page, "params": "q=x"})
    assert 'href="?q=x&page=1" rel="prev"' in html and 'href="?q=x&page=3" rel="next"' in html
    assert "Page 2 of 4" in html
