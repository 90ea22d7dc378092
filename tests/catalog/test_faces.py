"""Generated card faces: well-formed SVG, escaped text, the sample stamp, the cache."""

import xml.etree.ElementTree as ET

import pytest

from catalog.faces import card_face_cached, card_face_svg
from catalog.models import Card

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    return [el.text or "" for el in ET.fromstring(svg).iter(f"{SVG}text")]


def test_a_player_face_is_well_formed_svg_with_names_position_and_stats():
    card = Card.objects.select_related("card_set", "team").get(id="BS-014")
    root = ET.fromstring(card_face_svg(card))
    assert root.tag == f"{SVG}svg"
    shown = texts(card_face_svg(card))
    assert card.name in shown and card.name_ja in shown
    assert card.position in shown or "GK" in shown
    assert {str(card.shoot), str(card.keep), str(card.defense)} <= set(shown)
    assert "BS 014 · " + card.rarity in shown
    assert card.team.name_ja in shown


def test_an_event_face_shows_the_effect_in_both_languages():
    card = Card.objects.select_related("card_set").filter(kind="event", effect="draw:1").first()
    card = card or Card.objects.select_related("card_set").filter(kind="event").first()
    card.effect = "draw:1;keep:+2"
    joined = " ".join(texts(card_face_svg(card)))
    assert "Draw 1 card." in joined and "Your keep +2" in joined
    assert "カードを1枚引く。" in joined


def test_a_sample_card_carries_the_sample_stamp_and_a_real_card_does_not():
    card = Card.objects.select_related("card_set", "team").get(id="BS-001")
    assert card.is_sample
    assert 'class="sample-stamp"' in card_face_svg(card)
    card.is_sample = False
    assert "sample-stamp" not in card_face_svg(card)
    assert "SAMPLE" not in texts(card_face_svg(card))


def test_names_are_escaped_so_the_face_stays_well_formed():
    card = Card.objects.select_related("card_set", "team").get(id="BS-014")
    card.name = 'A <b>&"bold"</b> name'
    card.name_ja = "<script>alert(1)</script>"
    svg = card_face_svg(card)
    root = ET.fromstring(svg)  # raises if the escaping is wrong
    assert "<script>" not in svg and "<b>" not in svg
    assert 'A <b>&"bold"</b> name' in [el.text for el in root.iter(f"{SVG}text")]
    assert root.get("aria-label").startswith("A <b>")


def test_faces_are_cached_under_the_catalog_version():
    card = Card.objects.select_related("card_set", "team").get(id="BS-014")
    first = card_face_cached(card, version="v-test-1")
    card.name = "Changed"
    assert card_face_cached(card, version="v-test-1") == first
    assert "Changed" in card_face_cached(card, version="v-test-2")


def test_the_face_url_serves_svg_that_browsers_may_keep_for_the_version(client):
    page = client.get("/cards/BS-014/")
    assert b'class="card-face card-face-normal"' in page.content
    src = page.content.split(b'class="card-face card-face-normal" src="', 1)[1].split(b'"', 1)[0]
    response = client.get(src.decode().replace("&amp;", "&"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert "immutable" in response["Cache-Control"]
    ET.fromstring(response.content)
    assert client.get("/cards/XX-999/face.svg").status_code == 404
