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
from django.db.models import Max

from catalog.cache import catalog_bump
from catalog.card_format import FIELDS as CARD_FORMAT
from catalog.card_format import FILE_FIELDS, MODEL_FIELDS, TEXT_LIMITS
from catalog.effects import effect_errors
from catalog.extensions import cards_changed, cards_in_use
from catalog.models import Card, CardRevision, CardSet, Team, printings_ensure_first

FIELDS = FILE_FIELDS
REQUIRED = ("set", "number", "name", "kind")
STAT_MAX = 99
ID_RE = re.compile(r"^(?P<set>[0-9A-Z]{2,4})-(?P<number>\d{3})$")
KINDS = {"player", "goalkeeper", "event"}
FIELD_POSITIONS = {"FW", "MF", "DF"}
# A row without a source of its own keeps the card's: compared without it.
UNSOURCED_FIELDS = tuple(name for name in MODEL_FIELDS if name != "source")


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
    kept_sample: int = 0
    sets: list[str] = field(default_factory=list)
    revisions: list = field(default_factory=list)

    def __str__(self) -> str:
        text = (
            f"{self.created} created, {self.updated} updated, {self.unchanged} unchanged, "
            f"{self.removed_sample} sample cards removed"
        )
        if self.kept_sample:
            text += f", {self.kept_sample} sample cards kept because decks hold them"
        return text


class ImportRejected(Exception):
    def __init__(self, problems: list[RowProblem]):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s); nothing was imported")


# An import file is read whole: bounded, and its numbers bounded before int() sees them.
MAX_IMPORT_BYTES = 20_000_000
MAX_IMPORT_DIGITS = 20


def _bounded_int(raw: str) -> int:
    if len(raw.lstrip("-")) > MAX_IMPORT_DIGITS:
        raise ImportFileError(f"invalid JSON: a number has more than {MAX_IMPORT_DIGITS} digits")
    return int(raw)


def _no_constant(name: str):
    raise ImportFileError(f"invalid JSON: {name} is not a number")


def read_file(path: Path | str) -> list[tuple[int, dict]]:
    """Return (line or item number, raw row) pairs from a .csv or .json file."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_IMPORT_BYTES:
            raise ImportFileError(f"{path}: larger than {MAX_IMPORT_BYTES:,} bytes")
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ImportFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ImportFileError(f"{path}: a folder, not a file") from None
    except UnicodeDecodeError as exc:
        raise ImportFileError(
            f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None
    except (OSError, ValueError) as exc:  # a name too long, a NUL byte, no permission
        raise ImportFileError(f"{str(path)[:200]}: cannot read it ({exc})") from None
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
        data = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ImportFileError(f"line {exc.lineno}: invalid JSON ({exc.msg})") from None
    except RecursionError:
        raise ImportFileError("invalid JSON: nested too deeply") from None
    except ImportFileError:
        raise
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


# Amounts in an effect text are bounded like stats: `draw:1000000` is a typo, not a card.
EFFECT_AMOUNT_MAX = STAT_MAX
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
STATUSES = {"sample": True, "real": False}


def _kind_of(value) -> str:
    return {list: "a list", dict: "an object", bool: "true/false", float: "a decimal number"}.get(
        type(value), type(value).__name__
    )


def _text(value, name: str, line: int, problems: list) -> str:
    """Return a text value stripped, or "" after naming what is wrong with it."""
    if value is None:
        return ""
    if isinstance(value, bool | list | dict | float):
        problems.append(RowProblem(line, name, f"must be text, not {_kind_of(value)}"))
        return ""
    text = str(value).strip()
    if CONTROL_CHARS.search(text):
        problems.append(RowProblem(line, name, "contains control characters (such as NUL)"))
        return ""
    limit = TEXT_LIMITS.get(name)
    if limit is not None and len(text) > limit:
        problems.append(RowProblem(line, name, f"is {len(text)} characters long (at most {limit})"))
        return ""
    return text


def _int(value, name: str, line: int, problems: list[RowProblem], low=0, high=STAT_MAX):
    if value in (None, ""):
        return 0 if name in ("shoot", "keep", "defense") else None
    if isinstance(value, bool | list | dict | float):
        problems.append(RowProblem(line, name, f"must be a whole number, not {_kind_of(value)}"))
        return None
    text = str(value).strip()
    # ASCII digits only, and short: full-width digits or a 5,000-digit number are not a stat.
    if not re.fullmatch(r"-?[0-9]{1,6}", text):
        shown = text if len(text) <= 20 else text[:20] + "…"
        problems.append(RowProblem(line, name, f"{shown!r} is not a whole number"))
        return None
    number = int(text)
    if not low <= number <= high:
        problems.append(RowProblem(line, name, f"{number} is out of range ({low}–{high})"))
        return None
    return number


def _bool(value) -> bool | None:
    if isinstance(value, bool):
        return value
    if not isinstance(value, str | int) or value is None:
        return None
    text = str(value or "").strip().lower()
    if text in ("", "0", "false", "no"):
        return False if text else None
    if text in ("1", "true", "yes"):
        return True
    return None


@dataclass
class CardRules:
    """What a card row is checked against: the known sets and teams (read once per file)."""

    sets: dict
    teams: dict

    @classmethod
    def load(cls) -> "CardRules":
        sets = {s.code: s for s in CardSet.objects.all()}
        teams: dict[str, str] = {}
        all_teams = list(Team.objects.all())
        for team in all_teams:
            teams[team.code] = team.code
        for team in all_teams:
            teams.setdefault(team.name.casefold(), team.code)
            teams.setdefault(team.name_ja, team.code)
        return cls(sets=sets, teams=teams)


def validate_card(
    raw: dict, *, line: int = 0, rules: CardRules | None = None, default_sample: bool = False
) -> tuple[dict | None, list[RowProblem]]:
    """Return one card row cleaned for the model, or None and every problem, named by field.

    The one check of a card: `import_cards`, `load_catalog` and the proposal form call it.
    """
    rules = rules or CardRules.load()
    problems: list[RowProblem] = []
    for name in sorted(set(raw) - set(FIELDS), key=str):
        shown = name if len(name) <= 40 else name[:40] + "…"
        problems.append(RowProblem(line, shown.replace("\x00", "?"), "unknown field"))
    values = {k: raw.get(k) for k in FIELDS}
    text = {
        name: _text(values[name], name, line, problems)
        for name in FIELDS
        if name not in ("number", "shoot", "keep", "defense", "is_sample")
    }
    for name in REQUIRED:
        empty = text[name] == "" if name in text else str(values[name] or "").strip() == ""
        if empty and not any(p.field == name for p in problems):
            problems.append(RowProblem(line, name, "is required"))
    set_code = text["set"].upper()
    if set_code and set_code not in rules.sets:
        problems.append(
            RowProblem(line, "set", f"unknown set {set_code!r} (known: {', '.join(rules.sets)})")
        )
    number = _int(values["number"], "number", line, problems, low=1, high=999)
    card_id = text["id"].upper()
    expected_id = Card.make_id(set_code, number) if set_code and number else ""
    if card_id and not ID_RE.match(card_id):
        problems.append(RowProblem(line, "id", f"{card_id!r} is not <set>-<3 digits>"))
    elif card_id and expected_id and card_id != expected_id:
        problems.append(
            RowProblem(line, "id", f"{card_id} does not match set and number ({expected_id})")
        )
    card_id = card_id or expected_id
    kind = text["kind"].lower()
    if kind and kind not in KINDS:
        problems.append(RowProblem(line, "kind", f"{kind!r} is not player, goalkeeper or event"))
    position = text["position"].upper()
    stats = {s: _int(values[s], s, line, problems) for s in ("shoot", "keep", "defense")}
    person = text["person"]
    effect = text["effect"]
    if kind == "player" and position not in FIELD_POSITIONS:
        problems.append(RowProblem(line, "position", "a player needs FW, MF or DF"))
    if kind == "goalkeeper" and position not in ("", "GK"):
        problems.append(RowProblem(line, "position", "a goalkeeper's position is GK"))
    if kind == "goalkeeper":
        position = "GK"
    if kind in ("player", "goalkeeper") and not person:
        person = text["name"]
    if kind == "event":
        if position:
            problems.append(RowProblem(line, "position", "an event card has no position"))
        for stat, value in stats.items():
            if value:
                problems.append(RowProblem(line, stat, "an event card has no stats"))
        problems += [RowProblem(line, "effect", m) for m in effect_errors(effect)]
        for amount in re.findall(r"\d+", effect):
            if len(amount) > 6 or int(amount) > EFFECT_AMOUNT_MAX:
                shown = amount if len(amount) <= 20 else amount[:20] + "…"
                problems.append(
                    RowProblem(
                        line, "effect", f"amount {shown} is too large (at most {EFFECT_AMOUNT_MAX})"
                    )
                )
    elif effect:
        problems.append(RowProblem(line, "effect", "only event cards have effects"))
    team_code = None
    if text["team"]:
        team_code = rules.teams.get(text["team"]) or rules.teams.get(text["team"].casefold())
        if team_code is None:
            problems.append(RowProblem(line, "team", f"unknown team {text['team']!r}"))
    is_sample = _bool(values["is_sample"])
    if is_sample is None and values["is_sample"] not in (None, ""):
        problems.append(RowProblem(line, "is_sample", "use true or false"))
    status = text["status"].lower()
    if status and status not in STATUSES:
        problems.append(RowProblem(line, "status", "use real or sample"))
    elif status and is_sample is not None and STATUSES[status] != is_sample:
        problems.append(RowProblem(line, "status", f"{status} contradicts is_sample"))
    elif status:
        is_sample = STATUSES[status]
    if problems:
        return None, problems
    # Plain text fields as given; the fields checked above as checked.
    row = {f.model: text[f.name] for f in CARD_FORMAT if f.model and f.name in text}
    row.update(
        id=card_id,
        card_set_id=set_code,
        number=number,
        kind=kind,
        position=position,
        person=person if kind != "event" else "",
        team_id=team_code,
        **stats,
        effect=effect,
        is_sample=default_sample if is_sample is None else is_sample,
    )
    return row, []


def validate_rows(
    rows: list[tuple[int, dict]], *, default_sample: bool = False
) -> tuple[list[dict], list[RowProblem]]:
    """Return the clean rows and every problem found; clean rows are only usable if none."""
    rules = CardRules.load()
    problems: list[RowProblem] = []
    clean: list[dict] = []
    seen: dict[str, int] = {}
    for line, raw in rows:
        if "__error__" in raw:
            problems.append(RowProblem(line, "", raw["__error__"]))
            continue
        row, row_problems = validate_card(
            raw, line=line, rules=rules, default_sample=default_sample
        )
        if row is None:
            problems += row_problems
            continue
        if row["id"] in seen:
            problems.append(
                RowProblem(
                    line, "id", f"duplicate id {row['id']} (first on line {seen[row['id']]})"
                )
            )
            continue
        seen[row["id"]] = line
        clean.append(row)
    return clean, problems


@dataclass(frozen=True)
class CardChange:
    """One card written: its file-format row before (None when new) and after."""

    card_id: str
    before: dict | None
    after: dict

    @property
    def became_real(self) -> bool:
        return self.before is not None and self.before["is_sample"] and not self.after["is_sample"]

    def fields_changed(self) -> list[str]:
        if self.before is None:
            return [name for name in ROW_FIELDS if name not in ("id", "set", "number")]
        return [
            name
            for name in ROW_FIELDS
            if name not in ("status", "source") and self.before.get(name) != self.after.get(name)
        ]


def card_row(card: Card) -> dict:
    """Return a card as a row of the file format (the bulk-data JSON), with status and source."""
    row = {}
    for f in CARD_FORMAT:
        if f.name == "status":
            row["status"] = "sample" if card.is_sample else "real"
        elif f.name == "team":
            row["team"] = card.team_id or ""
        else:
            row[f.name] = getattr(card, f.model)
    return row


ROW_FIELDS = tuple(card_row(Card(card_set_id="BS", number=1)).keys())


def apply_rows(
    clean: list[dict],
    *,
    replace_sample: bool = False,
    source: str = "",
    proposed_by=None,
    accepted_by=None,
    proposal=None,
    record_revisions: bool = True,
) -> ImportReport:
    """Write validated rows in one transaction: create new ids, update changed ones.

    Every written card gets a revision (unless `record_revisions` is off, as for the sample
    pool) and `cards_changed` is sent inside the transaction, so decks re-validate with it.
    A sample card becomes real in place (same id), never by delete and re-create.
    """
    report = ImportReport(sets=sorted({row["card_set_id"] for row in clean}))
    with transaction.atomic():
        existing = Card.objects.select_for_update().in_bulk([row["id"] for row in clean])
        if replace_sample:
            ids = {row["id"] for row in clean}
            stale = set(
                Card.objects.filter(card_set_id__in=report.sets, is_sample=True)
                .exclude(id__in=ids)
                .values_list("id", flat=True)
            )
            # A sample card some deck holds stays (as a placeholder) rather than vanish from it.
            kept = cards_in_use(stale)
            report.kept_sample = len(kept)
            _, deleted = Card.objects.filter(id__in=stale - kept).delete()
            report.removed_sample = deleted.get("catalog.Card", 0)
        to_create, to_update, changes = [], [], []
        for row in clean:
            row = dict(row)
            card = existing.get(row["id"])
            given_source = row.get("source", "")
            # A sample card has no source; the file's source names where real cards came from.
            row["source"] = given_source or ("" if row["is_sample"] else source)
            if card is None:
                card = Card(**row)
                to_create.append(card)
                changes.append(CardChange(card.id, None, card_row(card)))
                continue
            compared = MODEL_FIELDS if given_source else UNSOURCED_FIELDS
            if all(getattr(card, name) == row[name] for name in compared):
                report.unchanged += 1
                continue
            before = card_row(card)
            for name in MODEL_FIELDS:
                setattr(card, name, row[name])
            to_update.append(card)
            changes.append(CardChange(card.id, before, card_row(card)))
        orders = dict(CardSet.objects.values_list("code", "display_order"))
        for card in to_create + to_update:
            card.refresh_search_fields(display_order=orders[card.card_set_id])
        Card.objects.bulk_create(to_create, batch_size=500)
        Card.objects.bulk_update(
            to_update,
            [*MODEL_FIELDS, "search_text", "search_grams", "catalog_order"],
            batch_size=500,
        )
        # Each new card gets its first printing; a sample card made real makes its print real.
        printings_ensure_first([card.id for card in to_create + to_update])
        report.created, report.updated = len(to_create), len(to_update)
        if record_revisions and changes:
            report.revisions = _record_revisions(
                changes, proposed_by=proposed_by, accepted_by=accepted_by, proposal=proposal
            )
        if report.created or report.updated or report.removed_sample:
            catalog_bump()  # bulk writes send no signals
        if changes:
            cards_changed.send(sender=apply_rows, changes=changes)
    return report


def _record_revisions(changes, *, proposed_by, accepted_by, proposal) -> list[CardRevision]:
    ids = [change.card_id for change in changes]
    last = dict(
        CardRevision.objects.filter(card_id__in=ids)
        .values("card_id")
        .annotate(n=Max("number"))
        .values_list("card_id", "n")
    )
    return CardRevision.objects.bulk_create(
        CardRevision(
            card_id=change.card_id,
            number=last.get(change.card_id, 0) + 1,
            proposal=proposal,
            proposed_by=proposed_by,
            accepted_by=accepted_by,
            source=change.after["source"],
            data=change.after,
        )
        for change in changes
    )


def real_cards_overwritten(clean: list[dict]) -> list[RowProblem]:
    """Return a problem for every sample row that would overwrite a real card."""
    sample_ids = [row["id"] for row in clean if row["is_sample"]]
    real = set(Card.objects.filter(id__in=sample_ids, is_sample=False).values_list("id", flat=True))
    return [
        RowProblem(0, "is_sample", f"{card_id} is a real card; a sample row cannot replace it")
        for card_id in sorted(real)
    ]


def import_rows(
    rows: list[tuple[int, dict]],
    *,
    replace_sample: bool = False,
    default_sample: bool = False,
    source: str = "",
    accepted_by=None,
) -> ImportReport:
    """Validate every row, then apply all of them or raise ImportRejected with every problem."""
    clean, problems = validate_rows(rows, default_sample=default_sample)
    problems += real_cards_overwritten(clean)
    if problems:
        raise ImportRejected(problems)
    return apply_rows(
        clean,
        replace_sample=replace_sample,
        source=source,
        accepted_by=accepted_by,
        record_revisions=not default_sample,
    )


def export_rows(queryset=None) -> list[dict]:
    """Return every card as an import row (the bulk-data JSON format)."""
    cards = queryset if queryset is not None else Card.objects.all()
    return [card_row(c) for c in cards.order_by("card_set__display_order", "number")]


def export_csv(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
