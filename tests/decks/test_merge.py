"""Three-way merge of a stale edit into the deck saved meanwhile (decks/merge.py)."""

from decks.content import DeckContent
from decks.merge import DeckState, deck_merge


def state(deck=None, bench=None, name="Deck", description="", goalkeeper="BS-001"):
    content = DeckContent(goalkeeper=goalkeeper, deck=deck or {}, bench=bench or {})
    return DeckState(content=content, name=name, description=description, visibility="private")


def test_both_tabs_changes_survive_the_merge():
    base = state(deck={"BS-012": 4})
    theirs = state(deck={"BS-012": 4, "BS-013": 2}, description="their notes")
    yours = state(deck={"BS-012": 3}, bench={"BS-100": 1}, name="Renamed")
    merged = deck_merge(base=base, yours=yours, theirs=theirs)
    assert merged.state.content.deck == {"BS-012": 3, "BS-013": 2}
    assert merged.state.content.bench == {"BS-100": 1}
    assert merged.state.name == "Renamed" and merged.state.description == "their notes"
    assert merged.conflicts == []


def test_a_field_both_changed_keeps_yours_and_is_reported():
    merged = deck_merge(
        base=state(description="old"),
        yours=state(description="mine", goalkeeper="BS-002"),
        theirs=state(description="theirs", goalkeeper="BS-003"),
    )
    assert merged.state.description == "mine" and merged.state.content.goalkeeper == "BS-002"
    assert merged.conflicts == ["goalkeeper", "description"]


def test_merged_quantities_stay_within_the_quantity_rule():
    merged = deck_merge(
        base=state(deck={"BS-012": 30}),
        yours=state(deck={"BS-012": 60}),
        theirs=state(deck={"BS-012": 59}),
    )
    assert merged.state.content.deck == {"BS-012": 60}
