"""Read paths of contributions: the review queue, a user's proposals, a card's history and
the set checklists (which numbers are real, proposed or still a sample placeholder)."""

from dataclasses import dataclass

from django.db.models import Count, Max, OuterRef, Q, Subquery
from django.utils.translation import gettext

from catalog.card_format import DIFF_FIELDS
from catalog.card_words import field_label, teams_for, value_said
from catalog.importer import card_row, validate_card
from catalog.models import (
    Card,
    CardNoteProposal,
    CardProposal,
    CardRevision,
    CardScan,
    CardSet,
    Changeset,
    Erratum,
    Printing,
    Ruling,
    ScanUpload,
)
from catalog.scans import failure_said


def pending_changesets():
    """Return the changesets waiting for review, oldest first, each with its card count."""
    return (
        Changeset.objects.filter(status=Changeset.Status.PENDING)
        .select_related("proposer", "card_set")
        .annotate(cards=Count("proposals"))
        .order_by("created_at", "id")
    )


def changeset_review_rows(changeset: Changeset) -> list[dict]:
    """Return each card of a changeset with the catalogue's card now and the field difference
    (the changed fields only), in set-number order."""
    proposals = list(changeset.proposals.order_by("number"))
    cards = {
        card.id: card
        for card in Card.objects.filter(id__in=[p.card_id for p in proposals]).select_related(
            "team"
        )
    }
    scans: dict[int, list] = {}
    for scan in CardScan.objects.filter(proposal__in=proposals):
        scans.setdefault(scan.proposal_id, []).append(scan)
    uploads: dict[int, list] = {}
    for upload in ScanUpload.objects.filter(proposal__in=proposals).exclude(
        status=ScanUpload.Status.DONE
    ):
        upload.said = failure_said(upload)
        uploads.setdefault(upload.proposal_id, []).append(upload)
    rows = []
    for proposal in proposals:
        card = cards.get(proposal.card_id)
        diff = field_diff(card_row(card) if card else None, proposal_result(proposal))
        waiting = uploads.get(proposal.pk, [])
        rows.append(
            {
                "proposal": proposal,
                "card": card,
                "diff": [row for row in diff if row["changed"]],
                "scans": by_side(scans.get(proposal.pk, [])),
                "uploads_pending": [u for u in waiting if u.status == ScanUpload.Status.PENDING],
                "uploads_failed": [u for u in waiting if u.status == ScanUpload.Status.FAILED],
                "printings": imported_printings(proposal),
            }
        )
    return rows


def imported_printings(proposal: CardProposal) -> list[dict]:
    """Return the printings an open-data import brings for this card (not here yet, or here
    otherwise), each with its kind and changed fields said in the reader's language."""
    kinds = dict(Printing.Kind.choices)
    labels = {
        "kind": gettext("Kind"),
        "label": gettext("Label"),
        "notes": gettext("Notes"),
        "is_sample": gettext("sample"),
    }
    return [
        {
            **printing,
            "kind_said": kinds.get(printing["kind"], printing["kind"]),
            "set_name": sets.get(printing["set"], printing["set"]),
            "diff_said": ", ".join(labels.get(k, k) for k in printing.get("diff", [])),
        }
        for sets in [{s.code: s.display_name for s in CardSet.objects.all()}]
        for printing in ((proposal.origin or {}).get("printings") or [])
    ]


def review_queue():
    """Return the pending proposals sent alone (a changeset's cards are reviewed with it),
    oldest first (the order an editor works through them), each with `same_number`: how many
    pending proposals its set number has."""
    pending = CardProposal.objects.filter(status=CardProposal.Status.PENDING)
    same = (
        pending.filter(card_id=OuterRef("card_id"))
        .order_by()
        .values("card_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    return (
        pending.filter(changeset__isnull=True)
        .select_related("proposer", "card_set")
        .annotate(same_number=Subquery(same))
        .order_by("created_at", "id")
    )


def proposals_of(user):
    """Return a user's proposals, newest first."""
    return CardProposal.objects.filter(proposer=user).select_related("reviewer", "card_set")


def notes_of(user):
    """Return a user's proposed errata and rulings, newest first."""
    return CardNoteProposal.objects.filter(proposer=user).select_related("reviewer")


def printings_of(user):
    """Return a user's proposed printings, newest first."""
    from catalog.models import PrintingProposal

    return PrintingProposal.objects.filter(proposer=user).select_related("card_set", "reviewer")


def proposals_beside(proposal: CardProposal):
    """Return the other pending proposals for the same set number."""
    return (
        CardProposal.objects.filter(card_id=proposal.card_id, status=CardProposal.Status.PENDING)
        .exclude(pk=proposal.pk)
        .select_related("proposer")
        .order_by("created_at")
    )


def _value(data: dict, name: str):
    value = data.get(name, "")
    return "" if value is None else str(value).strip()


def field_diff(before: dict | None, after: dict) -> list[dict]:
    """Return one row per card field: the value before, after, and whether it changed."""
    rows = []
    for name in DIFF_FIELDS:
        old = _value(before, name) if before else ""
        new = _value(after, name)
        if name in ("shoot", "keep", "defense"):
            old, new = old or "0", new or "0"
        if name in ("kind",):
            new = new.lower()
        rows.append({"field": name, "before": old, "after": new, "changed": old != new})
    teams = teams_for(
        row[side] for row in rows if row["field"] == "team" for side in ("before", "after")
    )
    for row in rows:
        row["label"] = field_label(row["field"])
        row["before_said"] = value_said(row["field"], row["before"], teams=teams)
        row["after_said"] = value_said(row["field"], row["after"], teams=teams)
    return rows


def proposal_review(proposal: CardProposal) -> dict:
    """Return what a review page shows: the card now, the difference, scans, proposals beside."""
    card = Card.objects.filter(id=proposal.card_id).select_related("team").first()
    now = card_row(card) if card else None
    return {
        "card": card,
        "diff": field_diff(now, proposal_result(proposal)),
        "scans": by_side(proposal.scans.all()),
        "card_scans": card_scans(card) if card else {},
        "beside": proposals_beside(proposal),
        **scan_uploads(proposal),
    }


def scan_uploads(proposal: CardProposal) -> dict:
    """Return the proposal's uploads still being processed and those that failed (with their
    messages); a processed one shows as its scan."""
    rows = list(proposal.scan_uploads.exclude(status=ScanUpload.Status.DONE))
    pending = [row for row in rows if row.status == ScanUpload.Status.PENDING]
    for row in rows:
        row.said = failure_said(row)
    return {
        "uploads_pending": pending,
        "uploads_failed": [row for row in rows if row.status == ScanUpload.Status.FAILED],
    }


def proposal_result(proposal: CardProposal) -> dict:
    """Return the card a proposal would make, as checked (a player's person defaults to its
    name, a goalkeeper's position is GK); its raw data if it no longer passes the check."""
    row, problems = validate_card({**proposal.data, "is_sample": False})
    if row is None:
        return proposal.data
    return {**row, "team": row["team_id"] or ""}


def by_side(scans) -> dict:
    """Return the newest of the scans for each side, the front first ({"front": …, "back": …})."""
    newest = {}
    for scan in sorted(scans, key=lambda s: (s.created_at, s.id), reverse=True):
        newest.setdefault(scan.side, scan)
    return {side: newest[side] for side in CardScan.Side.values if side in newest}


def card_scans(card: Card) -> dict:
    """Return the card's newest scan of each side, the front first."""
    return by_side(CardScan.objects.filter(card=card))


def card_history(card: Card):
    """Return the card's revisions, newest first."""
    return (
        CardRevision.objects.filter(card=card)
        .select_related("proposed_by", "accepted_by")
        .order_by("-number")
    )


def proposal_as_seen(proposal: CardProposal, version: int) -> dict | None:
    """Return a version of the proposal ({"version", "data", "source", "note"}), or None."""
    if version == proposal.version:
        return {
            "version": proposal.version,
            "data": proposal.data,
            "source": proposal.source,
            "note": proposal.note,
        }
    for edit in proposal.edits.all():
        if edit.previous.get("version") == version:
            return edit.previous
    return None


def proposal_changes_since(proposal: CardProposal, version: int) -> dict:
    """Return what changed in a proposal since `version`: its field difference (rows as
    `field_diff` gives them) and whether the source or note changed."""
    seen = proposal_as_seen(proposal, version) or {"data": {}, "source": "", "note": ""}
    rows = field_diff(seen["data"], proposal.data)
    return {
        "seen": version,
        "now": proposal.version,
        "diff": [row for row in rows if row["changed"]],
        "source": (seen["source"], proposal.source) if seen["source"] != proposal.source else None,
        "note": (seen["note"], proposal.note) if seen["note"] != proposal.note else None,
    }


def revision_compare(card: Card, a: int, b: int) -> dict | None:
    """Return the field difference between two revisions of a card, or None if one is missing."""
    revisions = {r.number: r for r in CardRevision.objects.filter(card=card, number__in=[a, b])}
    if a not in revisions or b not in revisions:
        return None
    older, newer = sorted([revisions[a], revisions[b]], key=lambda r: r.number)
    return {"older": older, "newer": newer, "diff": field_diff(older.data, newer.data)}


@dataclass(frozen=True)
class ChecklistEntry:
    number: int
    card_id: str
    state: str  # "real", "pending", "sample" or "missing"
    card: Card | None
    pending: int


@dataclass(frozen=True)
class SetProgress:
    card_set: CardSet
    total: int
    real: int
    pending: int
    sample: int

    @property
    def percent(self) -> int:
        return round(100 * self.real / self.total) if self.total else 0


def set_size(card_set: CardSet, highest: int | None) -> int:
    """Return how many numbers a set has: its kinds for an expansion, its highest number for a
    championship deck (whose `kinds_count` counts decks, not cards)."""
    if card_set.kind == CardSet.Kind.EXPANSION:
        return max(card_set.kinds_count, highest or 0)
    return highest or 0


def set_checklist(card_set: CardSet) -> list[ChecklistEntry]:
    """Return one entry per number 1..N of the set: real, pending review, sample or missing."""
    cards = {c.number: c for c in card_set.cards.all()}
    pending = dict(
        CardProposal.objects.filter(card_set=card_set, status=CardProposal.Status.PENDING)
        .values("number")
        .annotate(n=Count("id"))
        .values_list("number", "n")
    )
    highest = max([*cards, *pending], default=0)
    entries = []
    for number in range(1, set_size(card_set, highest) + 1):
        card = cards.get(number)
        if card is not None and not card.is_sample:
            state = "real"
        elif pending.get(number):
            state = "pending"
        elif card is not None:
            state = "sample"
        else:
            state = "missing"
        entries.append(
            ChecklistEntry(
                number, Card.make_id(card_set.code, number), state, card, pending.get(number, 0)
            )
        )
    return entries


def sets_progress() -> list[SetProgress]:
    """Return every set's progress towards a complete real card list."""
    sets = CardSet.objects.annotate(
        real=Count("cards", filter=Q(cards__is_sample=False)),
        sample=Count("cards", filter=Q(cards__is_sample=True)),
        highest=Max("cards__number"),
    ).order_by("display_order")
    pending = dict(
        CardProposal.objects.filter(status=CardProposal.Status.PENDING)
        .values("card_set")
        .annotate(n=Count("card_id", distinct=True))
        .values_list("card_set", "n")
    )
    return [
        SetProgress(s, set_size(s, s.highest), s.real, pending.get(s.code, 0), s.sample)
        for s in sets
    ]


def set_progress(card_set: CardSet) -> SetProgress:
    """Return one set's progress."""
    return next(p for p in sets_progress() if p.card_set.code == card_set.code)


def card_contrib_section(request, card: Card) -> dict:
    """Return the card page's scans, history and pending proposals (an extension section)."""
    pending = CardProposal.objects.filter(card_id=card.id, status=CardProposal.Status.PENDING).only(
        "pk"
    )
    return {
        "template": "catalog/_card_contrib.html",
        "data": {
            "scans": card_scans(card),
            "revisions": list(card_history(card)[:20]),
            "pending": list(pending),
            **card_notes(card),
            "pending_notes": CardNoteProposal.objects.filter(
                card=card, status=CardNoteProposal.Status.PENDING
            ).count(),
        },
    }


def card_notes(card: Card) -> dict:
    """Return a card's accepted errata (oldest first) and rulings (by date)."""
    return {
        "errata": list(Erratum.objects.filter(card=card).order_by("created_at", "id")),
        "rulings": list(Ruling.objects.filter(card=card).order_by("ruling_date", "id")),
    }


def card_notes_rows(card_id: str) -> dict:
    """Return a card's accepted errata and rulings as the card API writes them (JSON-ready:
    dates and times in ISO 8601)."""
    errata = Erratum.objects.filter(card_id=card_id).order_by("created_at", "id")
    rulings = Ruling.objects.filter(card_id=card_id).order_by("ruling_date", "id")
    return {
        "errata": [
            {
                "printed_text": e.printed_text,
                "current_text": e.current_text,
                "source": e.source,
                "created_at": _iso(e.created_at),
            }
            for e in errata
        ],
        "rulings": [
            {
                "text": r.text,
                "date": r.ruling_date.isoformat(),
                "source": r.source,
                "created_at": _iso(r.created_at),
            }
            for r in rulings
        ],
    }


def _iso(moment) -> str:
    value = moment.isoformat()
    return value[:-6] + "Z" if value.endswith("+00:00") else value


def note_queue():
    """Return the errata and rulings waiting for review, oldest first."""
    return (
        CardNoteProposal.objects.filter(status=CardNoteProposal.Status.PENDING)
        .select_related("proposer", "card")
        .order_by("created_at", "id")
    )


def note_field_labels() -> dict:
    return {
        "printed_text": gettext("Printed text"),
        "current_text": gettext("Current text"),
        "text": gettext("Ruling"),
        "ruling_date": gettext("Date of the ruling"),
    }


def note_as_seen(proposal: CardNoteProposal, version: int) -> dict | None:
    """Return a version of a note ({"version", "fields", "source", "note"}), or None."""
    if version == proposal.version:
        return {
            "version": proposal.version,
            "fields": proposal.fields(),
            "source": proposal.source,
            "note": proposal.note,
        }
    for edit in proposal.edits.all():
        if edit.previous.get("version") == version:
            return edit.previous
    return None


def note_changes_since(proposal: CardNoteProposal, version: int) -> dict:
    """Return what changed in a note since `version`, as `proposal_changes_since` does for a
    card: the changed fields (label, before, after), and the source and note if changed."""
    seen = note_as_seen(proposal, version) or {"fields": {}, "source": "", "note": ""}
    labels = note_field_labels()
    now = proposal.fields()
    diff = [
        {
            "field": name,
            "label": labels[name],
            "before_said": seen["fields"].get(name, ""),
            "after_said": value,
        }
        for name, value in now.items()
        if seen["fields"].get(name, "") != value
    ]
    return {
        "seen": version,
        "now": proposal.version,
        "diff": diff,
        "source": (seen["source"], proposal.source) if seen["source"] != proposal.source else None,
        "note": (seen["note"], proposal.note) if seen["note"] != proposal.note else None,
    }


def set_checklist_context(card_set: CardSet) -> dict:
    """Return what a set page's checklist shows: its entries and the set's progress."""
    return {"checklist": set_checklist(card_set), "progress": set_progress(card_set)}


def printing_form_choices() -> dict:
    """Return the kinds a contributor may propose and the sets, for a printing form."""
    from catalog.contributions.printings import PROPOSED_KINDS
    from catalog.models import Printing

    return {
        "kinds": [(v, label) for v, label in Printing.Kind.choices if v in PROPOSED_KINDS],
        "sets": list(CardSet.objects.order_by("display_order")),
    }


def printing_proposals_section(request, card: Card) -> dict:
    """Return the card page's proposed printings (pending ones, with review forms for
    editors, and the viewer's own sent back for changes) and the form to propose one."""
    from catalog.contributions.services import is_editor
    from catalog.models import PrintingProposal

    shown = Q(status=PrintingProposal.Status.PENDING)
    if request.user.is_authenticated:
        shown |= Q(status=PrintingProposal.Status.CHANGES_REQUESTED, proposer=request.user)
    proposals = (
        PrintingProposal.objects.filter(shown, card=card)
        .select_related("card_set", "proposer")
        .order_by("created_at", "id")
    )
    return {
        "template": "catalog/_printing_proposals.html",
        "data": {
            "card": card,
            "pending": list(proposals),
            "can_review": is_editor(request.user),
            **printing_form_choices(),
        },
    }


def _printing_said(fields: dict) -> dict:
    """Return a printing proposal's fields as a reader sees them (kind and set named)."""
    from catalog.models import Printing

    kinds = dict(Printing.Kind.choices)
    card_set = CardSet.objects.filter(code=fields["set"]).first()
    return {
        "kind": str(kinds.get(fields["kind"], fields["kind"])),
        "set": f"{fields['set']} {card_set.display_name}" if card_set else fields["set"],
        "number": str(fields["number"]),
        "label": fields["label"],
        "notes": fields["notes"],
    }


def _printing_labels() -> dict:
    return {
        "kind": gettext("Kind"),
        "set": gettext("Set"),
        "number": gettext("Number in the set"),
        "label": gettext("Label"),
        "notes": gettext("Notes"),
    }


def printing_proposal_rows(proposal) -> list[dict]:
    """Return a printing proposal's fields, each with its label, as its page lists them."""
    labels, said = _printing_labels(), _printing_said(proposal.fields())
    return [{"field": name, "label": labels[name], "value": said[name]} for name in labels]


def printing_proposal_history(proposal) -> list[dict]:
    """Return what happened to a printing proposal, oldest first: sent, each review it had
    (a request for changes lives on in the edit that answered it), each edit, and its review
    now; each with who, when, the version and (for a review) the reason."""
    from datetime import datetime

    events = [
        {
            "what": "sent",
            "who": proposal.proposer.get_username(),
            "when": proposal.created_at,
            "version": 1,
        }
    ]
    for edit in proposal.edits.select_related("editor").order_by("created_at", "id"):
        before = edit.previous
        if before.get("status") not in (None, "pending") and before.get("reviewed_at"):
            events.append(
                {
                    "what": before["status"],
                    "who": before.get("reviewer") or "",
                    "when": datetime.fromisoformat(before["reviewed_at"]),
                    "version": before["version"],
                    "reason": before.get("reason", ""),
                }
            )
        events.append(
            {
                "what": "edited",
                "who": edit.editor.get_username(),
                "when": edit.created_at,
                "version": before.get("version", 0) + 1,
            }
        )
    if proposal.status != proposal.Status.PENDING and proposal.reviewed_at:
        events.append(
            {
                "what": proposal.status,
                "who": proposal.reviewer.get_username() if proposal.reviewer else "",
                "when": proposal.reviewed_at,
                "version": proposal.version,
                "reason": proposal.reason,
            }
        )
    return events


def printing_proposal_changes_since(proposal, version: int) -> dict:
    """Return what changed in a printing proposal since `version` (a stale review's answer):
    the fields, source and note that differ, before and now."""
    edit = proposal.edits.filter(previous__version=version).first()
    seen = edit.previous if edit else {"fields": proposal.fields(), "source": "", "note": ""}
    labels = _printing_labels()
    before, now = _printing_said(seen["fields"]), _printing_said(proposal.fields())
    return {
        "seen": version,
        "now": proposal.version,
        "diff": [
            {
                "field": name,
                "label": labels[name],
                "before_said": before[name],
                "after_said": now[name],
            }
            for name in labels
            if before[name] != now[name]
        ],
        "source": (seen["source"], proposal.source) if seen["source"] != proposal.source else None,
        "note": (seen["note"], proposal.note) if seen["note"] != proposal.note else None,
    }


def pending_printing_proposals():
    """Return the proposed printings waiting for review, oldest first (the review queue)."""
    from catalog.models import PrintingProposal

    return (
        PrintingProposal.objects.filter(status=PrintingProposal.Status.PENDING)
        .select_related("card", "card_set", "proposer")
        .order_by("created_at", "id")
    )
