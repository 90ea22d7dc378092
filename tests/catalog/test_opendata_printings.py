"""Printings in the open data (format version 2): every card lists its printings, first print
first; an import carries the printings this catalogue lacks into the changeset's review, checks
them again on accept as a printing proposal is, and refuses bad printings naming the card and
the field, saving nothing."""

import json

import pytest
from django.test import Client

from catalog import opendata
from catalog.contributions.open_data import import_changeset
from catalog.contributions.services import ProposalError
from catalog.models import CardProposal, CardSet, Changeset, Printing
from catalog.opendata_import import ExportRejected, read_export
from tests.catalog.test_opendata_import import BY_HAND, accept_all, checksummed, make_editor

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(db):
    return make_editor("erin")


FIRST = {
    "code": "BS-007",
    "kind": "first",
    "set": "BS",
    "number": 7,
    "label": "",
    "notes": "",
    "is_sample": False,
}


def version_2(*printings: dict, first: dict | None = None) -> dict:
    """The hand-written export as version 2, its card with these printings after its first."""
    document = json.loads(json.dumps(BY_HAND))
    document["version"] = 2
    document["cards"][0]["printings"] = [first or FIRST, *printings]
    return document


def as_files(document: dict) -> dict[str, bytes]:
    return {"BS.json": json.dumps(checksummed(document), ensure_ascii=False).encode()}


def printing(**fields) -> dict:
    return {**FIRST, "kind": "promo", "set": "CD00", "number": 98, "code": "CD00-098", **fields}


def refused(document: dict) -> str:
    with pytest.raises(ExportRejected) as caught:
        read_export(as_files(document))
    return "\n".join(caught.value.messages())


def test_the_export_lists_every_printing_first_print_first_and_validates(client):
    before = json.loads(client.get("/data/sets/BS.json").content)  # now in the cache
    assert len(before["cards"][1]["printings"]) == 1
    Printing(card_id="BS-002", card_set_id="CD00", number=98, kind="promo", is_sample=True).save()
    document = json.loads(client.get("/data/sets/BS.json").content)
    assert document["version"] == 2
    row = document["cards"][1]
    assert row["printings"] == [
        {**FIRST, "code": "BS-002", "number": 2, "is_sample": True},
        {**printing(), "is_sample": True, "number": 98},
    ]
    assert all(len(card["printings"]) == 1 for card in document["cards"] if card["id"] != "BS-002")
    read_export({"BS.json": json.dumps(document).encode()})  # schema, checksum, checks: good


def test_a_version_1_export_is_still_read_and_its_printings_are_refused(editor):
    [entry] = read_export(as_files(BY_HAND)).cards
    assert entry.printings == []  # a version 1 card: only its implied first print
    document = json.loads(json.dumps(BY_HAND))
    document["cards"][0]["printings"] = [FIRST]
    assert "BS-007 · printings: is not a field of version 1" in refused(document)
    missing = version_2()
    del missing["cards"][0]["printings"]
    assert "BS-007 · printings: is required" in refused(missing)


def test_new_printings_are_reviewed_with_the_card_and_made_on_accept(editor):
    promo = printing(label="Shop promo", notes="Given at shops")
    foil = {**FIRST, "kind": "foil", "code": "BS-007-foil", "label": "Holo"}
    export = read_export(as_files(version_2(promo, foil, first={**FIRST, "label": "1st"})))
    [entry] = export.cards
    assert (entry.mark, entry.diff[-1]) == ("different", "printings")  # a sample here
    assert [(p["code"], p["mark"]) for p in entry.printings] == [
        ("BS-007", "different"),  # its label, against the bare first print a new card gets
        ("CD00-098", "new"),
        ("BS-007-foil", "new"),
    ]
    changeset = import_changeset(proposer=editor, export=export, instance="x")
    assert not Printing.objects.filter(code="CD00-098").exists()  # nothing before review
    page = Client()
    page.force_login(make_editor("rita"))
    shown = page.get(changeset.get_absolute_url()).content.decode()
    assert "CD00-098" in shown and "Shop promo" in shown and "BS-007-foil" in shown
    assert '<span class="muted small" data-diff>(Label)</span>' in shown  # its first print
    accept_all(changeset, make_editor("rita2"))
    made = {p.code: p for p in Printing.objects.filter(card_id="BS-007")}
    assert set(made) == {"BS-007", "CD00-098", "BS-007-foil"}
    assert (made["BS-007"].label, made["CD00-098"].notes) == ("1st", "Given at shops")
    assert opendata.set_document(CardSet.objects.get(code="BS"))["cards"][6]["printings"] == [
        {**FIRST, "label": "1st"},
        promo,
        foil,
    ]
    # The same export again: every printing is here as it is there.
    again = read_export(as_files(version_2(promo, foil, first={**FIRST, "label": "1st"})))
    assert [(e.mark, e.printings) for e in again.cards] == [("same", [])]


def test_a_printing_made_here_meanwhile_is_checked_again_on_accept_and_nothing_is_saved(editor):
    export = read_export(as_files(version_2(printing())))
    changeset = import_changeset(proposer=editor, export=export, instance="x")
    # Meanwhile another card's printing takes the code.
    Printing(card_id="BS-002", card_set_id="CD00", number=98, kind="promo", is_sample=True).save()
    with pytest.raises(ProposalError) as caught:
        accept_all(changeset, make_editor("rita"))
    assert "BS-007: CD00-098 is a printing of BS-002 here" in str(caught.value)
    assert "printings[CD00-098].code" in str(caught.value)
    changeset.refresh_from_db()
    assert changeset.status == Changeset.Status.PENDING
    assert not Printing.objects.filter(card_id="BS-007").exclude(kind="first").exists()
    assert Printing.objects.get(code="BS-007").card.is_sample  # the card was not applied either
    assert CardProposal.objects.get(changeset=changeset).status == "pending"


@pytest.mark.parametrize(
    ("printings", "said"),
    [
        ([printing(kind="shiny")], 'BS-007 · printings[2].kind: "shiny" is not allowed'),
        (
            [printing(number=1000, code="CD00-1000")],
            "BS-007 · printings[2].number: 1000 is above 999",
        ),
        ([printing(number=0)], "BS-007 · printings[2].number: 0 is below 1"),
        ([printing(), printing()], "BS-007 · printings[3].code: CD00-098 is given twice"),
        ([printing(set="ZZZ", code="ZZZ-098")], "BS-007 · printings[2].set: unknown set"),
        ([printing(label="x" * 101)], "BS-007 · printings[2].label: is 101 characters long"),
        ([printing(notes="x" * 301)], "BS-007 · printings[2].notes: is 301 characters long"),
        ([printing(label="a\x01b")], "BS-007 · printings[2].label: holds control characters"),
        ([printing(code="CD00-097")], "BS-007 · printings[2].code: is CD00-097, but its set"),
        ([printing(number=2, set="BS", code="BS-002")], "printings[2].number: That set number is"),
        (
            [{**FIRST, "kind": "foil", "number": 8, "code": "BS-008-foil"}],
            "BS-007 · printings[2].number: A foil or parallel printing takes the number",
        ),
        ([printing(colour="red")], "BS-007 · printings[2].colour: is not a field"),
        ([printing(is_sample="no")], "BS-007 · printings[2].is_sample: must be true or false"),
        ([{**FIRST, "code": "CD00-098", "set": "CD00", "number": 98}], "printings: must list"),
    ],
)
def test_bad_printings_are_refused_naming_the_card_and_field(editor, printings, said):
    assert said in refused(version_2(*printings))
    assert not Changeset.objects.exists()
    assert not Printing.objects.filter(card_id="BS-007").exclude(kind="first").exists()


def test_a_first_print_elsewhere_and_a_nul_byte_are_refused(editor):
    moved = version_2(first={**FIRST, "set": "CD00", "number": 98, "code": "CD00-098"})
    assert "BS-007 · printings[1].kind: A first printing is the card's own set" in refused(moved)
    nul = json.dumps(checksummed(version_2(printing(label="ab"))), ensure_ascii=False)
    raw = nul.replace('"label": "ab"', '"label": "a\\u0000b"').encode()
    with pytest.raises(ExportRejected) as caught:
        read_export({"BS.json": raw})
    assert caught.value.messages() == [
        "BS.json · BS-007 · printings[2].label: holds a NUL character"
    ]
