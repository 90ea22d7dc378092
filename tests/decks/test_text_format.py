"""The deck text format (shared/spec/deck-format.md), parsed and written without the database."""

from decks.content import DeckContent
from decks.text_format import LineError, ParsedDeck, deck_text, parse_deck_text

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
