"""The catalogue as open data: one JSON document per set and an index, versioned and checksummed.

No public list of Eleven Stars cards exists, so this record may become the only one; it must
travel between instances. Each set's document holds every card in the card file format
(catalog/card_format.py: stable ids such as BS-012, sample cards marked `status: sample`), its
revision number, the provenance of every accepted revision (source, who proposed and who
accepted it, when), its accepted errata and rulings (optional arrays, absent when it has
none), every printing of it (version 2: its first print first, then reprints, promos and
finishes in set order), and the licence the operator chose (`CATALOG_LICENCE`); nothing
else, so the same catalogue always gives the same bytes. Its checksum is the SHA-256 of the
canonical JSON (sorted keys, no spaces, UTF-8) of the document without the checksum, so a
reader can check what it received. The index lists the sets with their
checksums. The schema is docs/open-data.schema.json; `/data/` serves all of it and
`manage.py export_cards --open-data DIR` writes it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings

from catalog import cache as catalog_cache
from catalog.importer import card_row
from catalog.models import Card, CardRevision, CardSet, Erratum, Printing, Ruling

FORMAT = "eleven-stars-catalogue"
# 2: every card lists its printings (issue #24). The import still reads version 1 documents,
# whose cards have only their implied first print.
VERSION = 2
READABLE_VERSIONS = (1, 2)
PRINTING_KEYS = ("code", "kind", "set", "number", "label", "notes", "is_sample")
SCHEMA = Path(settings.BASE_DIR) / "docs" / "open-data.schema.json"


def canonical(document: dict) -> bytes:
    """Return the bytes a checksum is taken of: sorted keys, no spaces, UTF-8."""
    return json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def checksum(document: dict) -> str:
    """Return "sha256:<hex>" of a document without its own `checksum` field."""
    body = {key: value for key, value in document.items() if key != "checksum"}
    return "sha256:" + hashlib.sha256(canonical(body)).hexdigest()


def _set_info(card_set: CardSet) -> dict:
    return {
        "code": card_set.code,
        "name": card_set.name,
        "name_ja": card_set.name_ja,
        "kind": card_set.kind,
        "released": card_set.released.isoformat(),
        "kinds_count": card_set.kinds_count,
    }


def _provenance(card_ids: list[str]) -> dict[str, list[dict]]:
    """Return every accepted revision of these cards, oldest first, by card id."""
    revisions = (
        CardRevision.objects.filter(card_id__in=card_ids)
        .select_related("proposed_by", "accepted_by")
        .order_by("card_id", "number")
    )
    found: dict[str, list[dict]] = {}
    for revision in revisions:
        entry = {
            "revision": revision.number,
            "source": revision.source,
            "proposed_by": revision.proposed_by.username if revision.proposed_by else None,
            "accepted_by": revision.accepted_by.username if revision.accepted_by else None,
            "accepted_at": revision.created_at.isoformat(timespec="seconds"),
        }
        there = revision.origin or {}
        if "accepted_at" in there:
            # A revision carried over from another instance's export (catalog/opendata_import):
            # who proposed and accepted it there, and when, as that export said.
            entry.update({key: there[key] for key in ("proposed_by", "accepted_by", "accepted_at")})
        found.setdefault(revision.card_id, []).append(entry)
    return found


def _who_and_when(note) -> dict:
    said = {
        "source": note.source,
        "proposed_by": note.created_by.username if note.created_by else None,
        "accepted_by": note.accepted_by.username if note.accepted_by else None,
        "accepted_at": note.created_at.isoformat(timespec="seconds"),
    }
    there = note.origin or {}
    if "accepted_at" in there:  # carried from another instance's export, as it said
        said.update({key: there[key] for key in ("proposed_by", "accepted_by", "accepted_at")})
    return said


def notes_by_card(card_ids: list[str]) -> dict[str, dict[str, list[dict]]]:
    """Return the accepted errata (oldest first) and rulings (by date) of these cards, by card
    id; a card without any is absent, so its row stays as it was before errata existed."""
    found: dict[str, dict[str, list[dict]]] = {}
    errata = (
        Erratum.objects.filter(card_id__in=card_ids)
        .select_related("created_by", "accepted_by")
        .order_by("card_id", "created_at", "id")
    )
    for erratum in errata:
        found.setdefault(erratum.card_id, {}).setdefault("errata", []).append(
            {
                "printed_text": erratum.printed_text,
                "current_text": erratum.current_text,
                **_who_and_when(erratum),
            }
        )
    rulings = (
        Ruling.objects.filter(card_id__in=card_ids)
        .select_related("created_by", "accepted_by")
        .order_by("card_id", "ruling_date", "id")
    )
    for ruling in rulings:
        found.setdefault(ruling.card_id, {}).setdefault("rulings", []).append(
            {"text": ruling.text, "date": ruling.ruling_date.isoformat(), **_who_and_when(ruling)}
        )
    return found


def printings_by_card(card_ids: list[str]) -> dict[str, list[dict]]:
    """Return every printing of these cards by card id, its first print first, then in set
    order (as the API lists them), each in the export's fields (PRINTING_KEYS)."""
    found: dict[str, list[dict]] = {card_id: [] for card_id in card_ids}
    printings = (
        Printing.objects.filter(card_id__in=card_ids)
        .order_by("card_id", "card_set__display_order", "number", "code")
        .values_list(
            "card_id", "code", "kind", "card_set_id", "number", "label", "notes", "is_sample"
        )
    )
    for card_id, *values in printings:
        found[card_id].append(dict(zip(PRINTING_KEYS, values, strict=True)))
    for listed in found.values():
        listed.sort(key=lambda p: p["kind"] != Printing.Kind.FIRST)  # stable: set order kept
    return found


def set_document(card_set: CardSet) -> dict:
    """Return one set's open-data document, checksum included."""
    cards = list(
        Card.objects.filter(card_set=card_set).select_related("card_set", "team").order_by("number")
    )
    history = _provenance([card.id for card in cards])
    notes = notes_by_card([card.id for card in cards])
    printings = printings_by_card([card.id for card in cards])
    rows = []
    for card in cards:
        revisions = history.get(card.id, [])
        rows.append(
            {
                **card_row(card),
                "revision": revisions[-1]["revision"] if revisions else 0,
                "provenance": revisions,
                **notes.get(card.id, {}),
                "printings": printings[card.id],
            }
        )
    document = {
        "format": FORMAT,
        "version": VERSION,
        "licence": settings.CATALOG_LICENCE,
        "set": _set_info(card_set),
        "cards": rows,
    }
    document["checksum"] = checksum(document)
    return document


def index_document(documents: list[dict] | None = None) -> dict:
    """Return the index: every set with its card counts and its document's checksum."""
    if documents is None:
        documents = [
            set_document(card_set) for card_set in CardSet.objects.order_by("display_order")
        ]
    sets = []
    for document in documents:
        cards = document["cards"]
        real = sum(1 for row in cards if row["status"] == "real")
        sets.append(
            {
                **document["set"],
                "file": f"sets/{document['set']['code']}.json",
                "cards": len(cards),
                "real": real,
                "sample": len(cards) - real,
                "checksum": document["checksum"],
            }
        )
    index = {
        "format": FORMAT + "-index",
        "version": VERSION,
        "licence": settings.CATALOG_LICENCE,
        "schema": "open-data.schema.json",
        "sets": sets,
    }
    index["checksum"] = checksum(index)
    return index


def dumps(document: dict) -> str:
    """Return a document as the file text: indented, UTF-8 characters as they are."""
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def served(name: str) -> str | None:
    """Return the text of one file of /data/ ("index.json" or "sets/<code>.json"), or None.

    Kept in the cache under the catalogue's version, so a file is built once per change."""
    key = f"opendata:{catalog_cache.catalog_version()}:{settings.CATALOG_LICENCE}:{name}"
    text = catalog_cache.get(key)
    if text is not None:
        return text
    if name == "index.json":
        text = dumps(index_document())
    elif name.startswith("sets/") and name.endswith(".json"):
        card_set = CardSet.objects.filter(code=name[5:-5]).first()
        if card_set is None:
            return None
        text = dumps(set_document(card_set))
    else:
        return None
    catalog_cache.put(key, text)
    return text


def write_all(folder: Path) -> dict:
    """Write index.json, sets/<code>.json and the schema into `folder`; return the index.

    Each file is written under a temporary name and renamed, so a reader of the folder never
    sees half a file."""
    documents = [set_document(card_set) for card_set in CardSet.objects.order_by("display_order")]
    index = index_document(documents)
    (folder / "sets").mkdir(parents=True, exist_ok=True)
    files = {f"sets/{d['set']['code']}.json": dumps(d) for d in documents}
    files["index.json"] = dumps(index)
    files["open-data.schema.json"] = SCHEMA.read_text(encoding="utf-8")
    for name, text in files.items():
        target = folder / name
        partial = target.with_name(target.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
    return index
