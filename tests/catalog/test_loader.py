"""load_catalog: the real set/product table, the sample pool's counts, idempotence."""

import pytest
from django.core.management import call_command
from django.db.models import Count

from catalog import sample
from catalog.models import Card, CardSet, Product, Team
from catalog.services import catalog_load

pytestmark = pytest.mark.django_db


def test_the_six_sets_are_loaded_in_release_order():
    codes = list(CardSet.objects.values_list("code", flat=True))
    assert codes == ["CD00", "BS", "2ND", "CD01", "02", "JP"]
    basic = CardSet.objects.get(code="BS")
    assert (basic.name, basic.name_ja, basic.released.strftime("%Y-%m")) == (
        "Basic Set",
        "基本セット",
        "2001-06",
    )


def test_products_are_exactly_the_release_table():
    rows = set(Product.objects.values_list("card_set_id", "kind", "cards_per_product", "price_yen"))
    assert rows == {
        ("CD00", "prebuilt_starter", 67, 1500),
        ("BS", "starter", 67, 1500),
        ("BS", "booster", 8, 300),
        ("2ND", "booster", 8, 300),
        ("CD01", "prebuilt_starter", 73, 1500),
        ("02", "starter", 67, 1500),
        ("02", "booster", 8, 300),
        ("JP", "booster", 8, 350),
    }
    assert "beta" in Product.objects.get(card_set_id="CD00").notes.lower()


def test_sample_pool_has_the_real_card_count_per_set():
    counts = dict(Card.objects.values_list("card_set_id").annotate(n=Count("id")))
    assert counts["BS"] == 239
    assert counts["2ND"] == 116
    assert counts["02"] == 187
    assert counts["JP"] == 93
    pool = sample.generate()
    for code in ("CD00", "CD01"):
        deck_cards = {
            card_id
            for deck in pool.decks
            if deck.set_code == code
            for card_id, _ in [*deck.deck, *deck.bench, (deck.goalkeeper, 1)]
        }
        assert counts[code] == len(deck_cards)


def test_every_loaded_card_is_marked_sample():
    assert Card.objects.count() == 715
    assert not Card.objects.filter(is_sample=False).exists()


def test_every_set_has_goalkeepers_and_events():
    for card_set in CardSet.objects.all():
        kinds = set(card_set.cards.values_list("kind", flat=True))
        assert {"goalkeeper", "event", "player"} <= kinds, card_set.code


def test_persons_recur_across_sets():
    persons = (
        Card.objects.exclude(person="")
        .values("person")
        .annotate(sets=Count("card_set", distinct=True))
        .filter(sets__gt=1)
    )
    assert persons.count() > 50


def test_japan_set_belongs_to_the_national_team():
    teams = set(
        Card.objects.filter(card_set_id="JP")
        .exclude(kind="event")
        .values_list("team_id", flat=True)
    )
    assert teams == {"japan"}
    assert Team.objects.filter(is_national=True).count() == 1


def test_generation_is_deterministic():
    first, second = sample.generate(), sample.generate()
    assert [c.as_row() for c in first.cards] == [c.as_row() for c in second.cards]


def test_stats_are_plausible_by_position():
    def avg(pos, stat):
        values = list(Card.objects.filter(position=pos).values_list(stat, flat=True))
        return sum(values) / len(values)

    assert avg("FW", "shoot") > avg("DF", "shoot")
    assert avg("DF", "defense") > avg("FW", "defense")
    assert len(set(Card.objects.filter(kind="goalkeeper").values_list("defense", flat=True))) > 3


def test_loading_twice_changes_nothing():
    before = list(Card.objects.order_by("id").values())
    report = catalog_load()
    assert report.metadata_changes == 0
    assert (report.cards.created, report.cards.updated) == (0, 0)
    assert list(Card.objects.order_by("id").values()) == before


def test_load_catalog_command_reports_what_it_did(capsys):
    call_command("load_catalog")
    assert "0 created, 0 updated, 715 unchanged" in capsys.readouterr().out
