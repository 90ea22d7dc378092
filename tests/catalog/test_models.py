"""The database holds the catalog's invariants itself (constraints, not only forms)."""

import pytest
from django.db import IntegrityError, transaction

from catalog.models import Card

pytestmark = pytest.mark.django_db


def make(**overrides):
    values = dict(
        id="BS-900",
        card_set_id="BS",
        number=900,
        name="Test Player",
        kind="player",
        position="FW",
        person="Test Player",
        shoot=5,
        keep=3,
        defense=1,
    )
    values.update(overrides)
    return Card(**values)


def assert_rejected(card):
    with pytest.raises(IntegrityError), transaction.atomic():
        card.save()


def test_a_valid_player_saves():
    make().save()
    assert Card.objects.get(id="BS-900").search_text == "test player  test player"


def test_set_and_number_are_unique():
    assert_rejected(make(id="BS-901", number=1))


def test_stats_cannot_be_negative():
    assert_rejected(make(shoot=-1))


def test_goalkeeper_must_have_position_gk():
    assert_rejected(make(kind="goalkeeper", position="FW"))


def test_position_gk_is_only_for_goalkeepers():
    assert_rejected(make(kind="player", position="GK"))


def test_player_needs_a_field_position():
    assert_rejected(make(position=""))


def test_event_has_no_position_or_stats():
    assert_rejected(
        make(kind="event", position="", person="", shoot=2, keep=0, defense=0, effect="draw:1")
    )
    assert_rejected(
        make(kind="event", position="MF", person="", shoot=0, keep=0, defense=0, effect="draw:1")
    )


def test_only_events_carry_effects():
    assert_rejected(make(effect="draw:1"))


def test_search_text_is_nfkc_folded_and_katakana_read_as_hiragana():
    make(name="ＡＲＡＩ Kenta", name_ja="ｱﾗｲ ｹﾝﾀ").save()
    card = Card.objects.get(id="BS-900")
    assert "arai kenta" in card.search_text
    assert "あらい けんた" in card.search_text


def test_the_reading_is_part_of_the_search_text():
    make(name="Kenta Suzuki", name_ja="鈴木 健太", name_kana="スズキ ケンタ").save()
    assert Card.objects.get(id="BS-900").search_text.endswith(" すずき けんた")


@pytest.mark.django_db
def test_catalog_order_is_the_sets_display_order_then_the_number():
    from catalog.models import CardSet

    cards = list(Card.objects.select_related("card_set"))
    by_set_and_number = sorted(cards, key=lambda c: (c.card_set.display_order, c.number))
    assert [c.id for c in sorted(cards, key=lambda c: c.catalog_order)] == [
        c.id for c in by_set_and_number
    ]
    first, second = CardSet.objects.order_by("display_order")[:2]
    first.display_order, second.display_order = 998, 999
    first.save()
    second.save()
    assert Card.objects.order_by("-catalog_order").first().card_set_id == second.code
    assert Card.objects.filter(card_set=first).first().catalog_order // 1000 == 998
