"""The bot ladder: seat-balanced pairings, Wilson intervals, Elo, and the ladder's order."""

import pytest

from play.engine.ladder import Pairing, pairing, ratings
from play.engine.policies import LADDER
from play.engine.testing import sample_side_deck

DEALS = [(sample_side_deck(seed), sample_side_deck(10_000 + seed), seed) for seed in range(12)]
SEARCH_DEALS = 5  # a search-strong match takes seconds; search plays every deal


def test_a_pairing_plays_each_deal_from_both_seats():
    played = []
    pairs = []

    def play(deck_a, deck_b, *, policy_a, policy_b, seed, log, decks):
        played.append((policy_a.name, policy_b.name, seed))
        pairs.append(decks)

        class Outcome:
            winner = "A"

        return Outcome()

    result = pairing("greedy", "random", DEALS[:2], play=play)
    assert played == [
        ("greedy", "random", 0),
        ("random", "greedy", 0),
        ("greedy", "random", 1),
        ("random", "greedy", 1),
    ]
    assert (result.matches, result.wins) == (4, 2)  # side A always won: one seat each
    assert pairs[0] is pairs[1] and pairs[0].fits(*DEALS[0][:2])  # one DeckPair a deal


def test_the_wilson_interval_and_elo_are_right_for_a_known_count():
    result = Pairing("x", "y", 100, 70)
    low, high = result.interval
    assert low == pytest.approx(0.6041, abs=1e-4) and high == pytest.approx(0.7810, abs=1e-4)
    assert result.clear and result.elo == pytest.approx(147.2, abs=0.1)
    assert not Pairing("x", "y", 20, 12).clear
    assert ratings([Pairing("b", "a", 100, 70), Pairing("c", "b", 100, 50)]) == {
        "a": 0.0,
        "b": pytest.approx(147.2, abs=0.1),
        "c": pytest.approx(147.2, abs=0.1),
    }


def test_each_cheap_rung_beats_the_one_below_on_a_fixed_sample():
    # passive < random < greedy (the search rungs are measured by bench/engine.py ladder).
    assert pairing("random", "passive", DEALS).rate > 0.5
    assert pairing("greedy", "random", DEALS).rate > 0.5


@pytest.mark.slow
def test_every_rung_of_the_ladder_beats_the_one_below_on_a_fixed_sample():
    # The whole ladder, weakest first: passive < random < greedy < search < search-strong.
    # A small fixed sample (bench/engine.py ladder measures it with intervals, docs/engine.md).
    assert LADDER == ("passive", "random", "greedy", "search", "search-strong")
    for lower, upper in zip(LADDER, LADDER[1:], strict=False):
        # search (16 rollouts) plays a deal in about 0.1 s: all 12 deals; search-strong 5.
        sample = DEALS[:SEARCH_DEALS] if upper == "search-strong" else DEALS
        result = pairing(upper, lower, sample)
        assert result.rate > 0.5, (upper, lower, result)
