"""The lab page's rules in Japanese (issue #27 item 12): docs/touchdown.ja.md translates three
sections of docs/touchdown.md; the two cannot drift apart silently."""

import re

import pytest
from django.test import Client

from play.lab import views

pytestmark = pytest.mark.django_db

RULE_ID = re.compile(r"TD-[A-Z]+(?:-\d+)?")
FENCE = re.compile(r"```.*?```", re.S)
CODE = re.compile(r"`([^`\n]+)`")


@pytest.fixture(scope="module")
def docs():
    return views.doc_sections("en"), views.doc_sections("ja")


def test_the_japanese_file_has_every_section(docs):
    english, japanese = docs
    assert set(english) == set(japanese) == set(views.SECTIONS)


@pytest.mark.parametrize("key", list(views.SECTIONS))
def test_each_section_cites_the_same_rules_and_code(docs, key):
    english, japanese = docs
    assert set(RULE_ID.findall(english[key])) == set(RULE_ID.findall(japanese[key]))
    # code stays code: the same code blocks, and the same inline code names
    assert FENCE.findall(english[key]) == FENCE.findall(japanese[key])
    inline = [set(CODE.findall(FENCE.sub("", doc[key]))) for doc in docs]
    assert inline[0] == inline[1], inline[0] ^ inline[1]


def test_the_check_would_see_a_missing_rule_id(docs):
    english, japanese = docs
    cut = japanese["rules"].replace("TD-SET-2", "")
    assert set(RULE_ID.findall(english["rules"])) != set(RULE_ID.findall(cut))


def test_a_section_the_japanese_file_lacks_falls_back_to_english(tmp_path, monkeypatch):
    partial = tmp_path / "touchdown.ja.md"
    partial.write_text("## ルール（草案の用語で）\n\n日本語のルール TD-SET-2\n", encoding="utf-8")
    monkeypatch.setitem(views.DOCS, "ja", partial)
    views._rules_html.cache_clear()
    try:
        sections = views.rules_html("ja")
        assert "日本語のルール" in sections["rules"]
        assert "kick_minimum" in sections["effects"] and "Pick six" in sections["effects"]
        assert "The draft lists neither" in sections["effects"]
    finally:
        views._rules_html.cache_clear()


def test_each_language_is_cached_on_its_own():
    views._rules_html.cache_clear()
    japanese, english = views.rules_html("ja"), views.rules_html("en")
    assert views.rules_html("ja-jp") is japanese and views.rules_html("fr") is english
    assert "オンサイドキック成功" in japanese["rules"]
    assert "successful onside kick" in english["rules"]


def test_the_japanese_page_shows_the_japanese_rules_and_the_english_page_the_english():
    client = Client()
    english = client.get("/lab/touchdown/").content.decode()
    client.cookies["django_language"] = "ja"
    japanese = client.get("/lab/touchdown/").content.decode()
    for text in (
        "オンサイドキック成功",
        "決定と理由",
        "私たちが作った例で、デザイナーのものではありません",
    ):
        assert text in japanese and text not in english
    for text in ("a 1 is a successful onside kick", "decision and why", "an example set of ours"):
        assert text in english and text not in japanese
    for page in (english, japanese):  # the code is the same in both
        assert "TD-KICK-1" in page and "kick_minimum" in page and "Iron Boot" in page
