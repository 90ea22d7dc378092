"""DeckPair: two decks checked and laid out once, for every match played between them."""

import dataclasses
import random

import pytest

from play.engine.match import HALFTIME, DeckPair, IllegalDeck, Match, SideDeck
from play.engine.options import Options
from play.engine.runner import play_match
from play.engine.testing import sample_side_deck

DECK_A = sample_side_deck(1)
DECK_B = sample_side_deck(2)


def test_matches_given_a_deck_pair_are_the_matches_without_one():
    decks = DeckPair(DECK_A, DECK_B)
    for seed in range(6):
        for policy in ("greedy", "random"):
            given = play_match(
                DECK_A, DECK_B, policy_a=policy, policy_b="greedy", seed=seed, decks=decks
            )
            alone = play_match(DECK_A, DECK_B, policy_a=policy, policy_b="greedy", seed=seed)
            assert given.log == alone.log and given.to_dict() == alone.to_dict()


def test_a_deck_pair_fits_decks_of_equal_cards_and_refuses_others():
    decks = DeckPair(DECK_A, DECK_B)
    renamed = dataclasses.replace(DECK_A, name="Renamed", policy="greedy")  # same cards
    copied = dataclasses.replace(DECK_B, cards=tuple(dataclasses.replace(c) for c in DECK_B.cards))
    assert decks.fits(renamed, copied)
    Match.new(renamed, copied, seed=1, decks=decks)
    assert not decks.fits(DECK_B, DECK_A)
    with pytest.raises(ValueError, match="other decks"):
        Match.new(DECK_B, DECK_A, seed=1, decks=decks)


def test_a_deck_pair_refuses_an_illegal_deck():
    short = SideDeck("short", DECK_A.cards[:59], DECK_A.goalkeeper)  # R-DECK-1
    with pytest.raises(IllegalDeck) as refused:
        DeckPair(DECK_B, short)
    assert refused.value.side == "B"
    wrong_keeper = SideDeck("gk", DECK_A.cards, DECK_A.cards[0])  # R-DECK-4, same cards tuple
    with pytest.raises(IllegalDeck):
        DeckPair(wrong_keeper, DECK_B)


def test_a_deck_pair_refuses_two_definitions_of_an_id():
    first = next(card for card in DECK_A.cards if card.kind == "player")
    clash = dataclasses.replace(first, shoot=first.shoot + 1)
    b = SideDeck(
        "b", tuple(clash if card == first else card for card in DECK_A.cards), DECK_A.goalkeeper
    )
    assert not b.problems()
    with pytest.raises(ValueError, match="two different definitions"):
        DeckPair(DECK_A, b)


def _at_halftime(decks, seed, options=None):
    match = Match.new(
        sample_side_deck(31),
        sample_side_deck(32),
        seed=seed,
        record_log=False,
        options=options or Options(),
        decks=decks,
    )
    rng = random.Random(seed)
    while match.decision != HALFTIME:
        match.apply_action(match.random_legal_action(rng))
    return match


def _fresh_swap_options(match):
    kept = dict(match._swap_memo)
    match._swap_memo.clear()
    try:
        return match.legal_actions()
    finally:
        match._swap_memo.clear()
        match._swap_memo.update(kept)


@pytest.mark.parametrize("keep_hands", [False, True])
def test_a_pairs_halftime_swaps_are_the_swaps_worked_out_afresh(keep_hands):
    decks = DeckPair(sample_side_deck(31), sample_side_deck(32))
    options = Options(halftime_keep_hands=keep_hands)
    for seed in range(3):  # the first match of the pair works them out, the others reuse them
        match = _at_halftime(decks, seed, options)
        kept = match.legal_actions()
        assert kept == _fresh_swap_options(match)
        assert len(kept) > 1  # real swaps, not only "no swap"
        assert ("A" in decks.swap_options) is not keep_hands  # kept hands: nothing kept
        copy = match.determinized(match.actor, random.Random(seed))
        assert copy.legal_actions() == kept


def test_a_pairs_halftime_swaps_follow_the_cards_not_the_pair():
    match = _at_halftime(DeckPair(sample_side_deck(31), sample_side_deck(32)), 1)
    before = match.legal_actions()
    state = match._s[match.actor]
    state.bench = [card for card in state.bench if card.kind == "goalkeeper"]  # nothing to bring
    assert match.legal_actions() == _fresh_swap_options(match) != before
