"""Errata and rulings: proposed for a card, reviewed by an editor, then shown with the card.

They go through the same review as card proposals (catalog.contributions.services): who may
review (`check_reviewer`), the reason a refusal needs, the version a review names (a review of
an older version is refused with `ProposalChanged`, the page answers 409 with what changed),
and the daily limit (`count_against_daily_limit`: a note or an edit of one counts as a card
proposal does). Every field is checked before anything is written, and every problem names its
field; nothing is saved when one is wrong.
"""

import datetime
import unicodedata

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog.contributions.services import (
    ProposalChanged,
    ProposalError,
    check_reviewer,
    count_against_daily_limit,
)
from catalog.importer import RowProblem
from catalog.models import Card, CardNoteEdit, CardNoteProposal, Erratum, Ruling

TEXT_LIMIT = 2000
SOURCE_LIMIT = 200
FIRST_RULING_DATE = datetime.date(1990, 1, 1)  # before the game; a typo, not a ruling

KIND_FIELDS = {
    CardNoteProposal.Kind.ERRATUM: ("printed_text", "current_text"),
    CardNoteProposal.Kind.RULING: ("text", "ruling_date"),
}


def _text_problem(value, limit: int | None) -> str | None:
    """Return what is wrong with a text a user sent, or None."""
    if not isinstance(value, str):
        return _("must be text")
    if "\ufffd" in value:
        # What a form decoder leaves of bytes that are not UTF-8 (another encoding mixed in).
        return _("holds bytes that are not UTF-8 (another encoding?): send it again as UTF-8")
    if any(unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\n\r\t" for ch in value):
        return _("contains control characters (such as NUL)")
    if limit is not None and len(value.strip()) > limit:
        return _("is %(n)s characters long (at most %(limit)s)") % {
            "n": len(value.strip()),
            "limit": limit,
        }
    return None


def _date_problem(value: str) -> tuple[datetime.date | None, str | None]:
    text = value.strip()
    if not text:
        return None, _("is required: the day the ruling was given (YYYY-MM-DD)")
    if len(text) != 10 or not text.isascii():
        return None, _("give a date as YYYY-MM-DD, e.g. 2002-04-01")
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        if text[4] == "-" and text[7] == "-" and (text[:4] + text[5:7] + text[8:]).isdigit():
            # Written as asked but not a day (2002-13-45, 2002-02-30): say so, not "the form".
            return None, _(
                "%(day)s is not a day of the calendar: give a date as YYYY-MM-DD, e.g. 2002-04-01"
            ) % {"day": text}
        return None, _("give a date as YYYY-MM-DD, e.g. 2002-04-01")
    today = timezone.localdate()
    if day < FIRST_RULING_DATE or day > today:
        return None, _("give a day from %(low)s to today (%(high)s)") % {
            "low": FIRST_RULING_DATE.isoformat(),
            "high": today.isoformat(),
        }
    return day, None


def note_check(kind: str, data: dict) -> dict:
    """Return the cleaned fields of a note of `kind` (with `source` and `note`), or raise
    ProposalError naming every field that is wrong."""
    if kind not in KIND_FIELDS:
        raise ProposalError([RowProblem(0, "kind", _("give erratum or ruling"))])
    problems: list[RowProblem] = []
    clean: dict = {}
    texts = {"source": SOURCE_LIMIT, "note": TEXT_LIMIT}
    texts.update({name: TEXT_LIMIT for name in KIND_FIELDS[kind] if name != "ruling_date"})
    for name, limit in texts.items():
        value = data.get(name, "")
        problem = _text_problem(value, limit)
        if problem is None and name != "note" and not value.strip():
            problem = {
                "source": _("is required: say where the erratum or ruling comes from"),
                "printed_text": _("is required: the text as printed on the card"),
                "current_text": _("is required: the text as it reads now"),
                "text": _("is required: what the ruling says"),
            }[name]
        if problem:
            problems.append(RowProblem(0, name, problem))
        else:
            clean[name] = value.strip()
    if kind == CardNoteProposal.Kind.RULING:
        value = data.get("ruling_date", "")
        problem = _text_problem(value, None) if not isinstance(value, datetime.date) else None
        day = value if isinstance(value, datetime.date) else None
        if problem is None and day is None:
            day, problem = _date_problem(value)
        if problem:
            problems.append(RowProblem(0, "ruling_date", problem))
        else:
            clean["ruling_date"] = day
    elif not problems and clean["printed_text"] == clean["current_text"]:
        problems.append(
            RowProblem(0, "current_text", _("is the same as the printed text: nothing to correct"))
        )
    if problems:
        raise ProposalError(problems)
    return clean


def _kind_columns(kind: str, clean: dict) -> dict:
    if kind == CardNoteProposal.Kind.ERRATUM:
        return {
            "printed_text": clean["printed_text"],
            "current_text": clean["current_text"],
            "text": "",
            "ruling_date": None,
        }
    return {
        "printed_text": "",
        "current_text": "",
        "text": clean["text"],
        "ruling_date": clean["ruling_date"],
    }


def note_create(*, proposer, card: Card, kind: str, data: dict) -> CardNoteProposal:
    """Record a proposed erratum or ruling for `card`, pending an editor's review.

    Raise ProposalError and save nothing when a field, the daily limit or the user is wrong.
    """
    if not proposer.is_authenticated:
        raise ProposalError([RowProblem(0, "", _("Sign in to propose an erratum or a ruling."))])
    clean = note_check(kind, data)
    if card.is_sample:
        raise ProposalError(
            [
                RowProblem(
                    0,
                    "card",
                    _("%(id)s is a generated sample: propose the real card first.")
                    % {"id": card.id},
                )
            ]
        )
    with transaction.atomic():
        count_against_daily_limit(proposer)
        proposal = CardNoteProposal.objects.create(
            kind=kind,
            card=card,
            proposer=proposer,
            source=clean["source"],
            note=clean["note"],
            **_kind_columns(kind, clean),
        )
    return proposal


def note_resubmit(*, proposal: CardNoteProposal, user, data: dict) -> CardNoteProposal:
    """Let the proposer change a pending note, or answer "changes requested"; it is pending
    again at the next version. Each edit counts against the daily limit."""
    if proposal.proposer_id != user.pk:
        raise ProposalError([RowProblem(0, "", _("Only the proposer can change a proposal."))])
    clean = note_check(proposal.kind, data)
    with transaction.atomic():
        locked = CardNoteProposal.objects.select_for_update().get(pk=proposal.pk)
        if locked.status not in (
            CardNoteProposal.Status.PENDING,
            CardNoteProposal.Status.CHANGES_REQUESTED,
        ):
            raise ProposalError([RowProblem(0, "", _("This proposal has been reviewed already."))])
        count_against_daily_limit(user)
        CardNoteEdit.objects.create(
            proposal=locked,
            editor=user,
            previous={
                "version": locked.version,
                "fields": locked.fields(),
                "source": locked.source,
                "note": locked.note,
            },
        )
        for name, value in _kind_columns(locked.kind, clean).items():
            setattr(locked, name, value)
        locked.source, locked.note = clean["source"], clean["note"]
        locked.version += 1
        locked.status = CardNoteProposal.Status.PENDING
        locked.save()
    return locked


def _lock_pending(proposal: CardNoteProposal, seen_version: int | None) -> CardNoteProposal:
    locked = CardNoteProposal.objects.select_for_update().get(pk=proposal.pk)
    if locked.status != CardNoteProposal.Status.PENDING:
        raise ProposalError(
            [
                RowProblem(
                    0,
                    "",
                    _("This proposal is %(status)s already.")
                    % {"status": locked.get_status_display()},
                )
            ]
        )
    if seen_version is not None and seen_version != locked.version:
        raise ProposalChanged(locked, seen_version)
    return locked


def note_accept(
    *, proposal: CardNoteProposal, reviewer, seen_version: int | None = None
) -> Erratum | Ruling:
    """Accept the note at the version the reviewer saw: in one transaction it becomes an
    Erratum or a Ruling of its card, with its proposal, proposer and reviewer recorded."""
    check_reviewer(proposal, reviewer, accepting=True)
    with transaction.atomic():
        locked = _lock_pending(proposal, seen_version)
        # Checked again: the rules of a field may have changed since it was sent.
        clean = note_check(locked.kind, {**locked.fields(), "source": locked.source})
        provenance = {
            "card_id": locked.card_id,
            "source": clean["source"],
            "proposal": locked,
            "created_by_id": locked.proposer_id,
            "accepted_by": reviewer,
        }
        if locked.kind == CardNoteProposal.Kind.ERRATUM:
            made = Erratum.objects.create(
                printed_text=clean["printed_text"],
                current_text=clean["current_text"],
                **provenance,
            )
        else:
            made = Ruling.objects.create(
                text=clean["text"], ruling_date=clean["ruling_date"], **provenance
            )
        locked.status = CardNoteProposal.Status.ACCEPTED
        locked.reviewer = reviewer
        locked.reviewed_at = timezone.now()
        locked.save()
    # The new Erratum or Ruling bumped the catalog version (catalog.cache.connect_signals), so
    # cached `has:errata` / `has:ruling` pages and open-data files are stale at once.
    return made


def note_refuse(
    *,
    proposal: CardNoteProposal,
    reviewer,
    reason: str,
    status: str,
    seen_version: int | None = None,
) -> CardNoteProposal:
    """Reject a pending note, or send it back for changes, with a reason the proposer sees."""
    if status not in (CardNoteProposal.Status.REJECTED, CardNoteProposal.Status.CHANGES_REQUESTED):
        raise ProposalError([RowProblem(0, "action", _("give accept, reject or changes"))])
    check_reviewer(proposal, reviewer, accepting=False)
    problem = _text_problem(reason, TEXT_LIMIT)
    if problem is None and not reason.strip():
        problem = _("is required: tell the proposer why")
    if problem:
        raise ProposalError([RowProblem(0, "reason", problem)])
    with transaction.atomic():
        locked = _lock_pending(proposal, seen_version)
        locked.status = status
        locked.reason = reason.strip()
        locked.reviewer = reviewer
        locked.reviewed_at = timezone.now()
        locked.save()
    return locked
