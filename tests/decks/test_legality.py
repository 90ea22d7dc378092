"""Each construction rule (R-DECK-1..5, R-PK-1): a minimal legal deck and the smallest illegal
variant, checked through the decks adapter to the one legality function."""

from dataclasses import replace

import pytest

from catalog.models import Card
from decks.content import DeckContent
from decks.legality import content_problems, engine_card
from decks.selectors import cards_of, content_check

pytestmark = pytest.mark.django_db


def rules(content: DeckContent) -> list[str]:
    return [p.rule for p in content_problems(content, cards_of(content))]


def one_of(kind: str, set_code: str = "BS", nth: int = 0) -> Card:
    return Card.objects.filter(card_set_id=set_code, kind=kind).order_by("number")[nth]


def with_deck(content: DeckContent, **changes: int) -> DeckContent:
    deck = dict(content.deck)
    for card_id, quantity in changes.items():
        card_id = card_id.replace("_", "-")
        if quantity:
            deck[card_id] = quantity
        else:
            deck.pop(card_id, None)
    return replace(content, deck=deck)


def test_the_minimal_deck_is_legal(legal_content):
    assert sum(legal_content.deck.values()) == 60
    assert rules(legal_content) == []


def test_r_deck_1_a_deck_of_59_or_61_cards_is_rejected(legal_content):
    first = next(iter(legal_content.deck))
    for quantity in (5, 7):
        content = replace(legal_content, deck={**legal_content.deck, first: quantity})
        assert rules(content) == ["R-DECK-1"]


def test_r_deck_2_a_goalkeeper_card_in_the_deck_is_rejected(legal_content):
    first = next(iter(legal_content.deck))
    keeper = one_of("goalkeeper", nth=1)
    deck = {**legal_content.deck, first: 5, keeper.id: 1}
    problems = content_problems(
        replace(legal_content, deck=deck), cards_of(legal_content) | {keeper.id: keeper}
    )
    assert [p.rule for p in problems] == ["R-DECK-2"]
    assert problems[0].cards == (keeper.id,)


def test_events_fill_the_deck_without_counting_as_persons(legal_content):
    events = Card.objects.filter(kind="event").order_by("id")[:2]
    first, second = list(legal_content.deck)[:2]
    deck = {**legal_content.deck, first: 3, second: 3, events[0].id: 3, events[1].id: 3}
    assert rules(replace(legal_content, deck=deck)) == []


def test_r_deck_3_eleven_or_nine_persons_are_rejected(legal_content):
    ids = list(legal_content.deck)
    used = {Card.objects.get(id=i).person for i in ids}
    stranger = Card.objects.filter(kind="player").exclude(person__in=used).first()
    eleven = {**legal_content.deck, ids[0]: 5, stranger.id: 1}
    problems = content_problems(
        replace(legal_content, deck=eleven), cards_of(legal_content) | {stranger.id: stranger}
    )
    assert [p.rule for p in problems] == ["R-DECK-3"]
    assert "11 persons" in problems[0].message
    nine = {i: n for i, n in legal_content.deck.items() if i != ids[1]} | {ids[0]: 12}
    assert rules(replace(legal_content, deck=nine)) == ["R-DECK-3"]


def test_r_deck_3_the_same_person_in_two_sets_is_one_person(legal_content):
    people = {}
    for card in Card.objects.filter(kind="player").order_by("id"):
        people.setdefault(card.person, []).append(card)
    twins = next(cards for cards in people.values() if len(cards) >= 2)
    assert twins[0].id != twins[1].id
    chosen, seen = [], {twins[0].person}
    for card in Card.objects.filter(kind="player").order_by("id"):
        if card.person not in seen:
            seen.add(card.person)
            chosen.append(card)
        if len(chosen) == 9:
            break
    deck = {c.id: 6 for c in chosen} | {twins[0].id: 3, twins[1].id: 3}
    assert rules(replace(legal_content, deck=deck)) == []


def test_r_deck_4_a_missing_or_wrong_goalkeeper_is_rejected(legal_content):
    assert rules(replace(legal_content, goalkeeper=None)) == ["R-DECK-4"]
    player = next(iter(legal_content.deck))
    assert rules(replace(legal_content, goalkeeper=player)) == ["R-DECK-4"]


def test_r_deck_5_twenty_bench_cards_are_allowed_and_twenty_one_are_not(legal_content):
    player = one_of("player", nth=30)
    assert rules(replace(legal_content, bench={player.id: 20})) == []
    assert rules(replace(legal_content, bench={player.id: 21})) == ["R-DECK-5"]


def test_r_pk_1_the_pk_goalkeeper_must_be_a_goalkeeper_on_the_bench(legal_content):
    keeper = one_of("goalkeeper", nth=2)
    on_bench = replace(legal_content, pk_goalkeeper=keeper.id, bench={keeper.id: 1})
    assert rules(on_bench) == []
    assert rules(replace(on_bench, bench={})) == ["R-PK-1"]
    player = one_of("player", nth=40)
    assert rules(replace(on_bench, pk_goalkeeper=player.id, bench={player.id: 1})) == ["R-PK-1"]


def test_every_problem_is_reported_at_once():
    player = one_of("player")
    content = DeckContent(goalkeeper=None, deck={player.id: 3}, bench={player.id: 21})
    problems, _cards = content_check(content)
    assert [p.rule for p in problems] == ["R-DECK-1", "R-DECK-3", "R-DECK-4", "R-DECK-5"]
    assert all(p.message for p in problems)


def test_engine_cards_carry_no_empty_person_or_effect():
    event, player = one_of("event"), one_of("player")
    assert engine_card(event).person is None and engine_card(event).effect == event.effect
    assert engine_card(player).effect is None and engine_card(player).person == player.person


def test_deck_problems_are_said_in_japanese_with_their_rule_ids():
    from django.utils import translation

    content = DeckContent(deck={"BS-012": 3})
    cards = Card.objects.in_bulk(["BS-012"])
    with translation.override("ja"):
        problems = content_problems(content, cards)
    assert [p.rule for p in problems] == ["R-DECK-1", "R-DECK-3", "R-DECK-4"]
    assert problems[0].message == "デッキは3枚です。ちょうど60枚でなければなりません。"
    with translation.override("en"):
        english = content_problems(content, cards)
    assert english[0].message == "The deck has 3 cards; it must have exactly 60."
