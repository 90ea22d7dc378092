"""The deck text format (shared/spec/deck-format.md), parsed and written without the database."""

from decks.content import DeckContent
from decks.formats.text import LineError, ParsedDeck, deck_text, parse_deck_text

GOOD = """\
# a comment, then a blank line

Name: Antlers 2001
goalkeeper: BS-001
PK Goalkeeper: bs-120 the keeper's name is ignored
MAIN:
4 BS-012 Forward name (anything after the id is ignored on import)
4x BS-013
2 bs-12
Bench:
2 BS-100
"""


def test_a_deck_text_parses_into_its_content():
    parsed = parse_deck_text(GOOD)
    assert isinstance(parsed, ParsedDeck) and parsed.errors == []
    assert parsed.name == "Antlers 2001"
    assert parsed.content() == DeckContent(
        goalkeeper="BS-001",
        pk_goalkeeper="BS-120",
        deck={"BS-012": 6, "BS-013": 4},
        bench={"BS-100": 2},
    )


def test_every_bad_line_is_reported_with_its_number():
    text = "\n".join(
        [
            "name: One",  # 1
            "name: Two",  # 2 key given twice
            "3 BS-001",  # 3 card line outside a section
            "deck:",  # 4
            "0 BS-002",  # 5 quantity below 1
            "61 BS-003",  # 6 quantity above 60
            "4 nonsense",  # 7 not a card id
            "four BS-004",  # 8 not a card line
            "goalkeeper:",  # 9 no id
            "bench:",  # 10
            "deck:",  # 11 section given twice
        ]
    )
    errors = parse_deck_text(text).errors
    assert [e.line for e in errors] == [2, 3, 5, 6, 7, 8, 9, 11]
    assert all(isinstance(e, LineError) for e in errors)
    assert "given twice (first on line 1)" in errors[0].message
    assert "outside a section" in errors[1].message
    assert "from 1 to 60" in errors[2].message


def test_export_writes_the_format_and_reads_back_the_same():
    content = DeckContent(
        goalkeeper="BS-001",
        pk_goalkeeper="BS-120",
        deck={"BS-013": 4, "BS-012": 56},
        bench={"BS-120": 1},
    )
    names = {"BS-001": "Keeper One", "BS-012": "Kenta  Arai", "BS-013": "Go", "BS-120": "PK"}
    text = deck_text(name="My deck", content=content, card_names=names)
    assert text.splitlines()[1:] == [
        "name: My deck",
        "goalkeeper: BS-001 Keeper One",
        "pk goalkeeper: BS-120 PK",
        "deck:",
        "56 BS-012 Kenta Arai",
        "4 BS-013 Go",
        "bench:",
        "1 BS-120 PK",
    ]
    parsed = parse_deck_text(text)
    assert parsed.name == "My deck" and parsed.content() == content
    again = deck_text(name=parsed.name, content=parsed.content(), card_names=names)
    assert again == text


def test_an_empty_deck_exports_and_parses():
    text = deck_text(name="Empty", content=DeckContent(), card_names={})
    assert parse_deck_text(text).content() == DeckContent()


def test_only_ascii_digits_are_quantities():
    for digits in ("４", "٤", "४"):
        parsed = parse_deck_text(f"deck:\n{digits} BS-012\n")
        assert parsed.deck == []
        assert parsed.errors == [
            LineError(2, "a quantity is written with the digits 0-9 (not full-width)")
        ]


def test_a_quantity_of_thousands_of_digits_is_a_line_error_not_a_crash():
    parsed = parse_deck_text("deck:\n" + "9" * 5000 + " BS-012\n")
    assert parsed.errors == [LineError(2, "quantity 999999… (5000 digits) is not from 1 to 60")]


def test_repeated_lines_add_up_and_the_sum_obeys_the_quantity_rule():
    parsed = parse_deck_text("deck:\n" + "60 BS-012\n" * 551)
    assert parsed.errors[0] == LineError(
        3, "BS-012 adds up to 120 copies in deck: (at most 60; repeated lines add up)"
    )
    assert len(parsed.errors) == 550
    fine = parse_deck_text("deck:\n30 BS-012\n30 bs-12\nbench:\n30 BS-012\n")
    assert fine.errors == [] and fine.content().deck == {"BS-012": 60}


def test_a_comment_only_text_is_an_error():
    parsed = parse_deck_text("# just a comment\n\n# and another\n")
    assert [e.line for e in parsed.errors] == [1]
    assert "only comments" in parsed.errors[0].message


def test_a_nul_or_control_character_in_a_line_is_a_line_error():
    parsed = parse_deck_text("name: Bad\x00name\ndeck:\n4 BS-012\x07\n")
    assert [e.line for e in parsed.errors] == [1, 3]
    assert parsed.name is None


def test_a_deck_name_with_a_bidi_override_or_zero_width_character_is_an_error():
    for name in ("Antlers\u202e1002", "Ant\u200blers", "A\ufeffB"):
        parsed = parse_deck_text(f"name: {name}\ndeck:\n4 BS-012\n")
        assert parsed.name is None
        assert "invisible formatting character" in parsed.errors[0].message


def test_an_oversized_text_is_refused_whole():
    parsed = parse_deck_text("deck:\n4 BS-012\n" + "#" * 200_001)
    assert parsed.deck == [] and "at most 200,000 characters" in parsed.errors[0].message


def test_a_pasted_name_list_with_a_quantity_of_thousands_of_digits_names_its_line():
    from decks.formats.text import parse_name_list

    parsed = parse_name_list("9" * 5000 + " BS-012\n٣ BS-013", {})
    assert [e.line for e in parsed.errors] == [1, 2]
    assert "quantity" in parsed.errors[0].message
