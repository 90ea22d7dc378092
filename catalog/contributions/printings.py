"""Contributed printings: propose a new printing of a card (a reprint, promo, parallel or foil)
with its source; an editor accepts it, which makes the printing, rejects it or asks for changes
with a reason, at the version the review names (an older one raises ProposalChanged, as for a
card proposal); the proposer may edit and resend it meanwhile, each edit counted against the
daily limit and kept with what it replaced.

A proposal is checked by the printing's own checks (`Printing.clean`, the admin's too) when it
is sent and again when it is accepted, so a printing made meanwhile cannot be doubled. Every
problem names its field; nothing is saved unless everything is good.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardsite.web.numbers import whole_number_or
from catalog.cache import catalog_bump
from catalog.contributions.services import (
    ProposalChanged,
    ProposalError,
    count_against_daily_limit,
    is_editor,
)
from catalog.models import Card, CardSet, Printing, PrintingProposal, PrintingProposalEdit

PROPOSED_KINDS = ("reprint", "promo", "parallel", "foil")
LIMITS = {"label": 100, "notes": 300, "source": 200, "note": 2000, "reason": 2000}


class PrintingProposalError(Exception):
    """A printing proposal or review that cannot be done; `problems` is {field: [messages]}
    ("" for the whole proposal)."""

    def __init__(self, problems: dict[str, list[str]]):
        self.problems = problems
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in problems.items()))

    @property
    def messages(self) -> list[str]:
        return [
            f"{field}: {message}" if field else message
            for field, messages in self.problems.items()
            for message in messages
        ]


def _text(data: dict, name: str, problems: dict, *, required: bool = False) -> str:
    text = str(data.get(name) or "").strip()
    if "\x00" in text:
        problems.setdefault(name, []).append(_("contains control characters (such as NUL)."))
    elif required and not text:
        problems.setdefault(name, []).append(_("is required."))
    elif len(text) > LIMITS[name]:
        problems.setdefault(name, []).append(
            _("is %(n)d characters long (at most %(max)d).") % {"n": len(text), "max": LIMITS[name]}
        )
    return text


def _printing_of(card: Card, data: dict) -> Printing:
    """Return the printing the data makes (not saved), or raise naming every bad field."""
    problems: dict[str, list[str]] = {}
    code = str(data.get("set") or "").strip().upper()
    card_set = CardSet.objects.filter(code=code).first() if code and len(code) <= 4 else None
    if card_set is None:
        problems["set"] = [_("unknown set “%(code)s”.") % {"code": code[:10]}]
    number = whole_number_or(str(data.get("number") or "").strip(), None, low=1, high=999)
    if number is None:
        problems["number"] = [_("must be a whole number from 1 to 999.")]
    kind = str(data.get("kind") or "").strip().lower()
    if kind not in PROPOSED_KINDS:
        problems["kind"] = [
            _("must be one of %(kinds)s (a card's first print comes with the card).")
            % {"kinds": ", ".join(PROPOSED_KINDS)}
        ]
    label = _text(data, "label", problems)
    notes = _text(data, "notes", problems)
    if problems:
        raise PrintingProposalError(problems)
    printing = Printing(
        card=card,
        card_set=card_set,
        number=number,
        kind=kind,
        label=label,
        notes=notes,
        is_sample=card.is_sample,
    )
    try:
        printing.full_clean(exclude=["code"])
    except ValidationError as exc:
        raise PrintingProposalError(
            {
                ("" if field == "__all__" else field): [str(m) for m in messages]
                for field, messages in exc.message_dict.items()
            }
        ) from None
    return printing


def _sent(data: dict, problems: dict) -> tuple[str, str]:
    """Return the source (required) and the note (optional) a proposer sends with a printing."""
    return (
        _text(data, "source", problems, required=True),
        _text(data, "note", problems),
    )


def _check(card: Card, data: dict) -> tuple[Printing, str, str]:
    """Return the printing, source and note the data makes, or raise naming every bad field."""
    problems: dict[str, list[str]] = {}
    source, note = _sent(data, problems)
    try:
        printing = _printing_of(card, data)
    except PrintingProposalError as exc:
        raise PrintingProposalError({**exc.problems, **problems}) from None
    if problems:
        raise PrintingProposalError(problems)
    return printing, source, note


def _count_against_daily_limit(user) -> None:
    """Refuse one more printing proposal or edit beyond the daily limit, as for a card."""
    try:
        count_against_daily_limit(user)
    except ProposalError as exc:
        raise PrintingProposalError({"": [p.message for p in exc.problems]}) from None


def printing_proposal_create(*, proposer, card_id: str, data: dict) -> PrintingProposal:
    """Record a proposed printing of a card, or raise PrintingProposalError saving nothing."""
    if not proposer.is_authenticated:
        raise PrintingProposalError({"": [_("Sign in to propose a printing.")]})
    card = Card.objects.filter(id=str(card_id).upper()).first()
    if card is None:
        raise PrintingProposalError({"card": [_("unknown card “%(id)s”.") % {"id": card_id}]})
    printing, source, note = _check(card, data)
    with transaction.atomic():
        _count_against_daily_limit(proposer)
        return PrintingProposal.objects.create(
            proposer=proposer,
            card=card,
            card_set=printing.card_set,
            number=printing.number,
            kind=printing.kind,
            label=printing.label,
            notes=printing.notes,
            source=source,
            note=note,
        )


def printing_proposal_resubmit(*, proposal_id: int, user, data: dict) -> PrintingProposal:
    """Let the proposer change a pending printing proposal, or answer "changes requested": it
    is checked as a new one, pending again at the next version, and the edit (with what it
    replaced, the review it answers included) is kept; it counts against the daily limit."""
    proposal = PrintingProposal.objects.select_related("card").get(pk=proposal_id)
    if proposal.proposer_id != user.pk:
        raise PrintingProposalError({"": [_("Only the proposer can change a proposal.")]})
    printing, source, note = _check(proposal.card, data)
    with transaction.atomic():
        locked = PrintingProposal.objects.select_for_update().get(pk=proposal.pk)
        if locked.status not in (
            PrintingProposal.Status.PENDING,
            PrintingProposal.Status.CHANGES_REQUESTED,
        ):
            raise PrintingProposalError({"": [_("This proposal has been reviewed already.")]})
        _count_against_daily_limit(user)
        PrintingProposalEdit.objects.create(
            proposal=locked,
            editor=user,
            previous={
                "version": locked.version,
                "fields": locked.fields(),
                "source": locked.source,
                "note": locked.note,
                "status": locked.status,
                "reason": locked.reason,
                "reviewer": locked.reviewer.get_username() if locked.reviewer else None,
                "reviewed_at": (
                    locked.reviewed_at.isoformat(timespec="seconds") if locked.reviewed_at else None
                ),
            },
        )
        locked.card_set, locked.number, locked.kind = (
            printing.card_set,
            printing.number,
            printing.kind,
        )
        locked.label, locked.notes, locked.source, locked.note = (
            printing.label,
            printing.notes,
            source,
            note,
        )
        # Pending again: the answered review lives on in the edit's `previous` (the history).
        locked.status, locked.reason = PrintingProposal.Status.PENDING, ""
        locked.reviewer, locked.reviewed_at = None, None
        locked.version += 1
        locked.save()
    return locked


def _pending(proposal_id: int, reviewer, seen_version: int | None) -> PrintingProposal:
    if not is_editor(reviewer):
        raise PrintingProposalError({"": [_("Only editors can review printings.")]})
    proposal = (
        PrintingProposal.objects.select_for_update().select_related("card").get(pk=proposal_id)
    )
    if proposal.status != PrintingProposal.Status.PENDING:
        raise PrintingProposalError({"": [_("This proposal was already reviewed.")]})
    if proposal.proposer_id == reviewer.pk:
        raise PrintingProposalError({"": [_("You cannot review your own proposal.")]})
    if seen_version is not None and seen_version != proposal.version:
        raise ProposalChanged(proposal, seen_version)
    return proposal


@transaction.atomic
def printing_proposal_accept(
    *, proposal_id: int, reviewer, seen_version: int | None = None
) -> Printing:
    """Make the proposed printing (checked again), or raise naming what is wrong now.

    With `seen_version`, only that version: ProposalChanged when the proposer edited it since
    (the editor would otherwise make a printing they never saw)."""
    proposal = _pending(proposal_id, reviewer, seen_version)
    printing = _printing_of(proposal.card, proposal.fields())
    printing.save()
    proposal.status = PrintingProposal.Status.ACCEPTED
    proposal.printing = printing
    proposal.reviewer = reviewer
    proposal.reviewed_at = timezone.now()
    proposal.save()
    catalog_bump()  # `is:promo`, `printings>1` answers change with the printing
    return printing


@transaction.atomic
def printing_proposal_refuse(
    *, proposal_id: int, reviewer, reason: str, status: str, seen_version: int | None = None
) -> PrintingProposal:
    """Reject a proposed printing, or ask its proposer for changes, with a reason (required)
    the proposer sees."""
    if status not in (PrintingProposal.Status.REJECTED, PrintingProposal.Status.CHANGES_REQUESTED):
        raise PrintingProposalError({"decision": [_("Choose accept, reject or changes.")]})
    problems: dict[str, list[str]] = {}
    reason = _text({"reason": reason}, "reason", problems, required=True)
    if problems:
        raise PrintingProposalError(problems)
    proposal = _pending(proposal_id, reviewer, seen_version)
    proposal.status = status
    proposal.reason = reason
    proposal.reviewer = reviewer
    proposal.reviewed_at = timezone.now()
    proposal.save()
    return proposal


def printing_proposal_reject(
    *, proposal_id: int, reviewer, reason: str, seen_version: int | None = None
) -> PrintingProposal:
    """Reject a proposed printing with a reason (required)."""
    return printing_proposal_refuse(
        proposal_id=proposal_id,
        reviewer=reviewer,
        reason=reason,
        status=PrintingProposal.Status.REJECTED,
        seen_version=seen_version,
    )
