"""Writes to a user's collection: quantities per printing and variant, trade marks, CSV import,
the whole-collection replace of the API, and who may see it.

Every write that takes many rows applies whole or not at all: bad rows are all named, and
nothing is saved until every row is good.
"""

import csv
import io
from dataclasses import dataclass, replace

from django.db import transaction
from django.utils.translation import gettext as _

from cardsite.web.numbers import whole_number_or
from catalog.models import Card, Printing
from decks.models import Collection, CollectionEntry, new_share_slug

MAX_QUANTITY = 999
MAX_CSV_BYTES = 512 * 1024
MAX_CSV_ROWS = 5000
CSV_COLUMNS = ("card", "printing", "quantity", "condition", "language", "for_trade", "wanted")
CONDITIONS = [value for value, _label in CollectionEntry.Condition.choices]
LANGUAGES = [value for value, _label in CollectionEntry.Language.choices]


class CollectionError(ValueError):
    """A collection write that cannot be applied; `messages` names every bad line or field."""

    def __init__(self, messages: list[str]):
        self.messages = messages
        super().__init__("; ".join(messages))


@dataclass(frozen=True)
class EntryData:
    card_id: str
    quantity: int
    condition: str = ""
    language: str = ""
    for_trade: int = 0
    wanted: int = 0
    # The printing's code as given (`BS-001`, `ES2-101`, `BS-001-foil`); blank: the card's
    # first printing. `printing_id` is set once the code is checked against the card.
    printing: str = ""
    printing_id: int | None = None


def collection_get_or_create(*, owner) -> Collection:
    """Return the user's collection settings, creating the private default on first use."""
    collection, _created = Collection.objects.get_or_create(owner=owner)
    return collection


def collection_set_visibility(*, owner, visibility: str) -> Collection:
    """Set who may see the collection (private, link or public).

    Making a shared collection private revokes its link for good: the collection gets a new
    share slug, so sharing it again gives a new link and the old one stays dead.
    """
    if visibility not in Collection.Visibility.values:
        raise CollectionError([_("Unknown visibility “%(v)s”.") % {"v": visibility}])
    collection_get_or_create(owner=owner)
    with transaction.atomic():
        collection = Collection.objects.select_for_update().get(owner=owner)
        fields = ["visibility", "updated_at"]
        revoked = (
            visibility == Collection.Visibility.PRIVATE
            and collection.visibility != Collection.Visibility.PRIVATE
        )
        if revoked:
            collection.slug = new_share_slug()
            fields.append("slug")
        collection.visibility = visibility
        collection.save(update_fields=fields)
    return collection


def _number(value, *, label: str, where: str, problems: list[str]) -> int:
    text = str(value).strip() if value is not None else ""
    if text == "":
        return 0
    number = None if isinstance(value, bool) else whole_number_or(text, None, high=MAX_QUANTITY)
    if number is None:
        problems.append(
            _("%(where)s: %(field)s must be a whole number from 0 to %(max)d.")
            % {"where": where, "field": label, "max": MAX_QUANTITY}
        )
        return 0
    return number


def entry_data_check(raw: dict, *, where: str, problems: list[str]) -> EntryData | None:
    """Return one checked entry from a mapping (CSV row or API item), or None with problems."""
    before = len(problems)
    card_id = str(raw.get("card") or "").strip().upper()
    if not card_id:
        problems.append(_("%(where)s: the card id is missing.") % {"where": where})
    quantity = _number(raw.get("quantity"), label="quantity", where=where, problems=problems)
    for_trade = _number(raw.get("for_trade"), label="for_trade", where=where, problems=problems)
    wanted = _number(raw.get("wanted"), label="wanted", where=where, problems=problems)
    condition = str(raw.get("condition") or "").strip().lower()
    if condition not in CONDITIONS:
        problems.append(
            _("%(where)s: unknown condition “%(value)s” (known: %(known)s).")
            % {"where": where, "value": condition, "known": ", ".join(c for c in CONDITIONS if c)}
        )
    language = str(raw.get("language") or "").strip().lower()
    if language not in LANGUAGES:
        problems.append(
            _("%(where)s: unknown language “%(value)s” (known: %(known)s).")
            % {"where": where, "value": language, "known": ", ".join(x for x in LANGUAGES if x)}
        )
    printing = str(raw.get("printing") or "").strip()
    if len(printing) > 20:
        problems.append(
            _("%(where)s: printing “%(value)s…” is too long.")
            % {"where": where, "value": printing[:20]}
        )
    if for_trade > quantity:
        problems.append(
            _("%(where)s: for_trade (%(t)d) cannot exceed the quantity owned (%(q)d).")
            % {"where": where, "t": for_trade, "q": quantity}
        )
    if len(problems) > before:
        return None
    return EntryData(card_id, quantity, condition, language, for_trade, wanted, printing)


@dataclass(frozen=True)
class CardProblem:
    """An entry whose card is unknown (`field` "card"), whose printing is not one of its card
    (`field` "printing"), or which repeats an earlier entry's printing and variant (`repeats`)."""

    position: int
    repeats: int | None = None
    field: str = "card"


def _printings_of(card_ids) -> dict[str, dict[str, int]]:
    """Return {card id: {printing code (lower case): printing id, "": first printing id}}."""
    found: dict[str, dict[str, int]] = {}
    rows = Printing.objects.filter(card_id__in=set(card_ids)).values_list(
        "card_id", "code", "kind", "id"
    )
    for card_id, code, kind, pk in rows:
        codes = found.setdefault(card_id, {})
        codes[code.lower()] = pk
        if kind == Printing.Kind.FIRST:
            codes[""] = pk
    return found


def card_problems(entries: list[EntryData]) -> list[CardProblem]:
    """Return, in entry order, the entries naming an unknown card, a printing not of their
    card, or a printing and variant twice."""
    known = set(
        Card.objects.filter(id__in={e.card_id for e in entries}).values_list("id", flat=True)
    )
    printings = _printings_of(known)
    seen: dict[tuple, int] = {}
    problems = []
    for position, entry in enumerate(entries):
        if entry.card_id not in known:
            problems.append(CardProblem(position))
            continue
        printing_id = printings.get(entry.card_id, {}).get(entry.printing.lower())
        if printing_id is None:
            problems.append(CardProblem(position, field="printing"))
            continue
        key = (printing_id, entry.condition, entry.language)
        if key in seen:
            problems.append(CardProblem(position, seen[key]))
        seen[key] = position
    return problems


def entries_resolved(entries: list[EntryData]) -> list[EntryData]:
    """Return the entries with their printing ids (blank printing: the first printing).
    The entries are checked (card_problems found nothing)."""
    printings = _printings_of(e.card_id for e in entries)
    return [
        replace(entry, printing_id=printings[entry.card_id][entry.printing.lower()])
        for entry in entries
    ]


def printing_unknown_message(entry: EntryData) -> str:
    return _("printing “%(code)s” is not a printing of card %(id)s.") % {
        "code": entry.printing,
        "id": entry.card_id,
    }


def _check_cards(items: list[tuple[str, EntryData]], problems: list[str]) -> None:
    for problem in card_problems([entry for _where, entry in items]):
        where, entry = items[problem.position]
        if problem.repeats is not None:
            problems.append(
                _("%(where)s: the same printing and variant as %(other)s.")
                % {"where": where, "other": items[problem.repeats][0]}
            )
        elif problem.field == "printing":
            problems.append(
                _("%(where)s: %(problem)s")
                % {"where": where, "problem": printing_unknown_message(entry)}
            )
        else:
            problems.append(
                _("%(where)s: unknown card “%(id)s”.") % {"where": where, "id": entry.card_id}
            )


@transaction.atomic
def _apply(*, owner, entries: list[EntryData], replace: bool, card_id: str | None = None) -> int:
    entries = entries_resolved(entries)
    rows = CollectionEntry.objects.filter(owner=owner)
    if card_id is not None:  # a replace of one card's rows only
        rows = rows.filter(card_id=card_id)
    if replace:
        rows.delete()
        # Every old row is gone and no printing and variant repeats (checked): plain inserts.
        kept = [entry for entry in entries if entry.quantity or entry.wanted]
        CollectionEntry.objects.bulk_create(
            [
                CollectionEntry(
                    owner=owner,
                    card_id=entry.card_id,
                    printing_id=entry.printing_id,
                    condition=entry.condition,
                    language=entry.language,
                    quantity=entry.quantity,
                    for_trade=entry.for_trade,
                    wanted=entry.wanted,
                )
                for entry in kept
            ],
            batch_size=500,
        )
    else:
        for entry in entries:
            CollectionEntry.objects.update_or_create(
                owner=owner,
                printing_id=entry.printing_id,
                condition=entry.condition,
                language=entry.language,
                defaults={
                    "card_id": entry.card_id,
                    "quantity": entry.quantity,
                    "for_trade": entry.for_trade,
                    "wanted": entry.wanted,
                },
            )
    # A row that records nothing (no copy, no want) is not kept.
    CollectionEntry.objects.filter(owner=owner, quantity=0, wanted=0).delete()
    if entries:  # an empty save records nothing, not even the default settings row
        collection_get_or_create(owner=owner)
    return len(entries)


def _checked_items(items) -> list[EntryData]:
    """Return the checked entries, or raise CollectionError naming every bad one."""
    problems: list[str] = []
    checked: list[tuple[str, EntryData]] = []
    if not isinstance(items, list):
        raise CollectionError([_("The entries must be a list.")])
    for index, raw in enumerate(items, start=1):
        where = _("Entry %(n)d") % {"n": index}
        if not isinstance(raw, dict):
            problems.append(_("%(where)s: must be an object.") % {"where": where})
            continue
        entry = entry_data_check(raw, where=where, problems=problems)
        if entry is not None:
            checked.append((where, entry))
    _check_cards(checked, problems)
    if problems:
        raise CollectionError(problems)
    return [entry for _where, entry in checked]


def collection_entries_save(*, owner, items: list[dict], replace: bool = False) -> int:
    """Set the given entries (API items or grid rows), whole or not at all.

    With `replace`, the collection becomes exactly the given entries. Return how many were set.
    """
    return _apply(owner=owner, entries=_checked_items(items), replace=replace)


@transaction.atomic
def collection_replace(*, owner, items: list[dict], visibility: str | None = None) -> int:
    """Make the collection exactly the given entries (and set who may see it), all or nothing.

    Return how many entries were set. Without a visibility the sharing setting is kept.
    """
    if visibility is not None and visibility not in Collection.Visibility.values:
        raise CollectionError([_("Unknown visibility “%(v)s”.") % {"v": visibility}])
    count = collection_entries_save(owner=owner, items=items, replace=True)
    if visibility is not None:
        collection_set_visibility(owner=owner, visibility=visibility)
    return count


@transaction.atomic
def collection_card_replace(*, owner, card_id: str, items: list[dict]) -> int:
    """Make one card's rows (every printing and variant) exactly the given entries, all or
    nothing."""
    card_id = card_id.upper()
    if isinstance(items, list):
        items = [{**item, "card": card_id} if isinstance(item, dict) else item for item in items]
    entries = _checked_items(items)
    return _apply(owner=owner, entries=entries, replace=True, card_id=card_id)


def collection_card_delete(*, owner, card_id: str) -> int:
    """Remove every row (printing and variant) of one card from the collection; return how
    many went."""
    deleted, _per_model = CollectionEntry.objects.filter(
        owner=owner, card_id=card_id.upper()
    ).delete()
    return deleted


def collection_entry_set(
    *,
    owner,
    card_id: str,
    quantity: int,
    condition: str = "",
    language: str = "",
    for_trade: int = 0,
    wanted: int = 0,
    printing: str = "",
) -> int:
    """Set one card's quantity (and marks) for one printing (blank: the first) and variant."""
    item = {
        "card": card_id,
        "printing": printing,
        "quantity": quantity,
        "condition": condition,
        "language": language,
        "for_trade": for_trade,
        "wanted": wanted,
    }
    return collection_entries_save(owner=owner, items=[item])


@transaction.atomic
def collection_add_copies(*, owner, card_id: str, delta: int) -> int:
    """Add (or with a negative delta, remove) copies of a card's first printing, variant not
    recorded.

    Return the new quantity of that row; it never goes below 0 nor above the maximum.
    """
    card = Card.objects.filter(id=card_id.upper()).first()
    if card is None:
        raise CollectionError([_("Unknown card “%(id)s”.") % {"id": card_id}])
    first = card.printings.get(kind=Printing.Kind.FIRST)
    entry, _created = CollectionEntry.objects.select_for_update().get_or_create(
        owner=owner, printing=first, condition="", language="", defaults={"card": card}
    )
    entry.quantity = max(0, min(MAX_QUANTITY, entry.quantity + delta))
    entry.for_trade = min(entry.for_trade, entry.quantity)
    if entry.quantity == 0 and entry.wanted == 0:
        entry.delete()
        return 0
    entry.save()
    collection_get_or_create(owner=owner)
    return entry.quantity


def collection_add_found(*, owner, items: list[dict]) -> list[CollectionEntry]:
    """Add copies of cards recognised from a photo (each item: card, quantity of at least 1,
    printing (blank: the first), condition, and `where`, how the page names it), whole or not
    at all: every bad item is named, and nothing is added unless every one is good. A row that
    exists gets the copies on top of its own (its trade and want marks kept); no row may pass
    the maximum. Return the rows as they are after the add."""
    problems: list[str] = []
    checked: list[tuple[str, EntryData]] = []
    for index, raw in enumerate(items, start=1):
        where = str(raw.get("where") or "") or _("Entry %(n)d") % {"n": index}
        if not str(raw.get("card") or "").strip():
            problems.append(_("%(where)s: choose which card it is.") % {"where": where})
            continue
        entry = entry_data_check(
            {key: raw.get(key) for key in ("card", "quantity", "printing", "condition")},
            where=where,
            problems=problems,
        )
        if entry is not None and entry.quantity < 1:
            problems.append(_("%(where)s: add at least one copy.") % {"where": where})
        elif entry is not None:
            checked.append((where, entry))
    if not items:
        problems.append(_("Nothing to add: choose a card first."))
    # The same printing and condition twice (two copies of one card on a binder page) adds up.
    merged: dict[tuple, tuple[str, EntryData]] = {}
    for where, entry in checked:
        key = (entry.card_id, entry.printing.lower(), entry.condition)
        if key in merged:
            first_where, first = merged[key]
            merged[key] = (first_where, replace(first, quantity=first.quantity + entry.quantity))
        else:
            merged[key] = (where, entry)
    checked = list(merged.values())
    _check_cards(checked, problems)
    if problems:
        raise CollectionError(problems)
    return _add_copies(owner=owner, checked=checked)


@transaction.atomic
def _add_copies(*, owner, checked: list[tuple[str, EntryData]]) -> list[CollectionEntry]:
    entries = entries_resolved([entry for _where, entry in checked])
    rows = {
        (row.printing_id, row.condition): row
        for row in CollectionEntry.objects.select_for_update().filter(
            owner=owner,
            printing_id__in=[entry.printing_id for entry in entries],
            language="",
        )
    }
    problems: list[str] = []
    saved = []
    for (where, _entry), entry in zip(checked, entries, strict=True):
        row = rows.get((entry.printing_id, entry.condition))
        if row is None:
            row = CollectionEntry(
                owner=owner,
                card_id=entry.card_id,
                printing_id=entry.printing_id,
                condition=entry.condition,
                language="",
            )
        if row.quantity + entry.quantity > MAX_QUANTITY:
            problems.append(
                _("%(where)s: you would own %(n)d copies of %(card)s; at most %(max)d.")
                % {
                    "where": where,
                    "n": row.quantity + entry.quantity,
                    "card": entry.card_id,
                    "max": MAX_QUANTITY,
                }
            )
            continue
        row.quantity += entry.quantity
        saved.append(row)
    if problems:
        raise CollectionError(problems)
    for row in saved:
        row.save()
    collection_get_or_create(owner=owner)
    return saved


def collection_import_csv(*, owner, data: bytes, replace: bool = False) -> int:
    """Import a CSV (header: card,quantity[,printing,condition,language,for_trade,wanted]).

    A file without a printing column (older exports) puts every row on the card's first
    printing; one without a condition column leaves the condition not recorded. All or
    nothing: every bad line is named by its line number and nothing is saved unless every
    line is good. Return how many rows were set.
    """
    if len(data) > MAX_CSV_BYTES:
        raise CollectionError(
            [_("The file is too large (at most %(n)d KB).") % {"n": MAX_CSV_BYTES // 1024}]
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CollectionError([_("The file is not UTF-8 text.")]) from None
    if "\x00" in text:
        raise CollectionError([_("The file is not UTF-8 text.")])
    reader = csv.reader(io.StringIO(text))
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise CollectionError([_("Line %(n)d: %(e)s") % {"n": reader.line_num, "e": exc}]) from None
    if not rows:
        raise CollectionError([_("The file is empty.")])
    header = [name.strip().lower() for name in rows[0]]
    problems: list[str] = []
    unknown = [name for name in header if name not in CSV_COLUMNS]
    if "card" not in header or "quantity" not in header or unknown:
        raise CollectionError(
            [
                _("Line 1: the header must name card and quantity (columns: %(cols)s).")
                % {"cols": ", ".join(CSV_COLUMNS)}
            ]
        )
    if len(rows) - 1 > MAX_CSV_ROWS:
        raise CollectionError([_("Too many lines (at most %(n)d).") % {"n": MAX_CSV_ROWS}])
    checked: list[tuple[str, EntryData]] = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        where = _("Line %(n)d") % {"n": number}
        if len(row) != len(header):
            problems.append(
                _("%(where)s: expected %(want)d columns, found %(got)d.")
                % {"where": where, "want": len(header), "got": len(row)}
            )
            continue
        entry = entry_data_check(
            dict(zip(header, row, strict=True)), where=where, problems=problems
        )
        if entry is not None:
            checked.append((where, entry))
    _check_cards(checked, problems)
    if problems:
        raise CollectionError(problems)
    return _apply(owner=owner, entries=[e for _w, e in checked], replace=replace)
