"""The catalogue as open data: schema-valid, checksummed, with provenance, the same by command
and by HTTP (issue #24 item 5)."""

import hashlib
import json

import jsonschema
import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command

from catalog import opendata
from catalog.contributions.services import proposal_accept, proposal_create
from catalog.models import Card, CardSet

pytestmark = pytest.mark.django_db

SCHEMA = json.loads(opendata.SCHEMA.read_text(encoding="utf-8"))


def recomputed(document: dict) -> str:
    body = {key: value for key, value in document.items() if key != "checksum"}
    text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_every_file_is_valid_checksummed_and_listed_in_the_index(client):
    index = client.get("/data/index.json").json()
    jsonschema.validate(index, SCHEMA)
    assert index["checksum"] == recomputed(index)
    assert [s["code"] for s in index["sets"]] == list(
        CardSet.objects.order_by("display_order").values_list("code", flat=True)
    )
    for entry in index["sets"]:
        answer = client.get(f"/data/{entry['file']}")
        assert answer.status_code == 200 and answer["Access-Control-Allow-Origin"] == "*"
        document = answer.json()
        jsonschema.validate(document, SCHEMA)
        assert document["checksum"] == recomputed(document) == entry["checksum"]
        cards = document["cards"]
        in_set = Card.objects.filter(card_set_id=entry["code"]).count()
        assert len(cards) == entry["cards"] == in_set
        assert all(c["status"] == "sample" and c["is_sample"] for c in cards)  # marked as such
        assert [c["id"] for c in cards] == sorted(c["id"] for c in cards)


def test_a_changed_byte_no_longer_matches_its_checksum(client):
    document = client.get("/data/sets/BS.json").json()
    document["cards"][0]["shoot"] += 1
    assert recomputed(document) != document["checksum"]


def test_an_accepted_card_carries_its_revision_and_provenance(alice, client):
    editor = get_user_model().objects.create_user("erin", "erin@example.com", "correct-horse-3")
    editor.user_permissions.add(Permission.objects.get(codename="review_proposal"))
    editor = get_user_model().objects.get(pk=editor.pk)
    data = {"set": "BS", "number": "12", "name": "Real Striker", "kind": "player", "position": "FW"}
    proposal = proposal_create(proposer=alice, data=data, source="my own card")
    proposal_accept(proposal=proposal, reviewer=editor)
    document = client.get("/data/sets/BS.json").json()
    jsonschema.validate(document, SCHEMA)
    card = next(c for c in document["cards"] if c["id"] == "BS-012")
    assert (card["status"], card["name"], card["revision"]) == ("real", "Real Striker", 1)
    [revision] = card["provenance"]
    assert revision["source"] == "my own card"
    assert (revision["proposed_by"], revision["accepted_by"]) == ("alice", "erin")
    index = client.get("/data/index.json").json()
    assert next(s for s in index["sets"] if s["code"] == "BS")["real"] == 1


def test_the_command_writes_the_same_bytes_the_site_serves(client, tmp_path, settings):
    settings.CATALOG_LICENCE = "CC0-1.0"
    call_command("export_cards", "--open-data", str(tmp_path / "out"))
    out = tmp_path / "out"
    for name in ["index.json", "sets/BS.json", "sets/CD00.json", "open-data.schema.json"]:
        assert (out / name).read_bytes() == client.get(f"/data/{name}").content, name
    assert json.loads((out / "index.json").read_text())["licence"] == "CC0-1.0"
    assert not list(out.rglob("*.partial"))
    first = (out / "sets/BS.json").read_bytes()
    call_command("export_cards", "--open-data", str(out))
    assert (out / "sets/BS.json").read_bytes() == first  # the same catalogue, the same bytes


def test_the_open_data_page_lists_every_set_and_unknown_files_are_404(client):
    page = client.get("/data/").content.decode()
    assert 'id="open-data-sets"' in page and "sets/BS.json" in page and "CC-BY-4.0" in page
    for bad in ("sets/XX.json", "sets/BS.csv", "../settings.py", "sets/", "sets/bs.json"):
        assert client.get(f"/data/{bad}").status_code == 404, bad
    assert client.get("/data/index.json\x00").status_code == 400  # refused at the door
    assert client.post("/data/index.json").status_code == 405


def test_a_cards_accepted_errata_and_rulings_are_in_its_set_document(alice, client):
    from catalog.contributions.notes import note_accept, note_create

    editor = get_user_model().objects.create_user("erin", "erin@example.com", "correct-horse-3")
    editor.user_permissions.add(Permission.objects.get(codename="review_proposal"))
    editor = get_user_model().objects.get(pk=editor.pk)
    before = client.get("/data/sets/BS.json").json()
    assert not any("errata" in c or "rulings" in c for c in before["cards"])  # optional, absent
    Card.objects.filter(id="BS-012").update(is_sample=False)
    card = Card.objects.get(id="BS-012")
    erratum = {"printed_text": "Draw 2.", "current_text": "Draw 1.", "source": "FAQ"}
    ruling = {"text": "Ends at the phase's end.", "ruling_date": "2002-04-01", "source": "Judge"}
    note_accept(
        proposal=note_create(proposer=alice, card=card, kind="erratum", data=erratum),
        reviewer=editor,
    )
    pending = note_create(proposer=alice, card=card, kind="ruling", data=ruling)
    document = client.get("/data/sets/BS.json").json()
    jsonschema.validate(document, SCHEMA)
    assert document["checksum"] == recomputed(document) != before["checksum"]
    row = next(c for c in document["cards"] if c["id"] == "BS-012")
    assert [(e["printed_text"], e["current_text"], e["source"]) for e in row["errata"]] == [
        ("Draw 2.", "Draw 1.", "FAQ")
    ]
    assert (row["errata"][0]["proposed_by"], row["errata"][0]["accepted_by"]) == ("alice", "erin")
    assert "rulings" not in row  # pending
    note_accept(proposal=pending, reviewer=editor)
    row = next(c for c in client.get("/data/sets/BS.json").json()["cards"] if c["id"] == "BS-012")
    assert [(r["text"], r["date"]) for r in row["rulings"]] == [
        ("Ends at the phase's end.", "2002-04-01")
    ]
    bad = {**row, "errata": [{"printed_text": "x"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**document, "cards": [bad]}, SCHEMA)
