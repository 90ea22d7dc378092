"""Deck construction (R-DECK-1..5, R-PK-1): a minimal legal deck and its smallest illegal twins."""

from play.engine.legality import Problem, deck_problems
from play.engine.testing import event, goalkeeper, player

PERSONS = [player(f"P-{n:03d}", 1, 1, 1, person=f"Person {n}") for n in range(1, 11)]
EVENT = event("EV-001", "draw:1")
KEEPER = goalkeeper("GK-001", 4)
PK_KEEPER = goalkeeper("GK-002", 6)


def minimal_deck():
    """Ten persons, six copies each: the smallest legal deck."""
    return [(card, 6) for card in PERSONS]


def problems(deck=None, bench=(), keeper=KEEPER, pk_keeper=None):
    return deck_problems(
        deck=minimal_deck() if deck is None else deck,
        bench=list(bench),
        goalkeeper=keeper,
        pk_goalkeeper=pk_keeper,
    )


def test_the_minimal_deck_is_legal():
    assert problems() == []


def test_a_deck_with_events_and_a_pk_keeper_on_the_bench_is_legal():
    deck = [(card, 5) for card in PERSONS] + [(EVENT, 10)]
    assert problems(deck, bench=[(PK_KEEPER, 1), (EVENT, 19)], pk_keeper=PK_KEEPER) == []


def test_a_deck_of_59_cards_is_rejected():  # R-DECK-1
    deck = minimal_deck()
    deck[0] = (PERSONS[0], 5)
    assert problems(deck) == [
        Problem("R-DECK-1", "The deck has 59 cards; it must have exactly 60.")
    ]


def test_a_deck_of_61_cards_is_rejected():  # R-DECK-1
    deck = minimal_deck() + [(EVENT, 1)]
    assert [p.rule for p in problems(deck)] == ["R-DECK-1"]


def test_the_same_card_in_several_entries_is_summed():  # R-DECK-1
    deck = minimal_deck()[1:] + [(PERSONS[0], 2), (PERSONS[0], 4)]
    assert problems(deck) == []


def test_a_goalkeeper_in_the_deck_is_rejected():  # R-DECK-2
    deck = minimal_deck()
    deck[0] = (PERSONS[0], 5)
    deck.append((KEEPER, 1))
    assert problems(deck) == [
        Problem(
            "R-DECK-2",
            "The deck may hold only field player and event cards; these must stay out of it: "
            "GK-001.",
            ("GK-001",),
        )
    ]


def test_eleven_persons_are_rejected_listing_persons_and_cards():  # R-DECK-3
    deck = minimal_deck()
    deck[0] = (PERSONS[0], 5)
    deck.append((player("P-011", person="Person 11"), 1))
    [problem] = problems(deck)
    assert problem.rule == "R-DECK-3"
    assert problem.message.startswith("The deck's player cards name 11 persons (Person 1, ")
    assert problem.message.endswith("they must name exactly 10.")
    assert len(problem.cards) == 11 and "P-011" in problem.cards


def test_nine_persons_are_rejected():  # R-DECK-3
    deck = [(card, 6) for card in PERSONS[:9]] + [(EVENT, 6)]
    assert [p.rule for p in problems(deck)] == ["R-DECK-3"]


def test_two_cards_of_one_person_count_as_one_person():  # R-DECK-3, R-CARD-3
    other_version = player("P-099", 9, 9, 9, person="Person 1")
    deck = minimal_deck()
    deck[0] = (PERSONS[0], 3)
    deck.append((other_version, 3))
    assert problems(deck) == []


def test_a_missing_goalkeeper_is_rejected():  # R-DECK-4
    assert problems(keeper=None) == [
        Problem("R-DECK-4", "No goalkeeper is given; each side brings exactly 1.")
    ]


def test_a_field_player_given_as_goalkeeper_is_rejected():  # R-DECK-4
    assert problems(keeper=PERSONS[0]) == [
        Problem("R-DECK-4", "P-001 is a player card, not a goalkeeper.", ("P-001",))
    ]


def test_a_bench_of_21_cards_is_rejected():  # R-DECK-5
    assert problems(bench=[(EVENT, 20)]) == []
    assert problems(bench=[(EVENT, 20), (PERSONS[0], 1)]) == [
        Problem("R-DECK-5", "The bench has 21 cards; it may have at most 20.")
    ]


def test_a_pk_goalkeeper_must_be_a_goalkeeper_on_the_bench():  # R-PK-1
    assert [p.message for p in problems(pk_keeper=PK_KEEPER)] == [
        "The PK goalkeeper GK-002 is not among the bench cards."
    ]
    assert [p.message for p in problems(bench=[(PERSONS[0], 1)], pk_keeper=PERSONS[0])] == [
        "The PK goalkeeper P-001 is a player card, not a goalkeeper."
    ]


def test_every_problem_is_reported_at_once_in_rule_order():
    deck = [(PERSONS[0], 3), (KEEPER, 1)]
    found = problems(deck, bench=[(EVENT, 21)], keeper=None, pk_keeper=PERSONS[1])
    assert [p.rule for p in found] == [
        "R-DECK-1",
        "R-DECK-2",
        "R-DECK-3",
        "R-DECK-4",
        "R-DECK-5",
        "R-PK-1",
        "R-PK-1",
    ]


def test_problems_convert_to_json_ready_dicts():
    problem = Problem("R-DECK-2", "msg", ("A-1",))
    assert problem.to_dict() == {"rule": "R-DECK-2", "message": "msg", "cards": ["A-1"]}
