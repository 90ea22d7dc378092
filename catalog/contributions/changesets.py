"""Changesets: many cards of one set proposed at once, reviewed card by card, applied at once.

A collector sends a set's rows (pasted from a spreadsheet, or from the set grid); every row is
checked by the one card check (`proposal_check`, as a single proposal and `import_cards`), and
a changeset with any bad row saves nothing and names the row and the field. An editor accepts
some cards and rejects others with a reason; everything accepted is applied in one transaction
through `apply_rows`, so every accepted card gets its revision with the changeset's source, and
every deck holding changed cards is re-validated once, with one version naming them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from catalog import opendata_import
from catalog.cache import catalog_bump
from catalog.card_format import PROPOSAL_FIELDS
from catalog.contributions.services import (
    ProposalError,
    check_reviewer,
    clean_text,
    lock_user,
    proposal_check,
)
from catalog.importer import (
    UNSOURCED_FIELDS,
    ImportFileError,
    RowProblem,
    apply_rows,
    read_csv,
    real_cards_overwritten,
)
from catalog.models import Card, CardProposal, CardScan, Changeset, ScanUpload
from catalog.scans import ScanError, scan_probe, scan_upload_store

ACCEPT, REJECT = "accept", "reject"


class ChangesetChanged(Exception):
    """A review of a changeset someone reviewed (or changed) since the page was shown."""

    def __init__(self, changeset: Changeset, seen: int):
        super().__init__(f"Changeset {changeset.pk} is at version {changeset.version}, not {seen}.")
        self.changeset = changeset
        self.seen = seen


@dataclass(frozen=True)
class Decision:
    action: str  # ACCEPT or REJECT
    reason: str = ""


def rows_from_text(text: str) -> list[tuple[int, dict]]:
    """Return (line, raw row) pairs from pasted spreadsheet text: tab-separated (as a
    spreadsheet copies) or comma-separated, with a header line naming the card fields."""
    if not text.strip():
        raise ProposalError(
            [RowProblem(0, "rows", "nothing was pasted: give a header line, then a line a card")]
        )
    if "\x00" in text:
        raise ProposalError([RowProblem(0, "rows", "contains a NUL byte")])
    if len(text) > settings.CHANGESET_MAX_BYTES:
        raise ProposalError(
            [
                RowProblem(
                    0,
                    "rows",
                    f"is {len(text):,} characters long (at most {settings.CHANGESET_MAX_BYTES:,})",
                )
            ]
        )
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    if "\t" in first:  # a spreadsheet's copy: tabs; quote nothing, as it does not
        text = "\n".join(
            ",".join('"' + cell.replace('"', '""') + '"' for cell in line.split("\t"))
            for line in text.lstrip("\ufeff").splitlines()
        )
    try:
        return read_csv(text.lstrip("\ufeff"))
    except ImportFileError as exc:
        raise ProposalError([RowProblem(0, "rows", str(exc))]) from None


def _card_named(raw: dict) -> str:
    """Return the card id a raw row names ("BS-012"), or "" when its set or number is unclear,
    so a problem names the card as well as the line (the grid's rows are set numbers)."""
    code, number = str(raw.get("set", "")).strip().upper(), str(raw.get("number", "")).strip()
    if code.isalnum() and number.isascii() and number.isdigit() and len(number) <= 3:
        return f"{code}-{int(number):03d}"
    return ""


def _lock_user_and_check_limit(user) -> None:
    lock_user(user)
    since = timezone.now() - timedelta(days=1)
    sent = Changeset.objects.filter(proposer=user, created_at__gte=since).count()
    if sent >= settings.CHANGESETS_PER_DAY:
        raise ProposalError(
            [
                RowProblem(
                    0,
                    "",
                    f"You can send {settings.CHANGESETS_PER_DAY} changesets a day; "
                    "try again tomorrow.",
                )
            ]
        )


def _check_scans(scans: dict[int, object], lines: dict[int, tuple[int, str]]) -> list:
    """Return the problems of a changeset's scans (one a set number), each naming its row:
    a number no row was sent for, too many files or bytes in all, a file refused by its header
    (scan_probe: format, pixel size, byte size). Nothing is decoded here (issue #26)."""
    problems = []
    if len(scans) > settings.CHANGESET_SCANS_MAX:
        problems.append(
            RowProblem(
                0,
                "scan",
                f"{len(scans)} scans; a changeset carries at most {settings.CHANGESET_SCANS_MAX}",
            )
        )
    total = sum(upload.size for upload in scans.values())
    if total > settings.CHANGESET_SCANS_MAX_BYTES:
        limit = settings.CHANGESET_SCANS_MAX_BYTES
        problems.append(
            RowProblem(
                0,
                "scan",
                f"the scans come to {total:,} bytes; a changeset carries at most {limit:,} "
                f"({limit // 1_000_000} MB): send the rest in another changeset",
            )
        )
    for number, upload in sorted(scans.items()):
        if number not in lines:
            problems.append(
                RowProblem(0, "scan", f"a scan was given for number {number}, but no row for it")
            )
            continue
        line, card = lines[number]
        try:
            scan_probe(upload)
        except ScanError as exc:
            problems.append(RowProblem(line, "scan", f"{card} ({upload.name}): {exc}"))
    return problems


def changeset_create(
    *,
    proposer,
    rows: list[tuple[int, dict]],
    source: str,
    note: str = "",
    scans: dict[int, object] | None = None,
) -> tuple[Changeset, int]:
    """Record the rows that differ from the catalogue as one changeset of one set; return it
    and the number of rows left out because they change nothing.

    `scans` gives a row's scan of the front by set number (the set grid); a row with a scan is
    proposed even if its fields are the catalogue's. The scans are stored for the control
    worker (catalog.tasks.scan_process), never decoded here. Every row and scan is checked
    first; any problem (a bad field, a row of another set, a number given twice, too many rows,
    a scan refused or over the changeset's caps) raises ProposalError naming each row and
    field, and nothing is saved.
    """
    scans = scans or {}
    if not proposer.is_authenticated:
        raise ProposalError([RowProblem(0, "", "Sign in to propose cards.")])
    source = clean_text(source, "source", 200, required=True)
    note = clean_text(note, "note", 2000, required=False)
    if not rows:
        raise ProposalError([RowProblem(0, "rows", "no card rows were given")])
    if len(rows) > settings.CHANGESET_MAX_ROWS:
        raise ProposalError(
            [
                RowProblem(
                    0,
                    "rows",
                    f"{len(rows):,} rows; a changeset holds at most "
                    f"{settings.CHANGESET_MAX_ROWS:,}",
                )
            ]
        )
    problems: list[RowProblem] = []
    checked: list[tuple[int, dict, dict]] = []
    seen: dict[str, int] = {}
    for line, raw in rows:
        data = {name: raw.get(name, "") for name in PROPOSAL_FIELDS}
        try:
            row = proposal_check(data)
        except ProposalError as exc:
            card = _card_named(raw)
            problems += [
                RowProblem(line, p.field, f"{card}: {p.message}" if card else p.message)
                for p in exc.problems
            ]
            continue
        if row["id"] in seen:
            problems.append(
                RowProblem(
                    line, "number", f"{row['id']} is given twice (first on line {seen[row['id']]})"
                )
            )
            continue
        seen[row["id"]] = line
        checked.append((line, data, row))
    sets = {row["card_set_id"] for _, _, row in checked}
    if len(sets) > 1:
        problems.append(
            RowProblem(
                0,
                "set",
                f"one changeset holds one set's cards; these rows name {', '.join(sorted(sets))}",
            )
        )
    lines = {row["number"]: (line, row["id"]) for line, _data, row in checked}
    if scans and not problems:  # the rows first: a scan's row must be one that is sent
        problems += _check_scans(scans, lines)
    if problems:
        raise ProposalError(sorted(problems, key=lambda p: p.line))
    current = Card.objects.in_bulk(list(seen))
    changed = [
        (line, data, row)
        for line, data, row in checked
        if row["number"] in scans or _differs(current.get(row["id"]), row)
    ]
    unchanged = len(checked) - len(changed)
    if not changed:
        raise ProposalError(
            [RowProblem(0, "rows", "every row is the same as the catalogue: nothing to propose")]
        )
    with transaction.atomic():
        _lock_user_and_check_limit(proposer)
        changeset = Changeset.objects.create(
            proposer=proposer, card_set_id=sets.pop(), source=source, note=note
        )
        CardProposal.objects.bulk_create(
            CardProposal(
                proposer=proposer,
                changeset=changeset,
                card_set_id=row["card_set_id"],
                number=row["number"],
                card_id=row["id"],
                data=data,
                source=source,
                note=note,
            )
            for _line, data, row in changed
        )
        if scans:
            by_number = {p.number: p for p in changeset.proposals.all()}
            for number, upload in sorted(scans.items()):
                scan_upload_store(upload=upload, side="front", proposal=by_number[number])
        catalog_bump()  # `is:pending` answers change with the proposals
    return changeset, unchanged


def _differs(card: Card | None, row: dict) -> bool:
    """Return whether a checked row would change the card (a sample always becomes real), by
    the fields an import compares when the row names no source of its own."""
    if card is None or card.is_sample:
        return True
    return any(getattr(card, name) != row[name] for name in UNSOURCED_FIELDS)


def changeset_review(
    *, changeset: Changeset, reviewer, decisions: dict[int, Decision], seen_version: int
) -> Changeset:
    """Accept and reject the changeset's cards; apply every accepted one in one transaction.

    `decisions` maps each of its proposals' ids to accept or reject (a rejection needs a
    reason); every card must be decided. ProposalError names what is wrong and applies nothing;
    ChangesetChanged when the changeset is no longer the version the editor saw.
    """
    check_reviewer(
        changeset, reviewer, accepting=any(d.action == ACCEPT for d in decisions.values())
    )
    with transaction.atomic():
        locked = Changeset.objects.select_for_update().get(pk=changeset.pk)
        if locked.version != seen_version or locked.status != Changeset.Status.PENDING:
            raise ChangesetChanged(locked, seen_version)
        proposals = list(locked.proposals.select_for_update().order_by("number"))
        problems = []
        ids = {p.pk for p in proposals}
        if set(decisions) != ids:
            problems.append(RowProblem(0, "decisions", "decide every card of the changeset"))
        for proposal in proposals:
            decision = decisions.get(proposal.pk)
            if decision and decision.action == REJECT and not decision.reason.strip():
                problems.append(
                    RowProblem(
                        proposal.number, "reason", f"{proposal.card_id}: give a reason to reject it"
                    )
                )
        accepted = [p for p in proposals if decisions.get(p.pk, Decision(REJECT)).action == ACCEPT]
        if reviewer.pk != locked.proposer_id:
            # An editor accepts only scans they could see (as for a single proposal).
            waiting = ScanUpload.objects.filter(
                proposal__in=accepted, status=ScanUpload.Status.PENDING
            ).values_list("proposal__card_id", flat=True)
            problems += [
                RowProblem(0, "scan", f"{card_id}: its scan is still being processed; wait")
                for card_id in sorted(waiting)
            ]
        rows = []
        for proposal in accepted:
            if locked.origin is not None:  # an open-data import: the export's own card row
                row, found = opendata_import.accepted_row(proposal.origin)
                if row is not None and row["is_sample"]:
                    found = real_cards_overwritten([row])
                problems += [
                    RowProblem(proposal.number, p.field, f"{proposal.card_id}: {p.message}")
                    for p in found
                ]
                if row is not None and not found:
                    rows.append((proposal, row))
                continue
            try:
                row = proposal_check(proposal.data)  # the catalogue may have changed since
            except ProposalError as exc:
                problems += [
                    RowProblem(proposal.number, p.field, f"{proposal.card_id}: {p.message}")
                    for p in exc.problems
                ]
                continue
            row["source"] = locked.source
            rows.append((proposal, row))
        if problems:
            raise ProposalError(problems)
        if rows and locked.origin is not None:
            # Each card keeps the source it has there (empty stays empty); the source instance
            # is recorded on every revision, with the card's history there (issue #24 item 5).
            report = apply_rows(
                [row for _, row in rows], proposed_by=locked.proposer, accepted_by=reviewer
            )
            imported = {**locked.origin["instance"], "changeset": locked.pk}
            origins = {p.card_id: p.origin for p, _ in rows}
            opendata_import.carry_history(report.revisions, origins, imported)
            opendata_import.carry_notes(
                origins, imported, proposed_by=locked.proposer, accepted_by=reviewer
            )
            # Printings are checked again now, as a printing proposal is on accept; a problem
            # raises inside the transaction, so nothing of the review is saved.
            refused = opendata_import.carry_printings(origins)
            if refused:
                numbers = {p.card_id: p.number for p, _ in rows}
                raise ProposalError(
                    [
                        RowProblem(numbers[card_id], field, f"{card_id}: {message}")
                        for card_id, field, message in refused
                    ]
                )
        elif rows:
            apply_rows(
                [row for _, row in rows],
                source=locked.source,
                proposed_by=locked.proposer,
                accepted_by=reviewer,
            )
        now = timezone.now()
        for proposal in proposals:
            decision = decisions[proposal.pk]
            proposal.status = (
                CardProposal.Status.ACCEPTED
                if decision.action == ACCEPT
                else CardProposal.Status.REJECTED
            )
            proposal.reason = decision.reason.strip()[:2000] if decision.action == REJECT else ""
            proposal.reviewer, proposal.reviewed_at = reviewer, now
        CardProposal.objects.bulk_update(proposals, ["status", "reason", "reviewer", "reviewed_at"])
        for proposal in proposals:
            if proposal.status == CardProposal.Status.ACCEPTED:
                CardScan.objects.filter(proposal=proposal).update(card_id=proposal.card_id)
        refused = [p for p in proposals if p.status == CardProposal.Status.REJECTED]
        # A rejected card's scans are not kept: rows now, files once this commits.
        CardScan.objects.filter(proposal__in=refused).delete()
        ScanUpload.objects.filter(proposal__in=refused).delete()
        locked.status, locked.reviewer, locked.reviewed_at = (
            Changeset.Status.REVIEWED,
            reviewer,
            now,
        )
        locked.version += 1
        locked.save()
        catalog_bump()
    return locked


def changeset_conflicts(changeset: Changeset) -> dict[str, list[CardProposal]]:
    """Return, by card id, the other pending proposals (alone or in other changesets) for the
    cards this changeset proposes: an editor must see them before accepting either."""
    ids = list(changeset.proposals.values_list("card_id", flat=True))
    others = (
        CardProposal.objects.filter(card_id__in=ids, status=CardProposal.Status.PENDING)
        .exclude(changeset=changeset)
        .select_related("proposer", "changeset")
        .order_by("card_id", "created_at")
    )
    found: dict[str, list[CardProposal]] = {}
    for other in others:
        found.setdefault(other.card_id, []).append(other)
    return found
