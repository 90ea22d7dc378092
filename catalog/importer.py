"""Read, validate and apply card lists (CSV or JSON): the one path every card takes in.

`load_catalog` feeds the sample pool through it, `import_cards` a user's file. Every row is
validated first and every problem reported with its line (CSV) or item (JSON) number and field;
then all rows are applied in one transaction, or none.
"""

import csv
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from catalog.cache import catalog_bump
from catalog.effects import effect_errors
from catalog.models import Card, CardSet, Team

FIELDS = (
    "id",
    "set",
    "number",
    "name",
    "name_ja",
    "name_kana",
    "kind",
    "position",
    "person",
    "team",
    "shoot",
    "keep",
    "defense",
    "effect",
    "rarity",
    "is_sample",
)
REQUIRED = ("set", "number", "name", "kind")
STAT_MAX = 99
ID_RE = re.compile(r"^(?P<set>[0-9A-Z]{2,4})-(?P<number>\d{3})$")
KINDS = {"player", "goalkeeper", "event"}
FIELD_POSITIONS = {"FW", "MF", "DF"}
MODEL_FIELDS = (
    "card_set_id",
    "number",
    "name",
    "name_ja",
    "name_kana",
    "kind",
    "position",
    "person",
    "team_id",
    "shoot",
    "keep",
    "defense",
    "effect",
    "rarity",
    "is_sample",
)


class ImportFileError(Exception):
    """The file cannot be read at all (format, encoding, JSON syntax)."""


@dataclass(frozen=True)
class RowProblem:
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "file"
        return (
            f"{where}, {self.field}: {self.message}" if self.field else f"{where}: {self.message}"
        )


@dataclass
class ImportReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    removed_sample: int = 0
    sets: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.created} created, {self.updated} updated, {self.unchanged} unchanged, "
            f"{self.removed_sample} sample cards removed"
        )


class ImportRejected(Exception):
    def __init__(self, problems: list[RowProblem]):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s); nothing was imported")


def read_file(path: Path | str) -> list[tuple[int, dict]]:
    """Return (line or item number, raw row) pairs from a .csv or .json file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ImportFileError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise ImportFileError(
            f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    if path.suffix.lower() == ".json":
        return read_json(text)
    if path.suffix.lower() == ".csv":
        return read_csv(text)
    raise ImportFileError(f"{path}: unknown file type (use .csv or .json)")


def read_csv(text: str) -> list[tuple[int, dict]]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames:
        raise ImportFileError("the CSV file is empty (it needs a header line)")
    unknown = [name for name in reader.fieldnames if name and name.strip() not in FIELDS]
    if unknown:
        raise ImportFileError(
            f"line 1: unknown column(s) {', '.join(unknown)} (known: {', '.join(FIELDS)})"
        )
    rows = []
    for row in reader:
        if not any((value or "").strip() for value in row.values() if isinstance(value, str)):
            continue
        cleaned = {k.strip(): (v or "").strip() for k, v in row.items() if k}
        rows.append((reader.line_num, cleaned))
    return rows


def read_json(text: str) -> list[tuple[int, dict]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFileError(f"line {exc.lineno}: invalid JSON ({exc.msg})") from None
    if isinstance(data, dict) and "cards" in data:
        data = data["cards"]
    if not isinstance(data, list):
        raise ImportFileError('JSON must be a list of cards or an object with a "cards" list')
    rows = []
    for index, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            rows.append((index, {"__error__": "each card must be a JSON object"}))
            continue
        rows.append((index, item))
    return rows


def _int(value, name: str, line: int, problems: list[RowProblem], low=0, high=STAT_MAX):
    if value in (None, ""):
        return 0 if name in ("shoot", "keep", "defense") else None
    if isinstance(value, bool) or not re.fullmatch(r"-?\d+", str(value).strip()):
        problems.append(RowProblem(line, name, f"{value!r} is not a whole number"))
        return None
    number = int(str(value).strip())
    if not low <= number <= high:
        problems.append(RowProblem(line, name, f"{number} is out of range ({low}–{high})"))
        return None
    return number


def _bool(value) -> bool | None:
    if isinstance(value, bool):
        return value
    text = str(value or "").strip().lower()
    if text in ("", "0", "false", "no"):
        return False if text else None
    if text in ("1", "true", "yes"):
        return True
    return None


def validate_rows(
    rows: list[tuple[int, dict]], *, default_sample: bool = False
) -> tuple[list[dict], list[RowProblem]]:
    """Return the clean rows and every problem found; clean rows are only usable if none."""
    sets = {s.code: s for s in CardSet.objects.all()}
    teams = {t.code: t.code for t in Team.objects.all()}
    for team in Team.objects.all():
        teams.setdefault(team.name.casefold(), team.code)
        teams.setdefault(team.name_ja, team.code)
    problems: list[RowProblem] = []
    clean: list[dict] = []
    seen: dict[str, int] = {}
    for line, raw in rows:
        row_problems: list[RowProblem] = []
        if "__error__" in raw:
            problems.append(RowProblem(line, "", raw["__error__"]))
            continue
        unknown = sorted(set(raw) - set(FIELDS))
        for name in unknown:
            row_problems.append(RowProblem(line, name, "unknown field"))
        values = {k: ("" if raw.get(k) is None else raw.get(k)) for k in FIELDS}
        for name in REQUIRED:
            if str(values[name]).strip() == "":
                row_problems.append(RowProblem(line, name, "is required"))
        set_code = str(values["set"]).strip().upper()
        if set_code and set_code not in sets:
            row_problems.append(
                RowProblem(line, "set", f"unknown set {set_code!r} (known: {', '.join(sets)})")
            )
        number = _int(values["number"], "number", line, row_problems, low=1, high=999)
        card_id = str(values["id"]).strip().upper()
        expected_id = Card.make_id(set_code, number) if set_code and number else ""
        if card_id and not ID_RE.match(card_id):
            row_problems.append(RowProblem(line, "id", f"{card_id!r} is not <set>-<3 digits>"))
        elif card_id and expected_id and card_id != expected_id:
            row_problems.append(
                RowProblem(line, "id", f"{card_id} does not match set and number ({expected_id})")
            )
        card_id = card_id or expected_id
        kind = str(values["kind"]).strip().lower()
        if kind and kind not in KINDS:
            row_problems.append(
                RowProblem(line, "kind", f"{kind!r} is not player, goalkeeper or event")
            )
        position = str(values["position"]).strip().upper()
        stats = {s: _int(values[s], s, line, row_problems) for s in ("shoot", "keep", "defense")}
        person = str(values["person"]).strip()
        if len(str(values["name_kana"]).strip()) > 100:
            row_problems.append(RowProblem(line, "name_kana", "is longer than 100 characters"))
        effect = str(values["effect"]).strip()
        if kind == "player" and position not in FIELD_POSITIONS:
            row_problems.append(RowProblem(line, "position", "a player needs FW, MF or DF"))
        if kind == "goalkeeper" and position not in ("", "GK"):
            row_problems.append(RowProblem(line, "position", "a goalkeeper's position is GK"))
        if kind == "goalkeeper":
            position = "GK"
        if kind in ("player", "goalkeeper") and not person:
            person = str(values["name"]).strip()
        if kind == "event":
            if position:
                row_problems.append(RowProblem(line, "position", "an event card has no position"))
            for stat, value in stats.items():
                if value:
                    row_problems.append(RowProblem(line, stat, "an event card has no stats"))
            row_problems += [RowProblem(line, "effect", m) for m in effect_errors(effect)]
        elif effect:
            row_problems.append(RowProblem(line, "effect", "only event cards have effects"))
        team_raw = str(values["team"]).strip()
        team_code = None
        if team_raw:
            team_code = teams.get(team_raw) or teams.get(team_raw.casefold())
            if team_code is None:
                row_problems.append(RowProblem(line, "team", f"unknown team {team_raw!r}"))
        is_sample = _bool(values["is_sample"])
        if is_sample is None and str(values["is_sample"]).strip():
            row_problems.append(RowProblem(line, "is_sample", "use true or false"))
        if card_id in seen:
            row_problems.append(
                RowProblem(line, "id", f"duplicate id {card_id} (first on line {seen[card_id]})")
            )
        elif card_id:
            seen[card_id] = line
        if row_problems:
            problems += row_problems
            continue
        clean.append(
            {
                "id": card_id,
                "card_set_id": set_code,
                "number": number,
                "name": str(values["name"]).strip(),
                "name_ja": str(values["name_ja"]).strip(),
                "name_kana": str(values["name_kana"]).strip(),
                "kind": kind,
                "position": position,
                "person": person if kind != "event" else "",
                "team_id": team_code,
                **stats,
                "effect": effect,
                "rarity": str(values["rarity"]).strip(),
                "is_sample": default_sample if is_sample is None else is_sample,
            }
        )
    return clean, problems


def apply_rows(clean: list[dict], *, replace_sample: bool = False) -> ImportReport:
    """Write validated rows in one transaction: create new ids, update changed ones."""
    report = ImportReport(sets=sorted({row["card_set_id"] for row in clean}))
    with transaction.atomic():
        if replace_sample:
            ids = {row["id"] for row in clean}
            stale = Card.objects.filter(card_set_id__in=report.sets, is_sample=True).exclude(
                id__in=ids
            )
            report.removed_sample = stale.count()
            stale.delete()
        existing = Card.objects.in_bulk([row["id"] for row in clean])
        to_create, to_update = [], []
        for row in clean:
            card = existing.get(row["id"])
            if card is None:
                to_create.append(Card(**row))
                continue
            if all(getattr(card, name) == row[name] for name in MODEL_FIELDS):
                report.unchanged += 1
                continue
            for name in MODEL_FIELDS:
                setattr(card, name, row[name])
            to_update.append(card)
        for card in to_create + to_update:
            card.refresh_search_fields()
        Card.objects.bulk_create(to_create, batch_size=500)
        Card.objects.bulk_update(
            to_update, [*MODEL_FIELDS, "search_text", "search_grams"], batch_size=500
        )
        report.created, report.updated = len(to_create), len(to_update)
        if report.created or report.updated or report.removed_sample:
            catalog_bump()  # bulk writes send no signals
    return report


def import_rows(
    rows: list[tuple[int, dict]], *, replace_sample: bool = False, default_sample: bool = False
) -> ImportReport:
    """Validate every row, then apply all of them or raise ImportRejected with every problem."""
    clean, problems = validate_rows(rows, default_sample=default_sample)
    if problems:
        raise ImportRejected(problems)
    return apply_rows(clean, replace_sample=replace_sample)


def export_rows(queryset=None) -> list[dict]:
    """Return every card as an import row (the bulk-data JSON format)."""
    cards = queryset if queryset is not None else Card.objects.all()
    return [
        {
            "id": c.id,
            "set": c.card_set_id,
            "number": c.number,
            "name": c.name,
            "name_ja": c.name_ja,
            "name_kana": c.name_kana,
            "kind": c.kind,
            "position": c.position,
            "person": c.person,
            "team": c.team_id or "",
            "shoot": c.shoot,
            "keep": c.keep,
            "defense": c.defense,
            "effect": c.effect,
            "rarity": c.rarity,
            "is_sample": c.is_sample,
        }
        for c in cards.order_by("card_set__display_order", "number")
    ]


def export_csv(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
