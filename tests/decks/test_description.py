"""Deck descriptions: Markdown rendered, then sanitised so nothing can run in a reader's page."""

from decks.description import description_html


def test_markdown_becomes_html_with_headings_below_the_page_headings():
    html = description_html("# Plan\n\n**Press** early, *then* shoot.\n\n- one\n- two")
    assert "<h3>Plan</h3>" in html and "<strong>Press</strong>" in html
    assert "<em>then</em>" in html and "<li>two</li>" in html


def test_script_tags_and_their_content_are_stripped():
    html = description_html("Hi <script>alert('x')</script> there")
    assert "<script" not in html and "alert" not in html and "there" in html


def test_event_handler_attributes_are_stripped():
    html = description_html(
        '<a href="https://example.com" onclick="steal()">ok</a> <img src=x onerror=alert(1)>'
    )
    assert "onclick" not in html and "onerror" not in html and "<img" not in html
    assert 'href="https://example.com"' in html


def test_javascript_and_data_links_become_their_plain_text():
    html = description_html("[a](javascript:alert(1)) [b](data:text/html,hi) [c](JaVaScRiPt:x)")
    assert "javascript" not in html.lower() and "data:" not in html
    # Not links that go nowhere: the words stay, as text.
    assert html == "<p>a b c</p>"
    mixed = description_html('[ok](https://jleague.jp) <a href="javascript:x" title="t">*no*</a>')
    assert mixed.count("<a ") == 1 and 'href="https://jleague.jp"' in mixed
    assert mixed.endswith(" <em>no</em></p>")


def test_links_that_stay_get_nofollow_and_an_empty_text_gives_nothing():
    assert 'rel="nofollow noopener noreferrer"' in description_html("<https://jleague.jp>")
    assert description_html("   ") == ""
