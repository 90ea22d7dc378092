"""Importing another instance's open-data export (issue #24 item 5): never applied directly, one
changeset marking each card new, same, different (with the fields) or kept; accepted, the
catalogue is the source's (ids, fields, revisions' provenance); bad input saves nothing."""

import hashlib
import io
import json
import zipfile
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.test import Client

from catalog import opendata
from catalog.contributions import changesets
from catalog.contributions.open_data import import_changeset
from catalog.models import (
    Card,
    CardProposal,
    CardRevision,
    Changeset,
    Erratum,
    Printing,
    Ruling,
)
from catalog.opendata_import import ExportRejected, files_from_path, read_export
from catalog.services import catalog_load
from decks.content import DeckContent
from decks.models import Deck
from decks.services import deck_create
from tests.decks.conftest import ten_persons

pytestmark = pytest.mark.django_db


def make_editor(name: str):
    user = get_user_model().objects.create_user(name, f"{name}@example.com", "correct-horse-3")
    user.user_permissions.add(Permission.objects.get(codename="review_proposal"))
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def editor(db):
    return make_editor("erin")


@pytest.fixture
def editor_client(editor):
    client = Client()
    client.force_login(editor)
    return client


def accept_all(changeset: Changeset, reviewer) -> Changeset:
    decisions = {p.pk: changesets.Decision(changesets.ACCEPT) for p in changeset.proposals.all()}
    return changesets.changeset_review(
        changeset=changeset, reviewer=reviewer, decisions=decisions, seen_version=changeset.version
    )


def propose(proposer, reviewer, text: str, source: str) -> None:
    changeset, _ = changesets.changeset_create(
        proposer=proposer, rows=changesets.rows_from_text(text), source=source
    )
    accept_all(changeset, reviewer)


HEADER = "set\tnumber\tname\tname_ja\tkind\tposition\tteam\tshoot\tkeep\tdefense\teffect\trarity"


def tsv(*lines: str) -> str:
    return "\n".join([HEADER, *lines]) + "\n"


def checksummed(document: dict) -> dict:
    """Add the checksum as docs/open-data.schema.json describes it (not with opendata.py)."""
    body = {key: value for key, value in document.items() if key != "checksum"}
    text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return {**body, "checksum": "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()}


def wipe_to_a_fresh_instance() -> None:
    """What a new instance holds: the sets, teams and sample pool, no history, no proposals."""
    CardRevision.objects.all().delete()
    CardProposal.objects.all().delete()
    Changeset.objects.all().delete()
    Deck.objects.all().delete()  # the prebuilt decks, made again by the load
    Card.objects.all().delete()
    catalog_load()


def folder_bytes(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_export_import_on_a_fresh_instance_accept_gives_the_same_catalogue(
    alice, editor, tmp_path, settings
):
    settings.CATALOG_LICENCE = "CC0-1.0"
    # Instance A: real cards replace samples in two sets, one is corrected twice.
    propose(
        alice,
        editor,
        tsv(
            "BS\t12\tReal Twelve\t本物十二\tplayer\tFW\tkashima\t7\t2\t1\t\tR",
            "BS\t13\tReal Thirteen\t\tplayer\tMF\t\t5\t4\t3\t\t",
            "BS\t1\tSave\t\tgoalkeeper\tGK\t\t0\t8\t2\t\t",
        ),
        "my binder",
    )
    propose(
        alice,
        editor,
        tsv("BS\t12\tReal Twelve\t本物十二\tplayer\tFW\tkashima\t8\t2\t1\t\tSR"),
        "errata",
    )
    propose(alice, editor, tsv("2ND\t5\tSecond Five\t\tplayer\tDF\t\t1\t2\t9\t\t"), "booster")
    Erratum.objects.create(
        card_id="BS-012",
        printed_text="Shoot +1",
        current_text="Shoot +2",
        source="errata sheet 2001",
        created_by=alice,
        accepted_by=editor,
    )
    Ruling.objects.create(
        card_id="BS-012",
        text="Counts as a forward.",
        ruling_date=date(2001, 9, 1),
        source="judge list",
        created_by=alice,
        accepted_by=editor,
    )
    # Its printings: a labelled first print, a shop promo and a foil; a sample's parallel.
    Printing.objects.filter(code="BS-012").update(label="First edition", notes="1st run")
    for printing in (
        Printing(card_id="BS-012", card_set_id="CD00", number=99, kind="promo", label="Shop"),
        Printing(card_id="BS-012", card_set_id="BS", number=12, kind="foil", label="Holo"),
        Printing(card_id="BS-050", card_set_id="BS", number=50, kind="parallel", is_sample=True),
    ):
        printing.full_clean()
        printing.save()
    source = tmp_path / "a"
    call_command("export_cards", "--open-data", str(source))
    exported = folder_bytes(source)
    row_there = json.loads(exported["sets/BS.json"])["cards"][11]
    assert len(row_there["errata"]) == len(row_there["rulings"]) == 1
    assert [(p["code"], p["kind"], p["label"]) for p in row_there["printings"]] == [
        ("BS-012", "first", "First edition"),
        ("CD00-099", "promo", "Shop"),  # in set order: the prebuilt decks came first
        ("BS-012-foil", "foil", "Holo"),
    ]
    history_there = row_there["provenance"]
    assert [r["revision"] for r in history_there] == [1, 2]

    wipe_to_a_fresh_instance()
    assert Card.objects.get(id="BS-012").is_sample and not CardRevision.objects.exists()
    # On the fresh instance a deck holds the sample BS-012 that a real card will replace.
    keeper = Card.objects.filter(card_set_id="BS", kind="goalkeeper").order_by("number").first()
    persons = {c.id: 6 for c in ten_persons()}
    persons.pop(next(iter(persons)))
    persons["BS-012"] = 6
    deck = deck_create(
        owner=alice, name="Held", content=DeckContent(goalkeeper=keeper.id, deck=persons)
    )

    importer, reviewer = make_editor("ivan"), make_editor("rita")
    export = read_export(files_from_path(source))
    marks = {entry.card_id: entry.mark for entry in export.cards}
    assert marks["BS-012"] == marks["2ND-005"] == marks["BS-050"] == "different"
    assert marks["BS-051"] == "same"
    by_id = {entry.card_id: entry for entry in export.cards}
    assert by_id["BS-050"].diff == ["printings"]  # only its parallel is not here
    assert [(p["code"], p["mark"]) for p in by_id["BS-012"].printings] == [
        ("BS-012", "different"),  # the label and notes of its first print
        ("CD00-099", "new"),
        ("BS-012-foil", "new"),
    ]
    changeset = import_changeset(proposer=importer, export=export, instance="https://a.example/")
    assert Card.objects.get(id="BS-012").is_sample
    assert not Printing.objects.filter(code__in=["BS-012-foil", "BS-050-parallel"]).exists()
    proposed = set(changeset.proposals.values_list("card_id", flat=True))
    # same cards make no proposal
    assert proposed == {"BS-001", "BS-012", "BS-013", "2ND-005", "BS-050"}
    assert changeset.card_set_id is None and changeset.origin["instance"]["licence"] == "CC0-1.0"
    assert (
        changeset.origin["instance"]["checksum"] == json.loads(exported["index.json"])["checksum"]
    )
    assert "BS-051" in changeset.origin["same"]

    accept_all(changeset, reviewer)
    again = tmp_path / "b"
    call_command("export_cards", "--open-data", str(again))
    assert folder_bytes(again) == exported  # ids, fields, revisions and provenance: the same bytes
    revision = CardRevision.objects.get(card_id="BS-012", number=2)
    assert revision.origin["instance"] == "https://a.example/"
    assert revision.origin["checksum"] == changeset.origin["instance"]["checksum"]
    assert (revision.proposed_by, revision.accepted_by) == (importer, reviewer)  # here
    assert revision.origin["accepted_by"] == "erin"  # there
    # The deck holding the replaced sample was checked again, its version naming the card.
    version = deck.versions.get(catalog_change=True)
    assert "BS-012" in version.summary
    erratum = Erratum.objects.get(card_id="BS-012")
    assert erratum.origin["proposed_by"] == "alice" and erratum.accepted_by == reviewer
    assert Ruling.objects.get(card_id="BS-012").origin["instance"] == "https://a.example/"


BY_HAND = {
    "format": "eleven-stars-catalogue",
    "version": 1,
    "licence": "CC-BY-SA-4.0",
    "set": {
        "code": "BS",
        "name": "Basic Set",
        "name_ja": "基本セット",
        "kind": "expansion",
        "released": "2001-06-01",
        "kinds_count": 239,
    },
    "cards": [
        {
            "id": "BS-007",
            "set": "BS",
            "number": 7,
            "name": "Hand Written",
            "name_ja": "手書き",
            "name_kana": "てがき",
            "kind": "player",
            "position": "MF",
            "person": "Hand Written",
            "team": "iwata",
            "shoot": 6,
            "keep": 3,
            "defense": 4,
            "effect": "",
            "rarity": "C",
            "is_sample": False,
            "status": "real",
            "source": "starter booklet p.3",
            "revision": 2,
            "provenance": [
                {
                    "revision": 1,
                    "source": "starter booklet p.3",
                    "proposed_by": "kenji",
                    "accepted_by": "mika",
                    "accepted_at": "2025-01-02T03:04:05+00:00",
                },
                {
                    "revision": 2,
                    "source": "errata sheet",
                    "proposed_by": None,
                    "accepted_by": "mika",
                    "accepted_at": "2025-02-03T04:05:06+00:00",
                },
            ],
        }
    ],
}


def test_an_export_written_by_hand_from_the_schema_is_imported(editor, tmp_path):
    path = tmp_path / "BS.json"
    path.write_text(json.dumps(checksummed(BY_HAND), ensure_ascii=False), encoding="utf-8")
    call_command("import_open_data", str(path), "--as", "erin", "--instance", "hand.example")
    changeset = Changeset.objects.get()
    [proposal] = changeset.proposals.all()
    assert proposal.card_id == "BS-007" and proposal.origin["mark"] == "different"
    assert "name" in proposal.origin["diff"] and changeset.card_set_id == "BS"
    assert changeset.origin["instance"]["licence"] == "CC-BY-SA-4.0"
    assert Card.objects.get(id="BS-007").is_sample  # nothing applied by the import
    accept_all(changeset, make_editor("rita"))
    card = Card.objects.get(id="BS-007")
    assert (card.name, card.team_id, card.source, card.is_sample) == (
        "Hand Written",
        "iwata",
        "starter booklet p.3",
        False,
    )
    document = opendata.set_document(card.card_set)
    row = next(c for c in document["cards"] if c["id"] == "BS-007")
    assert row["provenance"] == BY_HAND["cards"][0]["provenance"]
    assert row["revision"] == 2


def test_the_same_export_twice_has_nothing_to_review(editor, tmp_path):
    path = tmp_path / "BS.json"
    path.write_text(json.dumps(checksummed(BY_HAND)), encoding="utf-8")
    accept_all(
        import_changeset(proposer=editor, export=read_export(files_from_path(path)), instance="x"),
        make_editor("rita"),
    )
    export = read_export(files_from_path(path))
    assert {e.mark for e in export.cards} == {"same"}
    with pytest.raises(Exception, match="nothing to review"):
        import_changeset(proposer=editor, export=export, instance="x")
    assert Changeset.objects.count() == 1


def test_a_sample_there_never_replaces_a_real_card_here(editor, alice):
    propose(alice, editor, tsv("BS\t12\tReal Twelve\t\tplayer\tFW\t\t7\t2\t1\t\t"), "binder")
    wipe = opendata.set_document(Card.objects.get(id="BS-012").card_set)
    document = json.loads(json.dumps(wipe))
    row = next(c for c in document["cards"] if c["id"] == "BS-012")
    row.update(status="sample", is_sample=True, name="Sample", source="", revision=0, provenance=[])
    for printing in row["printings"]:  # a sample card's printings are samples too
        printing["is_sample"] = True
    document = checksummed(document)
    export = read_export({"BS.json": json.dumps(document).encode()})
    assert next(e for e in export.cards if e.card_id == "BS-012").mark == "kept"


# Bad input: a clear message naming file, card and field; nothing saved --------------------------


def hand_bytes(**changes) -> bytes:
    document = json.loads(json.dumps(BY_HAND))
    document.update(changes)
    return json.dumps(checksummed(document), ensure_ascii=False).encode()


def refused(files: dict[str, bytes]) -> list[str]:
    with pytest.raises(ExportRejected) as caught:
        read_export(files)
    return caught.value.messages()


def many_cards(n: int) -> bytes:
    card = {k: v for k, v in BY_HAND["cards"][0].items()}
    cards = [{**card, "id": f"BS-{i % 1000:03d}", "number": max(i % 1000, 1)} for i in range(n)]
    return hand_bytes(cards=cards)


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (lambda: many_cards(10_000), "10,000 cards; one import holds at most 5,000"),
        (lambda: hand_bytes().replace(b'"Hand Written"', b'"Hand\x00Written"', 1), "NUL byte"),
        (
            lambda: hand_bytes().replace(b'"shoot": 6', b'"shoot": ' + b"9" * 5000),
            "more than 20 digits",
        ),
        (
            lambda: json.dumps(checksummed(BY_HAND), ensure_ascii=False).encode("shift_jis"),
            "not UTF-8",
        ),
        (
            lambda: hand_bytes().replace("手書き".encode(), "手書き".encode("shift_jis")),
            "not UTF-8",
        ),
        (
            lambda: hand_bytes().replace(b'"kind": "player"', b'"kind": "player", "kind": "event"'),
            "appears twice",
        ),
        (lambda: hand_bytes().replace(b'"shoot": 6', b'"shoot": 7'), "checksum: does not match"),
        (lambda: hand_bytes(version=3), "version: version 3 is newer than this site reads (1, 2)"),
        (lambda: hand_bytes(format="something-else"), "is not an Eleven Stars open-data export"),
        (
            lambda: hand_bytes(version="1.0"),
            'version: "1.0" is not a version this site reads (1, 2)',
        ),
        (lambda: b'"\\u0000"', "NUL character"),
    ],
)
def test_hostile_files_give_a_clear_message_and_save_nothing(editor, tmp_path, raw, said):
    path = tmp_path / "BS.json"
    path.write_bytes(raw())
    with pytest.raises(CommandError):
        call_command("import_open_data", str(path), "--as", "erin", stderr=(err := io.StringIO()))
    assert said in err.getvalue(), err.getvalue()[:500]
    assert "BS.json" in err.getvalue()
    assert not Changeset.objects.exists() and not CardProposal.objects.exists()


def test_every_bad_field_is_named_with_its_card(editor):
    document = json.loads(json.dumps(BY_HAND))
    card = document["cards"][0]
    card.update(shoot="six", kind="striker", team="nowhere", colour="red")
    del card["rarity"]
    messages = "\n".join(refused({"BS.json": json.dumps(checksummed(document)).encode()}))
    for field in ("shoot", "kind", "colour", "rarity"):
        assert f"BS.json · BS-007 · {field}: " in messages, messages
    # The card check (unknown team, stats) runs once the schema holds.
    card.update(shoot=120, kind="player", rarity="C")
    del card["colour"]
    messages = "\n".join(refused({"BS.json": json.dumps(checksummed(document)).encode()}))
    assert "BS-007 · shoot: 120 is out of range" in messages
    assert "BS-007 · team: unknown team 'nowhere'" in messages


def test_a_bundle_is_checked_against_its_index(editor, tmp_path):
    call_command("export_cards", "--open-data", str(tmp_path))
    files = folder_bytes(tmp_path)
    files.pop("open-data.schema.json")
    files["sets/BS.json"] = files["sets/CD00.json"]
    messages = "\n".join(refused(files))
    assert "sets/BS.json · checksum: is not the checksum index.json gives" in messages
    del files["sets/BS.json"]
    assert any("sets/BS.json: is listed in index.json but missing" in m for m in refused(files))


def test_a_zip_of_the_data_folder_is_one_changeset(editor, alice, tmp_path):
    propose(alice, editor, tsv("BS\t12\tReal Twelve\t\tplayer\tFW\t\t7\t2\t1\t\t"), "binder")
    call_command("export_cards", "--open-data", str(tmp_path / "data"))
    CardRevision.objects.all().delete()
    Card.objects.filter(id="BS-012").delete()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, raw in folder_bytes(tmp_path / "data").items():
            archive.writestr(f"data/{name}", raw)
    (tmp_path / "export.zip").write_bytes(buffer.getvalue())
    call_command(
        "import_open_data", str(tmp_path / "export.zip"), "--as", "erin", stdout=io.StringIO()
    )
    changeset = Changeset.objects.get(origin__isnull=False)
    assert list(changeset.proposals.values_list("card_id", flat=True)) == ["BS-012"]
    assert changeset.proposals.get().origin["mark"] == "new"


# The upload page ---------------------------------------------------------------------------------


def test_only_editors_may_import_a_post_from_anyone_else_is_403(alice_client, anon_client):
    upload = io.BytesIO(hand_bytes())
    upload.name = "BS.json"
    for client in (alice_client, anon_client):
        assert client.get("/data/import/").status_code == 403
        answer = client.post("/data/import/", {"export": upload, "instance": "x"})
        assert answer.status_code == 403
    assert not Changeset.objects.exists()


def test_an_editor_uploads_an_export_reviews_it_and_it_applies(editor_client, editor):
    assert 'href="/data/import/"' in editor_client.get("/data/").content.decode()
    upload = io.BytesIO(hand_bytes())
    upload.name = "BS.json"
    answer = editor_client.post("/data/import/", {"export": upload, "instance": "hand.example"})
    changeset = Changeset.objects.get()
    assert answer.status_code == 302 and answer["Location"] == changeset.get_absolute_url()
    assert Card.objects.get(id="BS-007").is_sample
    reviewer = Client()
    reviewer.force_login(make_editor("rita"))
    page = reviewer.get(changeset.get_absolute_url()).content.decode()
    assert 'id="changeset-origin"' in page and "CC-BY-SA-4.0" in page and "hand.example" in page
    assert 'data-mark="different"' in page
    [proposal] = changeset.proposals.all()
    form = {"version": "1", f"action-{proposal.pk}": "accept"}
    assert reviewer.post(f"/changesets/{changeset.pk}/review/", form).status_code == 302
    assert Card.objects.get(id="BS-007").name == "Hand Written"
    assert CardRevision.objects.get(card_id="BS-007", number=2).origin["instance"] == "hand.example"
    history = reviewer.get("/cards/BS-007/history/").content.decode()
    assert "kenji" in history and "mika" in history and "imported from hand.example" in history


def test_a_bad_upload_says_why_in_english_and_japanese_and_saves_nothing(editor_client):
    upload = io.BytesIO(hand_bytes(version=3))
    upload.name = "BS.json"
    answer = editor_client.post("/data/import/", {"export": upload, "instance": "x"})
    assert answer.status_code == 400
    assert "BS.json · version: version 3 is newer than this site reads" in answer.content.decode()
    upload = io.BytesIO(json.dumps(checksummed(BY_HAND), ensure_ascii=False).encode("shift_jis"))
    upload.name = "BS.json"
    editor_client.cookies["django_language"] = "ja"
    answer = editor_client.post("/data/import/", {"export": upload, "instance": "x"})
    text = answer.content.decode()
    assert answer.status_code == 400 and "UTF-8" in text and "Shift-JIS" in text
    assert "is not UTF-8 text" not in text and "何も保存されていません" in text
    assert not Changeset.objects.exists()


def test_the_import_pages_speak_japanese(editor_client):
    from tests.test_japanese_pages import _data_words, english_in

    editor_client.cookies["django_language"] = "ja"
    page = editor_client.get("/data/import/").content.decode()
    assert english_in(page, _data_words()) == []
    upload = io.BytesIO(hand_bytes())
    upload.name = "BS.json"
    editor_client.post("/data/import/", {"export": upload, "instance": "hand.example"})
    changeset = Changeset.objects.get()
    reviewer = Client()
    reviewer.force_login(make_editor("rita"))
    reviewer.cookies["django_language"] = "ja"
    page = reviewer.get(changeset.get_absolute_url()).content.decode()
    data = _data_words() | {"Hand Written", "手書き", "てがき", "hand.example", "CC-BY-SA-4.0"}
    assert 'id="changeset-origin"' in page and english_in(page, data) == []
    queue = reviewer.get("/review/").content.decode()
    assert english_in(queue, _data_words()) == []


def test_what_the_schema_leaves_open_in_provenance_is_checked_too(editor):
    document = json.loads(json.dumps(BY_HAND))
    first, second = document["cards"][0]["provenance"]
    first.update(source="x" * 201, accepted_at="yesterday")
    second.update(revision=10**12, accepted_by="a\x01b")
    document["cards"][0]["revision"] = 10**12
    messages = "\n".join(refused({"BS.json": json.dumps(checksummed(document)).encode()}))
    assert "BS-007 · provenance[1].source: is 201 characters long" in messages
    assert 'BS-007 · provenance[1].accepted_at: "yesterday" is not a valid date-time' in messages
    assert "BS-007 · provenance[2].revision: 1000000000000 is above 1,000,000" in messages
    assert "BS-007 · provenance[2].accepted_by: holds control characters" in messages


def test_an_index_whose_counts_disagree_with_its_files_is_refused(editor, tmp_path):
    call_command("export_cards", "--open-data", str(tmp_path))
    files = folder_bytes(tmp_path)
    files.pop("open-data.schema.json")
    index = json.loads(files["index.json"])
    index["sets"][1]["real"] += 1
    files["index.json"] = json.dumps(checksummed(index)).encode()
    code = index["sets"][1]["code"]
    assert any(f"index.json · {code} · real: says 1 but" in m for m in refused(files))


ERRATUM = {
    "printed_text": "Keep 3",
    "current_text": "Keep 4",
    "source": "official errata",
    "proposed_by": "kenji",
    "accepted_by": None,
    "accepted_at": "2025-03-04T05:06:07+00:00",
}


def test_an_erratum_the_catalogue_lacks_makes_a_card_different_and_is_added(editor, alice):
    # The card here already is the export's card; only the erratum is new.
    first = hand_bytes()
    accept_all(
        import_changeset(proposer=editor, export=read_export({"BS.json": first}), instance="x"),
        make_editor("rita"),
    )
    document = json.loads(json.dumps(BY_HAND))
    document["cards"][0]["errata"] = [ERRATUM]
    export = read_export({"BS.json": json.dumps(checksummed(document)).encode()})
    [entry] = export.cards
    assert (entry.mark, entry.diff, entry.notes) == ("different", ["errata"], {"errata": [ERRATUM]})
    changeset = import_changeset(proposer=editor, export=export, instance="y")
    page = Client()
    page.force_login(make_editor("rita2"))
    assert "Keep 3" in page.get(changeset.get_absolute_url()).content.decode()
    revisions = CardRevision.objects.count()
    accept_all(changeset, make_editor("rita3"))
    assert CardRevision.objects.count() == revisions  # the card itself did not change
    erratum = Erratum.objects.get(card_id="BS-007")
    assert (erratum.current_text, erratum.origin["proposed_by"]) == ("Keep 4", "kenji")
    row = opendata.set_document(erratum.card.card_set)["cards"][6]
    assert row["errata"] == [ERRATUM]


def test_a_sample_card_with_errata_is_refused(editor):
    document = json.loads(json.dumps(BY_HAND))
    card = document["cards"][0]
    card.update(status="sample", is_sample=True, errata=[ERRATUM])
    messages = refused({"BS.json": json.dumps(checksummed(document)).encode()})
    assert "BS.json · BS-007 · errata: a sample card has no errata or rulings" in messages


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"instance": ""}, "取り込み元: 必須です"),
        ({"instance": "x" * 5000}, "取り込み元: 5000 文字あります（上限は 150 文字）"),
        ({"instance": "a\x07b"}, "取り込み元: 制御文字"),
        ({"instance": "a", "note": "n" * 5000}, "編集者へのメモ: 5000 文字あります"),
    ],
)
def test_a_bad_instance_or_note_is_named_by_its_label_in_japanese(editor_client, fields, said):
    # They read "instance: is required: say where the card's data comes from" in English on
    # the Japanese page, and a BEL in the instance was saved.
    editor_client.cookies["django_language"] = "ja"
    upload = io.BytesIO(hand_bytes())
    upload.name = "BS.json"
    answer = editor_client.post("/data/import/", {"export": upload, **fields})
    assert answer.status_code == 400
    assert said in answer.content.decode()
    assert not Changeset.objects.exists()


@pytest.mark.parametrize(
    ("name", "raw", "said"),
    [
        (
            "BS.json",
            b"hello world",
            "BS.json: JSON として読めません：JSON の書き方が正しくありません（1 行目、1 文字目）",
        ),
        ("data.zip", b"not a zip", "data.zip: ZIP ファイルではありません"),
        ("BS.json", b"  \n", "BS.json: 空です"),
        ("notes.json", b"{}", "notes.json · format: ありません。イレブンスターズの"),
        ("BS.json", b'{"format": "eleven-stars-catalogue"}', "BS.json · version: ありません"),
    ],
)
def test_a_file_that_is_no_export_is_refused_in_japanese_words(editor_client, name, raw, said):
    # Python's own texts showed in English on the Japanese page: "(Expecting value: line 1
    # column 1 (char 0))", "(File is not a zip file)".
    editor_client.cookies["django_language"] = "ja"
    upload = io.BytesIO(raw)
    upload.name = name
    answer = editor_client.post("/data/import/", {"export": upload, "instance": "x"})
    page = answer.content.decode()
    assert answer.status_code == 400 and said in page
    assert "Expecting" not in page and "File is not" not in page
    assert not Changeset.objects.exists()
