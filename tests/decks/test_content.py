"""Deck content as plain data: reading drafts, and diffs between two versions."""

import pytest

from decks.content import ContentError, DeckContent, content_diff


def test_a_draft_reads_from_objects_and_entry_lists():
    content = DeckContent.from_json(
        {
            "goalkeeper": "bs-001",
            "deck": [{"card": "BS-002", "quantity": 2}, {"card": "bs-002", "quantity": 1}],
            "bench": {"BS-003": 0, "BS-004": 2},
        }
    )
    assert content == DeckContent("BS-001", None, {"BS-002": 3}, {"BS-004": 2})


def test_a_bad_draft_names_every_problem():
    with pytest.raises(ContentError) as exc:
        DeckContent.from_json({"goalkeeper": 3, "deck": {"BS-002": -1}, "bench": "x"})
    assert len(exc.value.messages) == 3


def test_the_diff_lists_cards_added_and_removed_per_zone_and_keeper_changes():
    before = DeckContent("BS-001", None, {"BS-002": 4, "BS-003": 2}, {"BS-009": 1})
    after = DeckContent("BS-005", "BS-009", {"BS-002": 2, "BS-004": 3}, {"BS-009": 1})
    diff = content_diff(before, after)
    assert [(c.card, c.delta) for c in diff.added["deck"]] == [("BS-004", 3)]
    assert [(c.card, c.delta) for c in diff.removed["deck"]] == [("BS-002", -2), ("BS-003", -2)]
    assert diff.added["bench"] == [] and diff.removed["bench"] == []
    assert diff.goalkeeper == ("BS-001", "BS-005")
    assert diff.pk_goalkeeper == (None, "BS-009")
    assert diff.summary() == (
        "deck +3 BS-004 −2 BS-002 −2 BS-003; goalkeeper BS-001 → BS-005; PK goalkeeper — → BS-009"
    )
    assert content_diff(after, after).is_empty
