"""What the match shows a UI, and what it refuses."""

import random

import pytest

from play.engine.actions import PlayCards
from play.engine.match import IllegalAction, Match, _SideState
from play.engine.testing import player, sample_side_deck, stacked_match

from .scripts import play


def test_the_state_shows_the_field_the_hands_and_the_totals():
    match = stacked_match([player("A-K3", keep=3)])
    assert (match.half, match.turn, match.offense, match.defense) == (1, 1, "A", "B")
    assert match.current_side() == "A" and match.timing == 1 and match.pending == "kickoff"
    assert match.deck_count("A") == 56 and len(match.hand("A")) == 4
    play(match, "A-K3")
    assert match.totals("A") == (3, 0, 0) and match.player_cards_used("A") == 1
    assert [card.id for card in match.in_play("A")] == ["A-K3"]


def test_a_snapshot_hides_the_other_side_hand():
    match = stacked_match()
    view = match.snapshot(viewer="A")
    assert view["sides"]["A"]["hand"] and view["sides"]["B"]["hand"] is None
    assert view["sides"]["B"]["hand_count"] == 4
    assert view["decision"] == "play_cards" and view["actor"] == "A"
    assert view["ball"] == {"zone": 3, "arrow": "B"}


def test_a_finished_match_takes_no_more_actions():
    match = Match.new(sample_side_deck(1), sample_side_deck(2), seed=1)
    while not match.is_terminal():
        match.apply_action(match.legal_actions(limit=1)[0])  # the first, not all ~1,000
    assert match.current_side() is None and match.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        match.apply_action(PlayCards("A", ()))
    assert match.to_log()["result"] == match.result.to_dict()


def test_a_match_without_a_log_refuses_to_write_one():
    match = Match.new(sample_side_deck(1), sample_side_deck(2), seed=1, record_log=False)
    assert match.events == []
    with pytest.raises(ValueError, match="record_log=False"):
        match.to_log()


def test_events_since_gives_the_events_from_an_index_on():
    from play.engine.testing import stacked_match

    match = stacked_match()
    count = match.event_count
    match.apply_action(match.legal_actions()[0])
    assert match.events_since(count) == match.events[count:]
    assert match.events_since(count) and match.events_since(match.event_count) == []


def test_a_determinized_copy_has_every_field_of_the_match():
    # determinized copies the fields one by one (a compiled Match has no __dict__), so a new
    # field must be copied there too; the plain path shows whether one was left out.
    match = Match.new(sample_side_deck(3), sample_side_deck(4), seed=1)
    play(match)
    copy = match.determinized("A", random.Random(3))
    assert copy.snapshot(viewer="A") == match.snapshot(viewer="A")
    if hasattr(match, "__dict__"):  # plain Python
        assert vars(copy).keys() == vars(match).keys()
        for name in _SideState.__slots__:
            assert hasattr(copy._s["B"], name)
    assert copy._s["A"].opponent is copy._s["B"] and copy._s["B"].opponent is copy._s["A"]
    assert (copy._a, copy._b) == (copy._s["A"], copy._s["B"])
    assert copy.hand("A") == match.hand("A") and copy._a.hand is not match._a.hand
