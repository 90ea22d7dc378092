"""Reading another instance's open-data export: checked whole, compared card by card, and
(once an editor accepts its changeset) applied with the source's history carried over.

An export is what /data/ serves and `export_cards --open-data DIR` writes (catalog/opendata.py,
docs/open-data.schema.json): one set's document, or the index with every set's document (a
folder, or a zip of it). Every file is read with the shared JSON bounds (size, depth, numbers,
NUL, keys given twice), checked against the schema, by its checksum, and every card by the one
card check (`validate_card`); any problem names the file, the card and the field, and nothing is
read further. Nothing here writes the catalogue: catalog/contributions/open_data.py turns a
checked export into one changeset for review, and `carry_history` is called by the changeset's
review when it applies the accepted cards.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache
from pathlib import Path

import jsonschema
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from cardsite.web.json_limits import JSONLimitError, has_nul, loads_bounded
from catalog import opendata
from catalog.card_format import FILE_FIELDS
from catalog.importer import CONTROL_CHARS, CardRules, card_row, validate_card
from catalog.models import Card, CardRevision, CardSet, Erratum, Printing, Ruling, printing_code

MAX_PROBLEMS = 100  # a broken file of 10,000 cards names its first problems, then a count
MAX_ZIP_FILES = 200
INDEX_FORMAT = opendata.FORMAT + "-index"
NEW, SAME, DIFFERENT, KEPT = "new", "same", "different", "kept"


@dataclass(frozen=True)
class ExportProblem:
    file: str
    card: str
    field: str
    message: str

    def __str__(self) -> str:
        where = " · ".join(part for part in (self.file, self.card, self.field) if part)
        return f"{where}: {self.message}" if where else self.message


class ExportRejected(Exception):
    """An export that is not read: every problem found, each naming file, card and field."""

    def __init__(self, problems: list[ExportProblem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems[:5]))

    def messages(self) -> list[str]:
        shown = [str(p) for p in self.problems[:MAX_PROBLEMS]]
        if len(self.problems) > MAX_PROBLEMS:
            shown.append(
                _("… and %(n)s more problems") % {"n": f"{len(self.problems) - MAX_PROBLEMS:,}"}
            )
        return shown


@dataclass
class CardEntry:
    """One card of the export and how it compares with this catalogue."""

    card_id: str
    mark: str  # NEW, SAME, DIFFERENT or KEPT (a sample there, a real card here: not proposed)
    row: dict  # the export's card row, without revision and provenance
    revision: int
    provenance: list[dict]
    diff: list[str] = field(default_factory=list)  # the fields that differ (DIFFERENT)
    # The export's errata and rulings this catalogue lacks (added on accept; none is removed).
    notes: dict[str, list[dict]] = field(default_factory=dict)
    # The export's printings of the card that are not here as they are there, each with its
    # "mark" (NEW, or DIFFERENT with the "diff" of its fields); made or changed on accept,
    # checked again then as a printing proposal is. None here is removed.
    printings: list[dict] = field(default_factory=list)


@dataclass
class Export:
    """A checked export: its files' checksums and licence, and every card compared."""

    licence: str
    version: int
    files: dict[str, str]  # file name: checksum
    sets: list[str]
    cards: list[CardEntry]

    def counts(self) -> dict[str, int]:
        return {mark: sum(1 for c in self.cards if c.mark == mark) for mark in MARKS}


MARKS = (NEW, SAME, DIFFERENT, KEPT)


@cache
def _validator(kind: str) -> jsonschema.Draft202012Validator:
    """Return the schema's validator for one kind of document ("setDocument" or "index"), so
    an error names the field rather than "matches neither of oneOf"."""
    schema = json.loads(opendata.SCHEMA.read_text(encoding="utf-8"))
    del schema["oneOf"]
    schema["$ref"] = f"#/$defs/{kind}"
    return jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


# Reading files ---------------------------------------------------------------------------------


def _limit() -> int:
    return settings.OPEN_DATA_IMPORT_MAX_BYTES


def _too_big(name: str, size: int, unpacked: bool = False) -> ExportRejected:
    # A zip's unpacked size is said as such: "is 60,000,000 bytes" of a 60 kB upload puzzled.
    message = (
        _("unpacks to %(size)s bytes (at most %(limit)s)")
        if unpacked
        else _("is %(size)s bytes (at most %(limit)s)")
    )
    return ExportRejected(
        [ExportProblem(name, "", "", message % {"size": f"{size:,}", "limit": f"{_limit():,}"})]
    )


def files_from_upload(name: str, raw: bytes) -> dict[str, bytes]:
    """Return the files of an uploaded export: one .json document, or a .zip of the folder."""
    if raw[:4] == b"PK\x03\x04" or name.lower().endswith(".zip"):
        return _files_from_zip(name, raw)
    return {Path(name).name or "export.json": raw}


def files_from_path(path: Path) -> dict[str, bytes]:
    """Return the files of an export on disk: a .json document, a .zip, or a folder holding
    index.json and the set files it lists."""
    try:
        if path.is_dir():
            index = path / "index.json"
            if not index.is_file():
                raise ExportRejected(
                    [ExportProblem(str(path), "", "", _("a folder without index.json"))]
                )
            files = {"index.json": _read_limited(index)}
            for listed in _listed_files(files["index.json"]):
                target = path / listed
                if target.is_file():
                    files[listed] = _read_limited(target)
            return files
        raw = _read_limited(path)
    except FileNotFoundError:
        raise ExportRejected([ExportProblem(str(path), "", "", _("no such file"))]) from None
    except (OSError, ValueError) as exc:
        raise ExportRejected(
            [ExportProblem(str(path)[:200], "", "", _("cannot read it (%(e)s)") % {"e": exc})]
        ) from None
    return files_from_upload(path.name, raw)


def _read_limited(path: Path) -> bytes:
    with path.open("rb") as fh:
        raw = fh.read(_limit() + 1)
    if len(raw) > _limit():
        raise _too_big(path.name, len(raw))
    return raw


def _listed_files(raw_index: bytes) -> list[str]:
    """Return the set files an index names (only well-formed names; the index is checked fully
    later), so a folder's other files are never read."""
    try:
        data = loads_bounded(raw_index, max_bytes=_limit())
    except JSONLimitError:
        return []
    sets = data.get("sets") if isinstance(data, dict) else None
    if not isinstance(sets, list):
        return []
    names = [s.get("file") for s in sets if isinstance(s, dict)]
    return [n for n in names if isinstance(n, str) and _SET_FILE(n)]


def _SET_FILE(name: str) -> bool:  # noqa: N802 - reads as the pattern it is
    code = name.removeprefix("sets/").removesuffix(".json")
    return (
        name.startswith("sets/")
        and name.endswith(".json")
        and 1 <= len(code) <= 4
        and code.isascii()
        and code.isalnum()
        and code.upper() == code
    )


def _files_from_zip(name: str, raw: bytes) -> dict[str, bytes]:
    if len(raw) > _limit():
        raise _too_big(name, len(raw))
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        members = [m for m in archive.infolist() if not m.is_dir()]
        if len(members) > MAX_ZIP_FILES:
            raise ExportRejected(
                [
                    ExportProblem(
                        name,
                        "",
                        "",
                        _("holds %(n)s files (at most %(limit)s)")
                        % {"n": f"{len(members):,}", "limit": MAX_ZIP_FILES},
                    )
                ]
            )
        total = sum(m.file_size for m in members)
        if total > _limit():
            raise _too_big(name, total, unpacked=True)
        # The folder may be zipped with its own name in front: read names from index.json's place.
        index = next((m for m in members if m.filename.rsplit("/", 1)[-1] == "index.json"), None)
        prefix = index.filename[: -len("index.json")] if index else ""
        files = {}
        read = 0
        for member in members:
            inner = member.filename.removeprefix(prefix)
            if inner == "index.json" or _SET_FILE(inner):
                with archive.open(member) as fh:
                    data = fh.read(_limit() - read + 1)  # a member's stated size may lie
                read += len(data)
                if read > _limit():
                    raise _too_big(name, read, unpacked=True)
                files[inner] = data
    except zipfile.BadZipFile:
        # Not a zip at all: Python's "(File is not a zip file)" would be English on a Japanese page.
        raise ExportRejected(
            [ExportProblem(name, "", "", _("is not a zip file: upload a set's .json or a .zip"))]
        ) from None
    except (zipfile.LargeZipFile, NotImplementedError, EOFError) as exc:
        raise ExportRejected(
            [ExportProblem(name, "", "", _("is not a readable zip file (%(e)s)") % {"e": exc})]
        ) from None
    if not files:
        raise ExportRejected(
            [ExportProblem(name, "", "", _("holds no index.json and no sets/<code>.json file"))]
        )
    return files


def parse_file(name: str, raw: bytes):
    """Return one file's JSON, read with the shared bounds; ExportRejected says why not."""
    if len(raw) > _limit():
        raise _too_big(name, len(raw))
    nul = raw.find(b"\x00")
    if nul >= 0:
        return _refuse(
            name,
            _("holds a NUL byte (at byte %(at)s); an export is UTF-8 JSON text")
            % {"at": f"{nul:,}"},
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return _refuse(
            name,
            _(
                "is not UTF-8 text (byte %(at)s cannot be read): an export is always UTF-8; "
                "a file saved as Shift-JIS, or mixing encodings, must be saved again as UTF-8"
            )
            % {"at": f"{exc.start:,}"},
        )
    if not text.strip():
        return _refuse(name, _("is empty: an export is one JSON document"))
    try:
        document = loads_bounded(text, max_bytes=_limit(), refuse_nul=False)
    except JSONLimitError as exc:
        return _refuse(name, _("cannot be read as JSON: %(reason)s") % {"reason": exc})
    if has_nul(document):
        raise ExportRejected(_nul_problems(name, document))
    return document


def _nul_problems(name: str, document) -> list[ExportProblem]:
    """Name every field of a document that holds a NUL character: its card and its place
    (`printings[2].label`), or the whole file when it is no set's document."""
    problems = []
    cards = document.get("cards") if isinstance(document, dict) else None

    def walk(value, path: list) -> None:
        if len(problems) > MAX_PROBLEMS:
            return
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(key, path + ["(key)"])
                walk(inner, path + [key])
        elif isinstance(value, list):
            for place, inner in enumerate(value):
                walk(inner, path + [place])
        elif isinstance(value, str) and "\x00" in value:
            in_card = path[:1] == ["cards"] and len(path) > 2 and isinstance(path[1], int)
            card = _card_label(cards, path[1]) if in_card else ""
            where = _place(path[2:] if in_card else path)
            problems.append(ExportProblem(name, card, where, _("holds a NUL character")))

    if isinstance(document, dict | list):
        walk(document, [])
    return problems or [
        ExportProblem(
            name,
            "",
            "",
            _("cannot be read as JSON: %(reason)s")
            % {"reason": _("the JSON holds a NUL character")},
        )
    ]


def _refuse(name: str, message: str):
    raise ExportRejected([ExportProblem(name, "", "", message)])


# Checking documents -----------------------------------------------------------------------------


def _card_label(cards, index: int) -> str:
    """Name a card of a document by its id, else its set and number, else its place."""
    item = cards[index] if isinstance(cards, list) and index < len(cards) else None
    if isinstance(item, dict):
        card_id = item.get("id")
        if isinstance(card_id, str) and 0 < len(card_id) <= 10 and card_id.isprintable():
            return card_id
        code, number = item.get("set"), item.get("number")
        if isinstance(code, str) and len(code) <= 4 and isinstance(number, int):
            return f"{code}/{number}"
    return _("card %(n)s") % {"n": index + 1}


def _schema_message(error) -> tuple[str, str]:
    """Return (field, message) for one schema error, in the reader's language."""
    path = [p for p in error.absolute_path]
    field_name = next((str(p) for p in reversed(path) if isinstance(p, str)), "")
    if "printings" in path:  # printings[2].number: which of the card's printings
        field_name = _place(path[path.index("printings") :])
    kind, value = error.validator, error.validator_value
    if kind == "not" and "printings" in error.instance:
        return "printings", _("is not a field of version 1 (printings came with version 2)")
    if kind == "required":
        missing = [k for k in value if isinstance(error.instance, dict) and k not in error.instance]
        name = missing[0] if missing else ""
        return name, _("is required")
    if kind == "additionalProperties":
        known = set(error.schema.get("properties", {}))
        extra = sorted(str(k)[:40] for k in error.instance if k not in known)
        where = f"{field_name}." if "printings" in path else ""
        return ", ".join(where + k for k in extra), _("is not a field of this format")
    if kind == "type":
        wanted = value if isinstance(value, list) else [value]
        words = {
            "string": _("text"),
            "integer": _("a whole number"),
            "boolean": _("true or false"),
            "object": _("an object"),
            "array": _("a list"),
            "null": _("null"),
        }
        return field_name, _("must be %(kinds)s") % {
            "kinds": _(" or ").join(words.get(w, w) for w in wanted)
        }
    if kind in ("enum", "const"):
        allowed = value if kind == "enum" else [value]
        return field_name, _("%(value)s is not allowed (use %(allowed)s)") % {
            "value": _shown(error.instance),
            "allowed": ", ".join(json.dumps(a, ensure_ascii=False) for a in allowed),
        }
    if kind == "pattern":
        return field_name, _("%(value)s is not in the form %(pattern)s") % {
            "value": _shown(error.instance),
            "pattern": value,
        }
    if kind == "minimum":
        return field_name, _("%(value)s is below %(low)s") % {
            "value": _shown(error.instance),
            "low": value,
        }
    if kind == "maximum":
        return field_name, _("%(value)s is above %(high)s") % {
            "value": _shown(error.instance),
            "high": value,
        }
    if kind in ("maxItems", "minItems"):
        return field_name, _("holds %(n)s items (from %(low)s to %(high)s)") % {
            "n": len(error.instance),
            "low": error.schema.get("minItems", 0),
            "high": error.schema.get("maxItems", "…"),
        }
    if kind in ("maxLength", "minLength"):
        return field_name, _("is %(n)s characters long (from %(low)s to %(high)s)") % {
            "n": len(error.instance),
            "low": error.schema.get("minLength", 0),
            "high": error.schema.get("maxLength", "…"),
        }
    if kind == "format":
        return field_name, _("%(value)s is not a valid %(format)s") % {
            "value": _shown(error.instance),
            "format": value,
        }
    return field_name, error.message[:200]


def _place(path: list) -> str:
    """Return a path within a card as a reader counts it: printings[2].number."""
    said = ""
    for part in path:
        said += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if said else str(part))
    return said


def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:40] + "…"


def check_document(name: str, document) -> list[ExportProblem]:
    """Return every problem of one parsed document: format, version, size, schema, checksum."""
    if not isinstance(document, dict):
        return [ExportProblem(name, "", "", _("must be a JSON object (a set's document or index)"))]
    kind, version = document.get("format"), document.get("version")
    if "format" not in document:  # said "null is not …" of a key the file does not have
        return [
            ExportProblem(
                name,
                "",
                "format",
                _("is missing: this is not an Eleven Stars open-data export (%(known)s)")
                % {"known": opendata.FORMAT},
            )
        ]
    if kind not in (opendata.FORMAT, INDEX_FORMAT):
        return [
            ExportProblem(
                name,
                "",
                "format",
                _("%(value)s is not an Eleven Stars open-data export (%(known)s)")
                % {"value": _shown(kind), "known": opendata.FORMAT},
            )
        ]
    known = ", ".join(str(v) for v in opendata.READABLE_VERSIONS)
    if isinstance(version, int) and not isinstance(version, bool) and version > opendata.VERSION:
        return [
            ExportProblem(
                name,
                "",
                "version",
                _(
                    "version %(v)s is newer than this site reads (%(known)s): "
                    "this site must be updated before it can import it"
                )
                % {"v": version, "known": known},
            )
        ]
    if "version" not in document:
        return [
            ExportProblem(
                name,
                "",
                "version",
                _("is missing (this site reads version %(known)s)") % {"known": known},
            )
        ]
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or version not in opendata.READABLE_VERSIONS
    ):
        return [
            ExportProblem(
                name,
                "",
                "version",
                _("%(value)s is not a version this site reads (%(known)s)")
                % {"value": _shown(version), "known": known},
            )
        ]
    cards = document.get("cards")
    limit = settings.OPEN_DATA_IMPORT_MAX_CARDS
    if isinstance(cards, list) and len(cards) > limit:
        return [
            ExportProblem(
                name,
                "",
                "cards",
                _("%(n)s cards; one import holds at most %(limit)s")
                % {"n": f"{len(cards):,}", "limit": f"{limit:,}"},
            )
        ]
    problems = []
    validator = _validator("index" if kind == INDEX_FORMAT else "setDocument")
    in_order = sorted(
        validator.iter_errors(document),  # card 2 before card 10: places as numbers
        key=lambda e: [
            (isinstance(p, int), p if isinstance(p, int) else 0, str(p)) for p in e.path
        ],
    )
    for error in in_order:
        path = list(error.absolute_path)
        card = _card_label(cards, path[1]) if path[:1] == ["cards"] and len(path) > 1 else ""
        if path[:1] == ["set"]:
            card = _("set")
        field_name, message = _schema_message(error)
        problems.append(ExportProblem(name, card, field_name, message))
        if len(problems) > MAX_PROBLEMS:
            break
    if problems:
        return problems
    if opendata.checksum(document) != document["checksum"]:
        return [
            ExportProblem(
                name,
                "",
                "checksum",
                _(
                    "does not match the file's content (%(found)s): the file was changed "
                    "or damaged after it was written"
                )
                % {"found": opendata.checksum(document)[:19] + "…"},
            )
        ]
    return []


def _check_cards(name: str, document: dict, rules: CardRules) -> list[ExportProblem]:
    """Check a set document's cards as this catalogue checks any card, and their provenance."""
    problems = []
    code = document["set"]["code"]
    seen = set()
    for row in document["cards"]:
        label = row["id"]
        raw = {key: row[key] for key in FILE_FIELDS}
        if row["set"] != code:
            problems.append(
                ExportProblem(
                    name,
                    label,
                    "set",
                    _("is %(s)s in the file of set %(c)s") % {"s": row["set"], "c": code},
                )
            )
        if row["id"] in seen:
            problems.append(ExportProblem(name, label, "id", _("is given twice")))
        seen.add(row["id"])
        _row, found = validate_card(raw, rules=rules)
        problems += [ExportProblem(name, label, p.field, p.message) for p in found]
        problems += _check_provenance(name, label, row["provenance"])
        problems += _check_notes(name, label, row)
        numbers = [entry["revision"] for entry in row["provenance"]]
        if numbers != sorted(set(numbers)):
            problems.append(
                ExportProblem(name, label, "provenance", _("revisions must be in order, each once"))
            )
        elif row["revision"] != (numbers[-1] if numbers else 0):
            problems.append(
                ExportProblem(
                    name,
                    label,
                    "revision",
                    _("is %(r)s but the provenance's last revision is %(last)s")
                    % {"r": row["revision"], "last": numbers[-1] if numbers else 0},
                )
            )
    return problems


MAX_REVISION = 1_000_000
NAME_LIMIT = 150  # a user name, as Django's
SOURCE_LIMIT = 200  # a revision's source, as CardRevision.source


def _check_who_and_when(name: str, label: str, where: str, entry: dict) -> list[ExportProblem]:
    """Check a revision's, erratum's or ruling's source, names and time beyond the schema:
    bounds the database keeps, no control characters, a time with its offset (RFC 3339)."""
    problems = []
    for key, limit in (
        ("source", SOURCE_LIMIT),
        ("proposed_by", NAME_LIMIT),
        ("accepted_by", NAME_LIMIT),
    ):
        value = entry[key] or ""
        if len(value) > limit:
            problems.append(
                ExportProblem(
                    name,
                    label,
                    f"{where}.{key}",
                    _("is %(n)s characters long (from %(low)s to %(high)s)")
                    % {"n": f"{len(value):,}", "low": 0, "high": limit},
                )
            )
        elif CONTROL_CHARS.search(value):
            problems.append(
                ExportProblem(name, label, f"{where}.{key}", _("holds control characters"))
            )
    try:
        when = datetime.fromisoformat(entry["accepted_at"].replace("Z", "+00:00"))
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        problems.append(
            ExportProblem(
                name,
                label,
                f"{where}.accepted_at",
                _("%(value)s is not a valid %(format)s")
                % {"value": _shown(entry["accepted_at"]), "format": "date-time"},
            )
        )
    return problems


def _check_provenance(name: str, label: str, history: list[dict]) -> list[ExportProblem]:
    problems = []
    for place, entry in enumerate(history, start=1):
        where = f"provenance[{place}]"
        if entry["revision"] > MAX_REVISION:
            problems.append(
                ExportProblem(
                    name,
                    label,
                    f"{where}.revision",
                    _("%(value)s is above %(high)s")
                    % {"value": _shown(entry["revision"]), "high": f"{MAX_REVISION:,}"},
                )
            )
        problems += _check_who_and_when(name, label, where, entry)
    return problems


NOTE_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # lines may end in CR LF


def _check_notes(name: str, label: str, row: dict) -> list[ExportProblem]:
    """Check a card's errata and rulings beyond the schema; a sample card has none."""
    problems = []
    for kind, keys in NOTE_KEYS.items():
        notes = row.get(kind, [])
        if notes and row["status"] == "sample":
            problems.append(
                ExportProblem(name, label, kind, _("a sample card has no errata or rulings"))
            )
            continue
        for place, note in enumerate(notes, start=1):
            where = f"{kind}[{place}]"
            problems += _check_who_and_when(name, label, where, note)
            for key in keys:
                if key != "source" and NOTE_CONTROL_CHARS.search(note[key]):
                    problems.append(
                        ExportProblem(name, label, f"{where}.{key}", _("holds control characters"))
                    )
    return problems


def read_export(files: dict[str, bytes]) -> Export:
    """Return the checked, compared export these files make, or raise ExportRejected naming
    every problem (file, card, field). The files are one set's document, or index.json with
    the set files it lists."""
    parsed = {name: parse_file(name, raw) for name, raw in files.items()}
    problems = []
    for name, document in parsed.items():
        problems += check_document(name, document)
    if problems:
        raise ExportRejected(problems)
    indexes = [n for n, d in parsed.items() if d["format"] == INDEX_FORMAT]
    documents = {n: d for n, d in parsed.items() if d["format"] == opendata.FORMAT}
    if indexes:
        index = parsed[indexes[0]]
        for entry in index["sets"]:
            found = documents.get(entry["file"])
            if found is None:
                problems.append(
                    ExportProblem(entry["file"], "", "", _("is listed in index.json but missing"))
                )
            elif found["checksum"] != entry["checksum"]:
                problems.append(
                    ExportProblem(
                        entry["file"],
                        "",
                        "checksum",
                        _("is not the checksum index.json gives for this file"),
                    )
                )
            if found is not None:
                real = sum(1 for card in found["cards"] if card["status"] == "real")
                for key, count in (
                    ("cards", len(found["cards"])),
                    ("real", real),
                    ("sample", len(found["cards"]) - real),
                ):
                    if entry[key] != count:
                        problems.append(
                            ExportProblem(
                                "index.json",
                                entry["code"],
                                key,
                                _("says %(said)s but %(file)s holds %(n)s")
                                % {"said": entry[key], "file": entry["file"], "n": count},
                            )
                        )
            if found is not None and found["set"]["code"] != entry["code"]:
                problems.append(
                    ExportProblem(
                        entry["file"], "", "set", _("is not set %(c)s") % {"c": entry["code"]}
                    )
                )
        listed = {entry["file"] for entry in index["sets"]}
        problems += [
            ExportProblem(n, "", "", _("is not listed in index.json"))
            for n in documents
            if n not in listed
        ]
    if not documents and not problems:
        problems.append(
            ExportProblem(indexes[0] if indexes else "", "", "", _("holds no set's cards"))
        )
    codes: dict[str, str] = {}
    for name, document in documents.items():
        code = document["set"]["code"]
        if code in codes:
            problems.append(
                ExportProblem(
                    name,
                    "",
                    "set",
                    _("set %(c)s is also in %(other)s") % {"c": code, "other": codes[code]},
                )
            )
        codes[code] = name
    total = sum(len(d["cards"]) for d in documents.values())
    if total > settings.OPEN_DATA_IMPORT_MAX_CARDS:
        problems.append(
            ExportProblem(
                "",
                "",
                "cards",
                _("%(n)s cards; one import holds at most %(limit)s")
                % {"n": f"{total:,}", "limit": f"{settings.OPEN_DATA_IMPORT_MAX_CARDS:,}"},
            )
        )
    licences = {d["licence"] for d in parsed.values()}
    if len(licences) > 1:
        problems.append(
            ExportProblem(
                "",
                "",
                "licence",
                _("the files name different licences: %(l)s") % {"l": ", ".join(sorted(licences))},
            )
        )
    if problems:
        raise ExportRejected(problems)
    rules = CardRules.load()
    for name, document in documents.items():
        problems += _check_cards(name, document, rules)
    problems += _check_printings(documents)
    if problems:
        raise ExportRejected(problems)
    return Export(
        licence=licences.pop(),
        version=max(d["version"] for d in parsed.values()),
        files={n: d["checksum"] for n, d in sorted(parsed.items())},
        sets=[d["set"]["code"] for d in documents.values()],
        cards=_compare([row for d in documents.values() for row in d["cards"]], rules),
    )


PLAIN_KINDS = (Printing.Kind.FIRST, Printing.Kind.REPRINT, Printing.Kind.PROMO)


def _check_printings(documents: dict[str, dict]) -> list[ExportProblem]:
    """Check every card's printings beyond the schema, by the rules a printing proposal is
    checked by (Printing.clean): one first print, first, in the card's own set and number; a
    code its set, number and kind make, given once in the whole export and not another card's
    here; a known set; a foil or parallel on the number of a plain print of the same card; a
    reprint or promo not on another card's number; a sample card's printings samples too."""
    problems: list[ExportProblem] = []
    sets_here = set(CardSet.objects.values_list("code", flat=True))
    exported_ids = {row["id"] for d in documents.values() for row in d["cards"]}
    given: dict[str, str] = {}  # code: the card it was first given for
    codes, numbers = [], []
    for name, document in documents.items():
        for row in document["cards"]:
            listed = row.get("printings")
            if listed is None:
                continue  # version 1: each card has only its implied first print
            label = row["id"]
            firsts = sum(1 for p in listed if p["kind"] == Printing.Kind.FIRST)
            if firsts != 1 or listed[0]["kind"] != Printing.Kind.FIRST:
                problems.append(
                    ExportProblem(
                        name,
                        label,
                        "printings",
                        _("must list the card's first print first, and only one first print"),
                    )
                )
            plains = {(p["set"], p["number"]) for p in listed if p["kind"] in PLAIN_KINDS}
            for place, printing in enumerate(listed, start=1):
                where = f"printings[{place}]"
                problems += _check_printing(name, label, where, row, printing, sets_here, plains)
                code = printing["code"]
                if code in given:
                    problems.append(
                        ExportProblem(
                            name,
                            label,
                            f"{where}.code",
                            _("%(code)s is given twice (also for %(card)s)")
                            % {"code": code, "card": given[code]},
                        )
                    )
                given.setdefault(code, label)
                codes.append((name, label, where, code))
                if printing["kind"] in (Printing.Kind.REPRINT, Printing.Kind.PROMO):
                    number_of = Card.make_id(printing["set"], printing["number"])
                    if number_of != label:
                        numbers.append((name, label, where, number_of))
    held = dict(
        Printing.objects.filter(code__in=[c for *_, c in codes]).values_list("code", "card_id")
    )
    for name, label, where, code in codes:
        if held.get(code, label) != label:
            problems.append(
                ExportProblem(
                    name,
                    label,
                    f"{where}.code",
                    _("%(code)s is a printing of %(card)s here")
                    % {"code": code, "card": held[code]},
                )
            )
    cards_here = set(
        Card.objects.filter(id__in=[n for *_, n in numbers]).values_list("id", flat=True)
    )
    for name, label, where, number_of in numbers:
        if number_of in cards_here or number_of in exported_ids:
            problems.append(
                ExportProblem(
                    name,
                    label,
                    f"{where}.number",
                    _("That set number is another card's (%(code)s).") % {"code": number_of},
                )
            )
    return problems


def _check_printing(
    name: str, label: str, where: str, row: dict, printing: dict, sets_here: set, plains: set
) -> list[ExportProblem]:
    problems = []

    def problem(key: str, message: str) -> None:
        problems.append(ExportProblem(name, label, f"{where}.{key}", message))

    kind, code, number = printing["kind"], printing["set"], printing["number"]
    if code not in sets_here:
        problem("set", _("unknown set “%(code)s”.") % {"code": code})
    made = printing_code(code, number, kind)
    if printing["code"] != made:
        problem(
            "code",
            _("is %(code)s, but its set, number and kind make %(made)s")
            % {"code": printing["code"], "made": made},
        )
    if kind == Printing.Kind.FIRST and (code, number) != (row["set"], row["number"]):
        problem(
            "kind",
            _("A first printing is the card's own set and number (%(id)s).") % {"id": row["id"]},
        )
    if kind in Printing.FINISHES and (code, number) not in plains:
        problem(
            "number",
            _(
                "A foil or parallel printing takes the number of a plain printing of the "
                "same card in that set."
            ),
        )
    if kind == Printing.Kind.FIRST and printing["is_sample"] != row["is_sample"]:
        problem("is_sample", _("a first print is a sample exactly when its card is"))
    elif row["is_sample"] and not printing["is_sample"]:
        problem("is_sample", _("A printing of a sample card is a sample too."))
    for key in ("label", "notes"):
        if CONTROL_CHARS.search(printing[key]):
            problem(key, _("holds control characters"))
    return problems


# Comparing with this catalogue -----------------------------------------------------------------


NOTE_KEYS = {
    "errata": ("printed_text", "current_text", "source"),
    "rulings": ("text", "date", "source"),
}


def _notes_to_add(exported: dict, here: dict) -> dict[str, list[dict]]:
    """Return the export's errata and rulings of a card that are not here (the same texts,
    date and source), in the export's order."""
    missing = {}
    for kind, keys in NOTE_KEYS.items():
        known = {tuple(note[k] for k in keys) for note in here.get(kind, [])}
        new = [note for note in exported.get(kind, []) if tuple(note[k] for k in keys) not in known]
        if new:
            missing[kind] = new
    return missing


PRINTING_COMPARED = ("kind", "label", "notes", "is_sample")


def _printings_to_carry(exported: dict, here: list[dict]) -> list[dict]:
    """Return the export's printings of a card that are not here as they are there: each marked
    new, or different with the fields that differ (a first print's sample mark is its card's,
    so it is not compared)."""
    known = {p["code"]: p for p in here}
    carried = []
    for printing in exported.get("printings", []):
        was = known.get(printing["code"])
        if was is None:
            carried.append({**printing, "mark": NEW})
            continue
        compared = PRINTING_COMPARED[:-1] if printing["kind"] == "first" else PRINTING_COMPARED
        diff = [key for key in compared if was[key] != printing[key]]
        if diff:
            carried.append({**printing, "mark": DIFFERENT, "diff": diff})
    return carried


def _implied_first(row: dict) -> list[dict]:
    """The one printing a card not yet here gets with it (printings_ensure_first)."""
    return [
        {
            "code": row["id"],
            "kind": "first",
            "set": row["set"],
            "number": row["number"],
            "label": "",
            "notes": "",
            "is_sample": row["is_sample"],
        }
    ]


def _compare(rows: list[dict], rules: CardRules) -> list[CardEntry]:
    current = Card.objects.in_bulk([row["id"] for row in rows])
    notes_here = opendata.notes_by_card(list(current))
    printings_here = opendata.printings_by_card(list(current))
    entries = []
    for exported in rows:
        raw = {key: exported[key] for key in FILE_FIELDS}
        clean, _problems = validate_card(raw, rules=rules)
        after = card_row(Card(**clean))
        card = current.get(exported["id"])
        entry = CardEntry(
            card_id=exported["id"],
            mark=NEW,
            row=raw,
            revision=exported["revision"],
            provenance=exported["provenance"],
        )
        entry.notes = _notes_to_add(exported, notes_here.get(exported["id"], {}))
        entry.printings = _printings_to_carry(
            exported, printings_here.get(exported["id"]) or _implied_first(exported)
        )
        if card is not None:
            before = card_row(card)
            entry.diff = [
                name
                for name in after
                if name not in ("id", "status") and before[name] != after[name]
            ]
            entry.diff += list(entry.notes)  # "errata", "rulings"
            entry.diff += ["printings"] * bool(entry.printings)
            if not entry.diff:
                entry.mark = SAME
            elif clean["is_sample"] and not card.is_sample:
                entry.mark = KEPT  # a sample never replaces a real card
            else:
                entry.mark = DIFFERENT
        entries.append(entry)
    return sorted(entries, key=lambda e: e.card_id)


# Applying ---------------------------------------------------------------------------------------


def accepted_row(origin: dict) -> tuple[dict | None, list]:
    """Return the card row a proposal of an import applies (the export's row, sample or real,
    with its own source), checked again against the catalogue as it is now."""
    return validate_card(origin["card"])


def carry_history(revisions: list[CardRevision], origins: dict[str, dict], imported: dict) -> None:
    """Record the source instance on the revisions an import's accepted cards just got; a card
    with no history here before takes its history there (revision numbers, sources, who
    proposed and accepted each and when), so a fresh instance's export gives the same
    provenance as the source's. A card with history here gets one more revision of its own.

    Revisions before the last carry no card state (`data` is empty): the export holds only a
    card's latest state.
    """
    earlier, changed = [], []
    for revision in revisions:
        history = origins[revision.card_id]["provenance"]
        revision.origin = dict(imported)
        if revision.number == 1 and history:
            last = history[-1]
            revision.number, revision.source = last["revision"], last["source"]
            revision.origin.update(_there(last))
            earlier += [
                CardRevision(
                    card_id=revision.card_id,
                    number=entry["revision"],
                    proposed_by=revision.proposed_by,
                    accepted_by=revision.accepted_by,
                    source=entry["source"],
                    data={},
                    origin={**imported, **_there(entry)},
                )
                for entry in history[:-1]
            ]
        elif history:
            revision.origin["revision_there"] = history[-1]["revision"]
        changed.append(revision)
    CardRevision.objects.bulk_update(changed, ["number", "source", "origin"])
    CardRevision.objects.bulk_create(earlier)


def _there(entry: dict) -> dict:
    return {
        "proposed_by": entry["proposed_by"],
        "accepted_by": entry["accepted_by"],
        "accepted_at": entry["accepted_at"],
    }


def carry_notes(origins: dict[str, dict], imported: dict, *, proposed_by, accepted_by) -> None:
    """Add the errata and rulings an import's accepted cards bring, each recording the source
    instance and who proposed and accepted it there and when; none here is removed."""
    errata, rulings = [], []
    for card_id, origin in origins.items():
        notes = origin.get("notes") or {}
        for note in notes.get("errata", []):
            errata.append(
                Erratum(
                    card_id=card_id,
                    printed_text=note["printed_text"],
                    current_text=note["current_text"],
                    source=note["source"],
                    created_by=proposed_by,
                    accepted_by=accepted_by,
                    origin={**imported, **_there(note)},
                )
            )
        for note in notes.get("rulings", []):
            rulings.append(
                Ruling(
                    card_id=card_id,
                    text=note["text"],
                    ruling_date=date.fromisoformat(note["date"]),
                    source=note["source"],
                    created_by=proposed_by,
                    accepted_by=accepted_by,
                    origin={**imported, **_there(note)},
                )
            )
    Erratum.objects.bulk_create(errata)
    Ruling.objects.bulk_create(rulings)


def carry_printings(origins: dict[str, dict]) -> list[tuple[str, str, str]]:
    """Make or change the printings an import's accepted cards bring, each checked again as a
    printing proposal is when accepted (Printing.clean: a printing made here meanwhile cannot
    be doubled); return the problems as (card id, field, message): the caller then saves
    nothing. None here is removed; plain prints come before the finishes that need them."""
    problems = []
    for card_id, origin in sorted(origins.items()):
        listed = origin.get("printings") or []
        for printing in sorted(listed, key=lambda p: p["kind"] in Printing.FINISHES):
            where = f"printings[{printing['code']}]"
            target = Printing.objects.filter(code=printing["code"]).first()
            if target is not None and target.card_id != card_id:
                problems.append(
                    (
                        card_id,
                        f"{where}.code",
                        _("%(code)s is a printing of %(card)s here")
                        % {"code": printing["code"], "card": target.card_id},
                    )
                )
                continue
            if target is None:
                target = Printing(
                    card_id=card_id, card_set_id=printing["set"], number=printing["number"]
                )
            target.kind, target.label, target.notes = (
                printing["kind"],
                printing["label"],
                printing["notes"],
            )
            first = printing["kind"] == Printing.Kind.FIRST
            target.is_sample = target.card.is_sample if first else printing["is_sample"]
            try:
                target.full_clean(exclude=["code"])
            except ValidationError as exc:
                problems += [
                    (card_id, where if key == "__all__" else f"{where}.{key}", str(message))
                    for key, messages in exc.message_dict.items()
                    for message in messages
                ]
                continue
            target.save()
    return problems
