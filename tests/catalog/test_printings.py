"""Printings (issue #24 item 4): every card has one first printing; other printings have their
own set number and code; edits are checked field by field (in English and Japanese); search
finds cards by their printings; the card page and the card API list them."""

import pytest
from django.db import IntegrityError, transaction
from django.forms import modelform_factory
from django.utils import translation

from catalog.models import Card, Printing
from catalog.search.query import QuerySyntaxError, parse_query
from catalog.search.selectors import card_search
from tests.printings import make_printings

pytestmark = pytest.mark.django_db


@pytest.fixture
def printed(db):
    return make_printings()


def found(query: str) -> set[str]:
    return set(card_search(query=query).values_list("id", flat=True))


# --- the model ------------------------------------------------------------------------------


def test_every_loaded_card_has_exactly_one_first_printing_under_its_own_number():
    assert Printing.objects.filter(kind="first").count() == Card.objects.count()
    assert not Card.objects.exclude(printings__kind="first").exists()
    first = Printing.objects.get(card_id="BS-014", kind="first")
    assert (first.code, first.card_set_id, first.number, first.is_sample) == (
        "BS-014",
        "BS",
        14,
        True,
    )


def test_a_new_card_gets_its_first_printing(printed):
    card = Card.objects.create(
        id="ZR-002",
        card_set_id="ZR",
        number=2,
        name="New Event",
        kind="event",
        effect="draw:1",
    )
    assert list(card.printings.values_list("code", "kind", "is_sample")) == [
        ("ZR-002", "first", False)
    ]


def test_codes_name_set_number_and_finish(printed):
    assert set(printed) == {"ZR-001", "ZP-007", "BS-001-foil", "ZP-008", "BS-003-parallel"}
    assert Printing.objects.filter(card_id="BS-001").count() == 4


def test_the_database_keeps_one_first_printing_per_card_and_unique_codes(printed):
    with pytest.raises(IntegrityError), transaction.atomic():
        Printing.objects.create(card_id="BS-001", card_set_id="ZR", number=9, kind="first")
    with pytest.raises(IntegrityError), transaction.atomic():
        Printing.objects.create(card_id="BS-002", card_set_id="ZP", number=7, kind="promo")
    with pytest.raises(IntegrityError), transaction.atomic():
        Printing.objects.create(card_id="BS-001", card_set_id="ZR", number=3, kind="shiny")


PrintingForm = modelform_factory(
    Printing, fields=["card", "card_set", "number", "kind", "label", "notes", "is_sample"]
)


def form_errors(**data) -> dict:
    base = {"card": "BS-004", "card_set": "ZP", "number": 20, "kind": "promo", "is_sample": True}
    form = PrintingForm(data={**base, **data})
    assert not form.is_valid()
    return form.errors


def test_an_edit_names_each_bad_field_and_saves_nothing(printed):
    count = Printing.objects.count()
    assert "kind" in form_errors(kind="first")  # a first print is the card's own number
    assert "number" in form_errors(kind="foil")  # no plain print ZP-020 of BS-004
    assert "number" in form_errors(number=7)  # ZP-007 is BS-001's promo
    assert "number" in form_errors(card_set="BS", number=5, kind="reprint")  # BS-005's number
    assert "is_sample" in form_errors(is_sample=False)  # BS-004 is a sample card
    assert "number" in form_errors(number=1000)
    assert "kind" in form_errors(kind="shiny")
    assert Printing.objects.count() == count
    good = PrintingForm(
        data={"card": "BS-004", "card_set": "BS", "number": 4, "kind": "foil", "is_sample": True}
    )
    assert good.is_valid(), good.errors
    assert good.save().code == "BS-004-foil"


def test_edit_errors_are_said_in_japanese(printed):
    with translation.override("ja"):
        errors = form_errors(kind="foil", is_sample=False)
        number, is_sample = str(errors["number"][0]), list(errors["is_sample"])
    assert "ホイル版・パラレル版の番号" in number
    assert is_sample == ["サンプルカードの版はサンプルです。"]


# --- search ---------------------------------------------------------------------------------


def test_is_and_printing_terms_find_cards_by_their_printings(printed):
    assert found("is:promo") == found("printing:promo") == {"BS-001", "BS-002"}
    assert found("is:reprint") == {"BS-001"}
    assert found("is:foil") == {"BS-001"}
    assert found("is:parallel") == {"BS-003"}
    assert found("printing:foil,parallel") == {"BS-001", "BS-003"}
    assert found("set:BS -is:promo") == found("set:BS") - {"BS-001", "BS-002"}
    assert found("set:BS not:promo") == found("set:BS printing!=promo") == found("set:BS -is:promo")
    assert found("printing:first") == set(Card.objects.values_list("id", flat=True))


def test_a_card_with_many_printings_is_found_once(printed):
    assert list(card_search(query="is:promo or is:foil").values_list("id", flat=True)) == [
        "BS-001",
        "BS-002",
    ]


def test_printings_compares_the_number_of_printings(printed):
    every = set(Card.objects.values_list("id", flat=True))
    assert found("printings>1") == {"BS-001", "BS-002", "BS-003"}
    assert found("printings>=4") == found("printings:4") == {"BS-001"}
    assert found("printings:2") == {"BS-002", "BS-003"}
    assert found("printings:1") == found("printings<2") == every - {"BS-001", "BS-002", "BS-003"}
    assert found("printings!=1") == {"BS-001", "BS-002", "BS-003"}
    assert found("printings>=0") == every and found("printings:0") == set()
    assert parse_query("printings>1").description == "printings > 1"
    assert parse_query("-is:promo").description == "has no promo printing"


@pytest.mark.parametrize(
    "query, message",
    [
        (
            "printing:shiny",
            'Unknown printing "shiny" at column 10 (known: first, reprint, promo, parallel, foil)',
        ),
        (
            "printing:promo,fiol",
            'Unknown printing "fiol" at column 16 (did you mean "foil"? known: first, reprint, '
            "promo, parallel, foil)",
        ),
        ("printings>x", '"printings" needs a number at column 11'),
        ("printings>99999", '"printings" needs a number at column 11 (0 to 9999)'),
        ("printing>promo", '"printing" cannot be compared with ">" at column 9 (use ":" or "!=")'),
        ("printing:", '"printing" needs a value at column 10'),
    ],
)
def test_bad_printing_terms_name_the_problem_and_its_column(query, message):
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query(query)
    assert str(caught.value) == message


def test_bad_printing_terms_are_said_in_japanese():
    with translation.override("ja"), pytest.raises(QuerySyntaxError) as caught:
        parse_query("printing:shiny")
    assert str(caught.value).startswith("10文字目：不明な版「shiny」")


# --- the card page and the API --------------------------------------------------------------


def test_the_card_page_lists_the_printings(client, printed):
    html = client.get("/cards/BS-001/").content.decode()
    for code in ("BS-001", "BS-001-foil", "ZR-001", "ZP-007"):
        assert f'data-printing="{code}"' in html
    assert "Magazine promo" in html and "Given with a magazine" in html
    assert "Decks count the card whatever its printing." in html
    client.cookies["django_language"] = "ja"
    html = client.get("/cards/BS-001/").content.decode()
    assert "初版" in html and "再録" in html and "ホイル" in html and "テスト再録" in html


def test_the_api_shows_a_cards_printings_first_print_first(client, printed):
    card = client.get("/api/cards/bs-001/").json()
    assert [(p["code"], p["kind"]) for p in card["printings"]] == [
        ("BS-001", "first"),
        ("BS-001-foil", "foil"),
        ("ZR-001", "reprint"),
        ("ZP-007", "promo"),
    ]
    promo = card["printings"][3]
    assert promo == {
        "code": "ZP-007",
        "set": "ZP",
        "number": 7,
        "kind": "promo",
        "label": "Magazine promo",
        "notes": "Given with a magazine",
        "is_sample": True,
    }
    listed = client.get("/api/cards/", {"q": "is:promo"}).json()["results"]
    assert [c["id"] for c in listed] == ["BS-001", "BS-002"]
    assert "printings" not in listed[0]  # a search page stays three queries


def test_a_new_printing_is_seen_at_once_despite_the_search_cache(client):
    assert client.get("/api/cards/", {"q": "is:foil id:BS-004"}).json()["count"] == 0
    Printing.objects.create(card_id="BS-004", card_set_id="BS", number=4, kind="foil")
    assert client.get("/api/cards/", {"q": "is:foil id:BS-004"}).json()["count"] == 1
    after = client.get("/api/cards/BS-004/").json()
    assert [p["code"] for p in after["printings"]] == ["BS-004", "BS-004-foil"]


def test_an_import_gives_new_cards_first_printings_and_a_card_made_real_a_real_print(tmp_path):
    from django.core.management import call_command

    header = "id,set,number,name,name_ja,kind,position,person,team,shoot,keep,defense,effect,"
    path = tmp_path / "cards.csv"
    path.write_text(
        header
        + "rarity\n"
        + "BS-240,BS,240,Real Forward,本物 選手,player,FW,Real Forward,kashima,7,3,1,,R\n"
        + "BS-012,BS,12,Real Twelve,本物 十二,event,,,,0,0,0,draw:1,C\n",
        encoding="utf-8",
    )
    assert Printing.objects.get(card_id="BS-012", kind="first").is_sample is True
    call_command("import_cards", str(path))
    assert Printing.objects.get(card_id="BS-240", kind="first").is_sample is False
    assert Printing.objects.get(card_id="BS-012", kind="first").is_sample is False


def test_a_first_printing_stays_first_and_cannot_be_deleted_in_the_admin(printed, rf):
    from django.contrib.admin.sites import site

    first = Printing.objects.get(card_id="BS-001", kind="first")
    form = PrintingForm(
        data={"card": "BS-001", "card_set": "BS", "number": 1, "kind": "promo", "is_sample": True},
        instance=first,
    )
    assert not form.is_valid() and "kind" in form.errors
    admin = site._registry[Printing]
    request = rf.get("/")
    request.user = type("Editor", (), {"has_perm": lambda self, perm: True})()
    first.refresh_from_db()  # the form changed the instance it checked
    assert admin.has_delete_permission(request, first) is False
    assert admin.has_delete_permission(request, printed["ZP-007"]) is True


def test_the_card_admin_refuses_to_delete_a_first_printing(admin_client):
    from catalog.importer import card_row

    card = Card.objects.get(id="BS-004")
    row = card_row(card)
    first = card.printings.get(kind="first")
    form = {
        "id": card.id,
        "card_set": card.card_set_id,
        "number": card.number,
        "name": card.name,
        "name_ja": row["name_ja"],
        "kind": card.kind,
        "position": card.position,
        "person": card.person,
        "team": card.team_id or "",
        "shoot": card.shoot,
        "keep": card.keep,
        "defense": card.defense,
        "effect": card.effect,
        "rarity": card.rarity,
        "source": "",
        "printings-TOTAL_FORMS": "1",
        "printings-INITIAL_FORMS": "1",
        "printings-0-id": first.pk,
        "printings-0-card": card.id,
        "printings-0-card_set": "BS",
        "printings-0-number": card.number,
        "printings-0-kind": "first",
        "printings-0-is_sample": "on",
        "printings-0-DELETE": "on",
    }
    response = admin_client.post(f"/admin/catalog/card/{card.id}/change/", form)
    assert response.status_code == 200
    assert "A card&#x27;s first printing cannot be deleted." in response.content.decode()
    assert Printing.objects.filter(pk=first.pk).exists()
