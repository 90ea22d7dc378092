"""import_cards / export_cards: every problem reported with its line, all or nothing."""

import json

import pytest
from django.core.management import CommandError, call_command

from catalog.importer import export_rows
from catalog.models import Card

pytestmark = pytest.mark.django_db

HEADER = "id,set,number,name,name_ja,kind,position,person,team,shoot,keep,defense,effect,rarity\n"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_good_csv_is_imported_and_marked_official(tmp_path):
    path = write(
        tmp_path,
        "cards.csv",
        HEADER
        + "BS-240,BS,240,Real Forward,本物 選手,player,FW,Real Forward,kashima,7,3,1,,R\n"
        + ",BS,241,Long Pass,ロングパス,event,,,,0,0,0,keep:+2;draw:1,C\n",
    )
    call_command("import_cards", path)
    forward = Card.objects.get(id="BS-240")
    assert (forward.shoot, forward.team_id, forward.is_sample) == (7, "kashima", False)
    assert Card.objects.get(id="BS-241").effect == "keep:+2;draw:1"


def test_every_problem_is_reported_with_line_and_field_and_nothing_is_saved(tmp_path, capsys):
    path = write(
        tmp_path,
        "bad.csv",
        HEADER
        + "BS-240,BS,240,Good,良い,player,FW,Good,kashima,7,3,1,,\n"
        + ",XX,1,Unknown set,,player,FW,P,,1,1,1,,\n"
        + ",BS,abc,Bad number,,player,FW,P,,1,1,1,,\n"
        + ",BS,242,Too strong,,player,FW,P,,100,1,1,,\n"
        + ",BS,243,Bad effect,,event,,,,0,0,0,teleport:+3,\n"
        + "BS-240,BS,240,Duplicate,,player,FW,Good,,1,1,1,,\n",
    )
    count = Card.objects.count()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_cards", path)
    err = capsys.readouterr().err
    assert "line 3, set: unknown set 'XX'" in err
    assert "line 4, number: 'abc' is not a whole number" in err
    assert "line 5, shoot: 100 is out of range" in err
    assert "line 6, effect: unknown effect clause 'teleport:+3'" in err
    assert "line 7, id: duplicate id BS-240 (first on line 2)" in err
    assert Card.objects.count() == count
    assert not Card.objects.filter(id="BS-240").exists()


def test_reimporting_the_same_file_changes_nothing_and_existing_ids_update(tmp_path, capsys):
    row = "BS-240,BS,240,Real Forward,,player,FW,Real Forward,,7,3,1,,\n"
    path = write(tmp_path, "cards.csv", HEADER + row)
    call_command("import_cards", path)
    call_command("import_cards", path)
    assert "0 created, 0 updated, 1 unchanged" in capsys.readouterr().out
    write(tmp_path, "cards.csv", HEADER + row.replace(",7,3,1,", ",8,3,1,"))
    call_command("import_cards", path)
    assert Card.objects.get(id="BS-240").shoot == 8


def test_replace_sample_removes_the_sample_cards_of_the_covered_sets(tmp_path):
    path = write(
        tmp_path,
        "jp.json",
        json.dumps(
            [
                {
                    "set": "JP",
                    "number": 1,
                    "name": "Real Keeper",
                    "kind": "goalkeeper",
                    "team": "Japan national team",
                    "keep": 2,
                    "defense": 6,
                },
            ]
        ),
    )
    call_command("import_cards", path, "--replace-sample")
    assert list(Card.objects.filter(card_set_id="JP").values_list("id", "is_sample")) == [
        ("JP-001", False)
    ]
    assert Card.objects.filter(card_set_id="BS", is_sample=True).count() == 239


def test_bad_json_names_the_line(tmp_path):
    path = write(tmp_path, "broken.json", '[{"set": "BS",\n "number": }]')
    with pytest.raises(CommandError, match="line 2: invalid JSON"):
        call_command("import_cards", path)


def test_json_item_problems_name_the_item(tmp_path, capsys):
    path = write(tmp_path, "items.json", json.dumps([{"set": "BS"}, "not an object"]))
    with pytest.raises(CommandError):
        call_command("import_cards", path)
    err = capsys.readouterr().err
    assert "line 1, number: is required" in err
    assert "line 2: each card must be a JSON object" in err


def test_export_then_import_round_trips_the_catalog(tmp_path, capsys):
    path = tmp_path / "all.json"
    call_command("export_cards", "--output", str(path))
    before = export_rows()
    Card.objects.filter(card_set_id="2ND").delete()
    call_command("import_cards", str(path))
    assert export_rows() == before


def test_csv_export_round_trips_too(tmp_path):
    path = tmp_path / "all.csv"
    call_command("export_cards", "--format", "csv", "--output", str(path))
    before = export_rows()
    Card.objects.filter(card_set_id="JP").delete()
    call_command("import_cards", str(path))
    assert export_rows() == before


def test_bulk_data_download_is_importable(client, tmp_path):
    response = client.get("/cards/bulk.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    path = tmp_path / "bulk.json"
    path.write_bytes(response.content)
    before = export_rows()
    Card.objects.filter(card_set_id="JP").delete()  # no deck holds a JP card (PROTECT)
    call_command("import_cards", str(path))
    assert export_rows() == before


def _json_file(tmp_path, cards, name="cards.json"):
    return write(tmp_path, name, json.dumps(cards))


GOOD = {"set": "BS", "number": 240, "name": "Real Forward", "kind": "player", "position": "FW"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "N" * 101}, "item 1, name: is 101 characters long (at most 100)"),
        ({"rarity": "R" * 11}, "item 1, rarity: is 11 characters long (at most 10)"),
        ({"name_ja": ["a", "list"]}, "item 1, name_ja: must be text, not a list"),
        ({"person": {"a": 1}}, "item 1, person: must be text, not an object"),
        ({"shoot": 7.5}, "item 1, shoot: must be a whole number, not a decimal number"),
        ({"shoot": "７"}, "item 1, shoot: '７' is not a whole number"),
        ({"number": "9" * 5000}, "item 1, number: '99999999999999999999…' is not a whole number"),
        ({"name": "Bad\x00name"}, "item 1, name: contains control characters"),
        (
            {"kind": "event", "position": "", "effect": "draw:1000000"},
            "item 1, effect: amount 1000000 is too large (at most 99)",
        ),
    ],
)
def test_a_value_the_database_would_cut_or_misread_is_refused_by_field(
    tmp_path, capsys, change, message
):
    path = _json_file(tmp_path, [{**GOOD, **change}])
    count = Card.objects.count()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_cards", path)
    assert message in capsys.readouterr().err.replace("line 1", "item 1")
    assert Card.objects.count() == count


def test_a_hundred_character_name_is_still_accepted_whole(tmp_path):
    call_command("import_cards", _json_file(tmp_path, [{**GOOD, "name": "N" * 100}]))
    assert Card.objects.get(id="BS-240").name == "N" * 100


def test_the_bulk_file_carries_each_cards_status_and_source(tmp_path):
    call_command("import_cards", _json_file(tmp_path, [GOOD]), "--source", "starter deck booklet")
    rows = {row["id"]: row for row in export_rows()}
    assert (rows["BS-240"]["status"], rows["BS-240"]["source"]) == (
        "real",
        "starter deck booklet",
    )
    assert (rows["BS-001"]["status"], rows["BS-001"]["source"]) == ("sample", "")


def test_a_sample_row_cannot_overwrite_a_real_card(tmp_path, capsys):
    call_command("import_cards", _json_file(tmp_path, [{**GOOD, "number": 12}]))
    with pytest.raises(CommandError):
        call_command(
            "import_cards", _json_file(tmp_path, [{**GOOD, "number": 12, "is_sample": True}])
        )
    assert "BS-012 is a real card" in capsys.readouterr().err
    assert Card.objects.get(id="BS-012").is_sample is False


def test_importing_a_real_card_records_a_revision_with_its_source(tmp_path):
    from catalog.models import CardRevision

    path = _json_file(tmp_path, [{**GOOD, "number": 12, "source": "my own card"}])
    call_command("import_cards", path)
    revision = CardRevision.objects.get(card_id="BS-012")
    assert (revision.number, revision.source, revision.data["name"]) == (
        1,
        "my own card",
        "Real Forward",
    )
    call_command("import_cards", path)  # unchanged: no second revision
    assert CardRevision.objects.filter(card_id="BS-012").count() == 1
