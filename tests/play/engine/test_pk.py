"""The PK shootout (R-PK-1..6) and its exact odds."""

import math
import random
from fractions import Fraction
from itertools import combinations

import pytest

from play.engine.match import Match
from play.engine.pk import (
    pk_scores,
    pk_shootout,
    pk_simulate_counts,
    pk_win_probability,
    pk_win_probability_counts,
)
from play.engine.testing import StackedChance, event, goalkeeper, player, stacked_side

from .referee import check_log
from .scripts import events, no_swaps
from .test_halftime import DRAIN_A, DRAIN_B, end_half

KEEPER3 = goalkeeper("GK-3", 3)
SCORER = player("P-S4", shoot=4, person="Scorer")
MISSER = player("P-S3", shoot=3, person="Misser")
EVENT = event("P-EV", "shoot:+9")


def deck(scoring: int, size: int = 60) -> list:
    return [SCORER] * scoring + [MISSER] * (size - scoring)


def test_a_kick_scores_only_above_the_goalkeeper_defense():  # R-PK-3
    assert pk_scores(player("X", shoot=4), KEEPER3)
    assert not pk_scores(player("X", shoot=3), KEEPER3)
    assert pk_scores(EVENT, goalkeeper("GK-M", -1))  # an event card shoots 0
    assert not pk_scores(EVENT, goalkeeper("GK-0", 0))


def test_all_five_kicks_are_taken_and_more_goals_win():  # R-PK-4
    result = pk_shootout(deck(60), KEEPER3, deck(0), KEEPER3, StackedChance())
    assert result.score == {"A": 5, "B": 0} and result.winner == "A"
    assert result.decided_by == "pk"  # decided after three rounds, yet all five are taken
    assert [(k.round, k.side) for k in result.kicks] == [(r, s) for r in range(1, 6) for s in "AB"]


def test_sudden_death_goes_on_until_a_round_is_decisive():  # R-PK-4
    # A scores with its 7th card only, B with its 8th: level after 5, A wins round 7.
    deck_a = [MISSER] * 6 + [SCORER] + [MISSER] * 53
    deck_b = [MISSER] * 7 + [SCORER] + [MISSER] * 52
    result = pk_shootout(deck_a, KEEPER3, deck_b, KEEPER3, StackedChance())
    assert result.score == {"A": 1, "B": 0} and result.winner == "A"
    assert result.kicks[-1].round == 7 and len(result.kicks) == 14


def test_a_deck_that_runs_out_in_sudden_death_is_reshuffled():  # R-PK-5
    # Both score with their first card and miss with all 59 others: level after 60 rounds.
    deck_a = deck_b = [SCORER] + [MISSER] * 59
    again_a = ["P-S3", "P-S4"] + ["P-S3"] * 58  # A scores with its 2nd card after reshuffling
    again_b = ["P-S3"] * 59 + ["P-S4"]
    chance = StackedChance(shuffles=[None, None, again_a, again_b])
    log: list = []
    result = pk_shootout(deck_a, KEEPER3, deck_b, KEEPER3, chance, events=log)
    assert result.winner == "A" and result.score == {"A": 2, "B": 1}
    assert result.kicks[-1].round == 62
    kinds = [e["type"] for e in log]
    first = kinds.index("pk_reshuffle")
    assert kinds[first - 1 : first + 4] == [
        "pk_kick",
        "pk_reshuffle",
        "pk_kick",
        "pk_reshuffle",
        "pk_kick",
    ]
    assert log[first] == {"type": "pk_reshuffle", "side": "A", "deck": again_a}
    kicks = [e for e in log if e["type"] == "pk_kick"]
    assert len(kicks) == 124
    assert not any(k["reshuffled"] for k in kicks[:120])
    assert all(k["reshuffled"] for k in kicks[120:])


@pytest.mark.parametrize("scoring", [0, 60])
def test_a_shootout_that_can_never_be_decided_goes_to_the_coin(scoring):  # R-PK-6
    result = pk_shootout(
        deck(scoring), KEEPER3, deck(scoring), KEEPER3, StackedChance(tosses=["B"])
    )
    assert result.decided_by == "coin_toss" and result.winner == "B"
    assert len(result.kicks) == 10  # the first five each, then the coin


def test_one_scoring_card_is_enough_to_avoid_the_coin():  # R-PK-6
    result = pk_shootout(deck(1), KEEPER3, deck(0), KEEPER3, random.Random(3))
    assert result.decided_by == "pk" and result.winner == "A"


def test_a_match_shootout_uses_the_pk_goalkeeper_from_the_bench():  # R-PK-1, R-PK-2
    pk_keeper = goalkeeper("GK-PK", 1)
    side_a = stacked_side(
        [DRAIN_A], name="A", keeper=KEEPER3, bench=[pk_keeper], pk_goalkeeper=pk_keeper
    )
    side_b = stacked_side([DRAIN_B, player("B-S2", shoot=2)], name="B", keeper=KEEPER3)
    match = Match.new(side_a, side_b, seed=0, chance=StackedChance(tosses=["A"]))
    end_half(match, "A")
    no_swaps(match)
    no_swaps(match)
    end_half(match, "B")
    start = events(match, "pk_start")[0]
    assert start["goalkeepers"] == {"A": "GK-PK", "B": "GK-3"}
    assert len(start["decks"]["A"]) == 60 and len(start["decks"]["B"]) == 60
    kicks = events(match, "pk_kick")
    assert {k["goalkeeper_defense"] for k in kicks if k["side"] == "B"} == {1}
    assert match.to_log()["sides"]["A"]["pk_goalkeeper"]["id"] == "GK-PK"
    assert match.result.decided_by == "pk" and match.result.winner == "B"  # B-S2 beats 1
    check_log(match.to_log())


# ----- exact odds -----


def test_a_hand_computed_small_case():
    # Three cards, one kick each: A scores with 2 of 3, B with 1 of 3 (see docs/engine.md).
    assert pk_win_probability_counts(3, 2, 1, kicks=1, exact=True) == Fraction(8, 9)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (60, 0, 1),
        (0, 60, 0),
        (1, 0, 1),
        (0, 1, 0),
        (60, 59, 1),
        (0, 0, Fraction(1, 2)),
        (60, 60, Fraction(1, 2)),
        (25, 25, Fraction(1, 2)),
        (1, 1, Fraction(1, 2)),
    ],
)
def test_known_odds(a, b, expected):
    assert pk_win_probability_counts(60, a, b, exact=True) == expected
    assert pk_win_probability_counts(60, a, b) == pytest.approx(float(expected), abs=1e-12)


def brute_force(size: int, a: int, b: int, kicks: int) -> Fraction:
    """P(A wins) by listing every arrangement of scoring cards (a != b: no reshuffle)."""
    wins = total = 0
    for spots_a in combinations(range(size), a):
        seq_a = [i in spots_a for i in range(size)]
        for spots_b in combinations(range(size), b):
            seq_b = [i in spots_b for i in range(size)]
            total += 1
            lead = sum(seq_a[:kicks]) - sum(seq_b[:kicks])
            if lead == 0:
                first = next(i for i in range(kicks, size) if seq_a[i] != seq_b[i])
                lead = 1 if seq_a[first] else -1
            wins += lead > 0
    return Fraction(wins, total)


@pytest.mark.parametrize(("a", "b"), [(a, b) for a in range(7) for b in range(7) if a != b])
def test_exact_odds_match_a_brute_force_count(a, b):
    assert pk_win_probability_counts(6, a, b, kicks=3, exact=True) == brute_force(6, a, b, 3)


def test_float_odds_agree_with_exact_fractions_to_1e_12():
    rng = random.Random(7)
    for _ in range(25):
        a, b = rng.randint(0, 60), rng.randint(0, 60)
        exact = pk_win_probability_counts(60, a, b, exact=True)
        assert abs(pk_win_probability_counts(60, a, b) - float(exact)) < 1e-12


def test_odds_of_two_decks_depend_on_the_other_keeper():
    deck_a, deck_b = deck(30), deck(10)
    assert pk_win_probability(deck_a, KEEPER3, deck_b, KEEPER3) == pk_win_probability_counts(
        60, 30, 10
    )
    weak = goalkeeper("GK-0", 0)
    assert pk_win_probability(deck_a, KEEPER3, deck_b, weak) == pk_win_probability_counts(
        60, 60, 10
    )


def test_unequal_decks_are_refused():
    with pytest.raises(ValueError, match="same size"):
        pk_win_probability(deck(1, 59), KEEPER3, deck(1), KEEPER3)


@pytest.mark.slow
def test_a_million_simulated_shootouts_agree_with_the_exact_odds():
    rng = random.Random(2001)
    n, size, a, b = 1_000_000, 60, 33, 25
    wins = sum(pk_simulate_counts(size, a, b, rng).winner == "A" for _ in range(n))
    p = pk_win_probability_counts(size, a, b)
    sigma = math.sqrt(p * (1 - p) / n)
    assert abs(wins / n - p) < 3 * sigma


def test_full_shootouts_agree_with_the_exact_odds():
    rng = random.Random(11)
    deck_a, deck_b = deck(20), deck(14)
    n = 20_000
    wins = sum(pk_shootout(deck_a, KEEPER3, deck_b, KEEPER3, rng).winner == "A" for _ in range(n))
    p = pk_win_probability(deck_a, KEEPER3, deck_b, KEEPER3)
    assert abs(wins / n - p) < 4 * math.sqrt(p * (1 - p) / n)
