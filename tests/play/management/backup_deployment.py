"""What the backup tests run inside a deployment's own process (`manage.py shell -c`): fill it
with a user's decks, collection, proposals and scans, change it, and describe all of it."""

import hashlib
import io
import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from PIL import Image

from catalog import scans
from catalog.contributions.services import proposal_accept, proposal_create
from catalog.models import Card
from decks.collections.services import collection_entries_save, collection_set_visibility
from decks.content import DeckContent
from decks.services import deck_create
from tests.decks.conftest import ten_persons

REAL_12 = {
    "set": "BS",
    "number": "12",
    "name": "Real Striker",
    "name_ja": "本物 ストライカー",
    "kind": "player",
    "position": "FW",
    "team": "kashima",
    "shoot": "7",
    "keep": "2",
    "defense": "1",
    "rarity": "R",
}


def _image(colour) -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (300, 420), colour).save(out, format="JPEG")
    return SimpleUploadedFile("scan.jpg", out.getvalue(), content_type="image/jpeg")


def _scans_processed_here() -> None:
    """This deployment runs in a `manage.py shell` with no worker: an uploaded scan is made
    into its CardScan as soon as its upload commits, by the control worker's own function."""
    scans.scan_publish = scans.scan_upload_process


def _legal_content() -> DeckContent:
    keeper = Card.objects.filter(card_set_id="BS", kind="goalkeeper").order_by("number").first()
    return DeckContent(goalkeeper=keeper.id, deck={c.id: 6 for c in ten_persons()})


def populate() -> None:
    """Alice's decks and collection, her accepted proposal (a catalogue change) with scans of
    both sides, and her pending one with a front scan."""
    _scans_processed_here()
    users = get_user_model().objects
    alice = users.create_user("alice", "alice@example.com", "correct-horse-1")
    erin = users.create_user("erin", "erin@example.com", "correct-horse-3")
    erin.user_permissions.add(Permission.objects.get(codename="review_proposal"))
    erin = users.get(pk=erin.pk)
    content = _legal_content()
    deck_create(owner=alice, name="Alice public", visibility="public", content=content)
    deck_create(owner=alice, name="Alice private", content=content)
    cards = [c.id for c in Card.objects.order_by("id")[:3]]
    collection_entries_save(
        owner=alice,
        items=[{"card": cards[0], "quantity": 3, "for_trade": 1}, {"card": cards[1], "wanted": 2}],
    )
    collection_set_visibility(owner=alice, visibility="link")
    accepted = proposal_create(
        proposer=alice,
        data=REAL_12,
        source="my own card",
        scans={"front": _image((30, 120, 60)), "back": _image((200, 10, 10))},
    )
    proposal_accept(proposal=accepted, reviewer=erin)
    proposal_create(
        proposer=alice,
        data={**REAL_12, "number": "13", "name": "Second Striker"},
        source="my own card",
        scans={"front": _image((10, 10, 200))},
    )


def change() -> None:
    """What happens after the backup: a new deck, a new scan, a collection entry gone."""
    _scans_processed_here()
    alice = get_user_model().objects.get(username="alice")
    deck_create(owner=alice, name="Made after the backup", content=_legal_content())
    proposal_create(
        proposer=alice,
        data={**REAL_12, "number": "14", "name": "Late Striker"},
        source="my own card",
        scans={"front": _image((90, 90, 90))},
    )
    alice.collection_entries.filter(quantity=0).delete()


def snapshot() -> None:
    """Print every row of the database (dumpdata) and the hash of every file in MEDIA_ROOT."""
    rows = io.StringIO()
    call_command("dumpdata", stdout=rows)
    root = Path(settings.MEDIA_ROOT)
    files = {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }
    print(json.dumps({"rows": json.loads(rows.getvalue()), "files": files}))
