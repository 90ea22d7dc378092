"""Halftime and the second half (R-MATCH-4, R-MATCH-5) and the end of a match (R-MATCH-1)."""

import random
from itertools import product

import pytest

from play.engine.actions import HalftimeSwaps
from play.engine.legality import deck_problems
from play.engine.match import HALFTIME, IllegalAction, Match
from play.engine.options import DEFAULT_OPTIONS, Options
from play.engine.testing import event, goalkeeper, player, sample_side_deck, stacked_match

from .referee import check_log
from .scripts import events, last, no_swaps, pass_until, play, shoot

DRAIN_A = event("A-DRAIN", "draw:56")
DRAIN_B = event("B-DRAIN", "draw:56")
SAME_PERSON = player("A-ALT", shoot=9, keep=9, defense=9, person="Filler 1")
NEW_PERSON = player("A-NEW", shoot=9, person="Newcomer")


def end_half(match, side):
    """End the current half on `side`'s deck: it drains its deck at its first timing, then
    shoots at its first shot chance."""
    drain = f"{side}-DRAIN"
    while True:
        if match.decision == "play_cards":
            in_hand = drain in [card.id for card in match.hand(match.actor)]
            play(match, drain) if match.actor == side and in_hand else play(match)
        elif match.decision == "shot":
            shoot(match, match.actor == side)
        else:
            return


def at_halftime(options=DEFAULT_OPTIONS, bench_a=()):
    match = stacked_match([DRAIN_A], [DRAIN_B], options=options, bench_a=bench_a)
    end_half(match, "A")
    assert match.decision == HALFTIME
    return match


def test_halftime_asks_a_then_b_for_swaps():  # R-MATCH-5
    match = at_halftime()
    assert match.actor == "A"
    assert match.legal_actions() == [HalftimeSwaps("A", ())]
    no_swaps(match)
    assert match.decision == HALFTIME and match.actor == "B"
    no_swaps(match)
    assert last(match, "halftime") == {"type": "halftime", "swaps": {"A": [], "B": []}}


def test_the_second_half_is_kicked_off_by_the_other_side():  # R-MATCH-4
    match = at_halftime()
    no_swaps(match)
    no_swaps(match)
    start = last(match, "half_start")
    assert start["half"] == 2 and start["kickoff"] == "B"
    turn = last(match, "turn_start")
    assert (turn["half"], turn["turn"], turn["offense"], turn["ball"]) == (2, 1, "B", None)


def test_every_card_is_shuffled_into_a_new_deck_and_hands_start_empty():  # R-MATCH-5
    match = at_halftime()
    no_swaps(match)
    no_swaps(match)
    start = last(match, "half_start")
    assert len(start["decks"]["A"]) == 60 and len(start["decks"]["B"]) == 60
    assert "A-DRAIN" in start["decks"]["A"]  # the discard and the cards in play come back
    assert last(match, "turn_start")["hands"] == {"A": [], "B": []}
    assert match.discard_count("A") == 0
    check_log(match.to_log(), complete=False)


def test_the_keep_hands_option_keeps_hands_through_halftime():  # R-MATCH-5 (option)
    match = at_halftime(Options(halftime_keep_hands=True))
    hand = [card.id for card in match.hand("A")]
    no_swaps(match)
    no_swaps(match)
    assert last(match, "turn_start")["hands"]["A"] == hand
    assert len(last(match, "half_start")["decks"]["A"]) == 60 - len(hand)
    assert match.to_log()["rules"]["house"]["halftime_keep_hands"] is True
    check_log(match.to_log(), complete=False)


def test_a_swap_for_a_card_of_the_same_person_is_legal():  # R-MATCH-5
    match = at_halftime(bench_a=[SAME_PERSON, NEW_PERSON])
    assert HalftimeSwaps("A", (("FIL-001", "A-ALT"),)) in match.legal_actions()
    match.apply_action(HalftimeSwaps("A", (("FIL-001", "A-ALT"),)))
    no_swaps(match)
    assert last(match, "halftime")["swaps"]["A"] == [["FIL-001", "A-ALT"]]
    owned = [card.id for card in match.owned_cards("A")]
    assert "A-ALT" in owned and owned.count("FIL-001") == FILLER_COPIES - 1
    assert [card.id for card in match.bench("A")] == ["A-NEW", "FIL-001"]
    assert "A-ALT" in last(match, "half_start")["decks"]["A"]
    check_log(match.to_log(), complete=False)


FILLER_COPIES = 60 - 1 - 9  # the drain card, one of each other filler, the rest filler 1


def test_a_swap_that_would_make_the_deck_illegal_is_refused():  # R-MATCH-5, R-DECK-3
    match = at_halftime(bench_a=[SAME_PERSON, NEW_PERSON])
    swap = HalftimeSwaps("A", (("FIL-001", "A-NEW"),))  # one filler 1 leaves, a new person joins
    assert swap not in match.legal_actions()
    with pytest.raises(IllegalAction, match="name 11 persons"):
        match.apply_action(swap)
    with pytest.raises(IllegalAction, match="not on side A's bench"):
        match.apply_action(HalftimeSwaps("A", (("FIL-002", "NOPE"),)))
    with pytest.raises(IllegalAction, match="not in side A's deck"):
        match.apply_action(HalftimeSwaps("A", (("NOPE", "A-NEW"),)))
    # Several swaps are judged together: with filler 2's only card out as well, 10 persons.
    assert match.is_legal(HalftimeSwaps("A", (("FIL-001", "A-NEW"), ("FIL-002", "A-ALT"))))
    assert HalftimeSwaps("A", (("FIL-002", "A-NEW"),)) in match.legal_actions()


def test_a_match_that_is_level_after_two_halves_goes_to_a_shootout():  # R-MATCH-1
    keeper = goalkeeper("GK-001", 3)
    match = stacked_match([DRAIN_A], [DRAIN_B], keeper_a=keeper, keeper_b=keeper, tosses=["B"])
    end_half(match, "A")
    no_swaps(match)
    no_swaps(match)
    end_half(match, "B")
    assert match.is_terminal()
    kinds = [e["type"] for e in match.events]
    assert kinds[kinds.index("pk_start") - 1] == "half_end" and kinds[-1] == "match_end"
    # No card can beat a keeper of 3 here: R-PK-6's coin toss (scripted to B) decides.
    assert len(events(match, "pk_kick")) == 10
    assert match.result.to_dict() == {
        "goals": {"A": 0, "B": 0},
        "pk": {"A": 0, "B": 0},
        "winner": "B",
        "decided_by": "coin_toss",
    }
    check_log(match.to_log())


def test_more_goals_win_without_a_shootout():  # R-MATCH-1
    striker = player("A-S9", shoot=9, keep=0)
    match = stacked_match([striker, DRAIN_A], [DRAIN_B])
    pass_until(match, "shot")
    shoot(match)
    play(match, "A-S9")
    assert match.score == {"A": 1, "B": 0}
    end_half(match, "B")
    no_swaps(match)
    no_swaps(match)
    end_half(match, "B")
    assert match.result.to_dict() == {
        "goals": {"A": 1, "B": 0},
        "pk": None,
        "winner": "A",
        "decided_by": "goals",
    }
    assert events(match, "pk_start") == []
    check_log(match.to_log())


def test_swap_checks_by_counts_name_the_problems_the_card_lists_give():  # R-MATCH-5
    checked = refused = 0
    for seed in range(4):
        match = Match.new(sample_side_deck(40 + seed), sample_side_deck(50 + seed), seed=seed)
        rng = random.Random(seed)
        while match.decision != HALFTIME:
            match.apply_action(match.random_legal_action(rng))
        side = match.actor
        state = match._s[side]
        outs = sorted({card.id for card in state.owned})
        ins = sorted({card.id for card in state.bench})
        for out, into in product(outs, ins):
            if out == into:
                continue
            deck, bench = match._after_swaps(state, ((out, into),))
            problems = deck_problems(
                deck=[(card, 1) for card in deck],
                bench=[(card, 1) for card in bench],
                goalkeeper=state.goalkeeper,
                pk_goalkeeper=match.side_decks[side].pk_goalkeeper,
            )
            expected = (
                "After these swaps: " + " ".join(p.message for p in problems) if problems else None
            )
            assert match._swaps_problem(side, ((out, into),)) == expected
            checked += 1
            refused += expected is not None
    assert checked > 100 and 0 < refused < checked  # both kinds were compared
