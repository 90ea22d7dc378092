"""The one bounded JSON reader (cardsite/web/json_limits.py) and the API parser built on it."""

import pytest

from cardsite.web.json_limits import JSONLimitError, loads_bounded
from decks.models import Deck


@pytest.mark.parametrize(
    "text, words",
    [
        ("[" * 5000 + "]" * 5000, "nested deeper"),
        ('{"a": ' * 40 + "1" + "}" * 40, "nested deeper"),
        ("9" * 5000, "digits"),
        ('{"q": 1' + "0" * 30 + "}", "digits"),
        ("NaN", "NaN"),
        ('{"x": Infinity}', "Infinity"),
        ("1e999", "too large"),
        ('{"a": "\\u0000"}', "NUL"),
        ('{"a": ', "malformed"),
        (b"\xff\xfe", "UTF-8"),
        ('{"quantity": 1, "quantity": 60}', "“quantity” appears twice"),
        ('[{"deck": {"BS-012": 1, "BS-012": 4}}]', "“BS-012” appears twice"),
    ],
)
def test_hostile_json_is_refused_with_the_limit_it_breaks(text, words):
    with pytest.raises(JSONLimitError, match=words):
        loads_bounded(text)


def test_an_oversized_json_text_is_refused_before_parsing():
    with pytest.raises(JSONLimitError, match="larger than 1,000 bytes"):
        loads_bounded('"' + "a" * 2000 + '"', max_bytes=1000)


def test_ordinary_json_reads_as_usual():
    assert loads_bounded('{"deck": {"BS-012": 4}, "x": [1.5, -2, "[{"]}') == {
        "deck": {"BS-012": 4},
        "x": [1.5, -2, "[{"],
    }


def test_brackets_inside_strings_do_not_count_as_depth():
    assert loads_bounded('["' + "[" * 100 + '"]') == ["[" * 100]


def test_the_api_answers_deep_json_with_a_400_parse_error(alice_client):
    response = alice_client.post(
        "/api/decks/", "[" * 100_000 + "]" * 100_000, content_type="application/json"
    )
    assert response.status_code == 400
    assert "nested deeper than 32" in response.json()["message"]


def test_the_api_refuses_a_body_over_the_limit(alice_client, settings):
    settings.API_MAX_JSON_BYTES = 1000
    body = '{"name": "' + "a" * 2000 + '"}'
    response = alice_client.post("/api/decks/", body, content_type="application/json")
    assert response.status_code == 400
    assert "larger than 1,000 bytes" in response.json()["message"]


def test_the_api_answers_a_repeated_key_with_a_400_naming_it(alice, alice_client):
    body = '{"name": "One", "visibility": "private", "name": "Two", "deck": []}'
    response = alice_client.post("/api/decks/", body, content_type="application/json")
    assert response.status_code == 400
    assert "“name” appears twice" in response.json()["message"]
    assert not Deck.objects.filter(owner=alice).exists()


def test_the_builder_refuses_a_draft_with_a_repeated_card(alice_client):
    draft = '{"deck": {"BS-012": 1, "BS-012": 4}, "bench": {}}'
    response = alice_client.post("/decks/builder/preview/", {"draft": draft})
    assert "“BS-012” appears twice" in response.content.decode()
