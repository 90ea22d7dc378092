"""Contributed printings: propose a new printing of a card (a reprint, promo, parallel or foil)
with its source; an editor accepts it, which makes the printing, or rejects it with a reason.

A proposal is checked by the printing's own checks (`Printing.clean`, the admin's too) when it
is sent and again when it is accepted, so a printing made meanwhile cannot be doubled. Every
problem names its field; nothing is saved unless everything is good.
"""

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardsite.web.numbers import whole_number_or
from catalog.cache import catalog_bump
from catalog.contributions.services import is_editor, lock_user
from catalog.models import Card, CardSet, Printing, PrintingProposal

PROPOSED_KINDS = ("reprint", "promo", "parallel", "foil")
LIMITS = {"label": 100, "notes": 300, "source": 200, "reason": 2000}


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


def printing_proposal_create(*, proposer, card_id: str, data: dict) -> PrintingProposal:
    """Record a proposed printing of a card, or raise PrintingProposalError saving nothing."""
    if not proposer.is_authenticated:
        raise PrintingProposalError({"": [_("Sign in to propose a printing.")]})
    card = Card.objects.filter(id=str(card_id).upper()).first()
    if card is None:
        raise PrintingProposalError({"card": [_("unknown card “%(id)s”.") % {"id": card_id}]})
    problems: dict[str, list[str]] = {}
    source = _text(data, "source", problems, required=True)
    try:
        printing = _printing_of(card, data)
    except PrintingProposalError as exc:
        raise PrintingProposalError({**exc.problems, **problems}) from None
    if problems:
        raise PrintingProposalError(problems)
    with transaction.atomic():
        lock_user(proposer)
        since = timezone.now() - timedelta(days=1)
        sent = PrintingProposal.objects.filter(proposer=proposer, created_at__gte=since).count()
        if sent >= settings.PROPOSALS_PER_DAY:
            raise PrintingProposalError(
                {
                    "": [
                        _("You can propose %(limit)s printings a day; try again tomorrow.")
                        % {"limit": settings.PROPOSALS_PER_DAY}
                    ]
                }
            )
        return PrintingProposal.objects.create(
            proposer=proposer,
            card=card,
            card_set=printing.card_set,
            number=printing.number,
            kind=printing.kind,
            label=printing.label,
            notes=printing.notes,
            source=source,
        )


def _pending(proposal_id: int, reviewer) -> PrintingProposal:
    if not is_editor(reviewer):
        raise PrintingProposalError({"": [_("Only editors can review printings.")]})
    proposal = (
        PrintingProposal.objects.select_for_update().select_related("card").get(pk=proposal_id)
    )
    if proposal.status != PrintingProposal.Status.PENDING:
        raise PrintingProposalError({"": [_("This proposal was already reviewed.")]})
    if proposal.proposer_id == reviewer.pk:
        raise PrintingProposalError({"": [_("You cannot review your own proposal.")]})
    return proposal


@transaction.atomic
def printing_proposal_accept(*, proposal_id: int, reviewer) -> Printing:
    """Make the proposed printing (checked again), or raise naming what is wrong now."""
    proposal = _pending(proposal_id, reviewer)
    printing = _printing_of(
        proposal.card,
        {
            "set": proposal.card_set_id,
            "number": proposal.number,
            "kind": proposal.kind,
            "label": proposal.label,
            "notes": proposal.notes,
        },
    )
    printing.save()
    proposal.status = PrintingProposal.Status.ACCEPTED
    proposal.printing = printing
    proposal.reviewer = reviewer
    proposal.reviewed_at = timezone.now()
    proposal.save()
    catalog_bump()  # `is:promo`, `printings>1` answers change with the printing
    return printing


@transaction.atomic
def printing_proposal_reject(*, proposal_id: int, reviewer, reason: str) -> PrintingProposal:
    """Reject a proposed printing with a reason (required)."""
    problems: dict[str, list[str]] = {}
    reason = _text({"reason": reason}, "reason", problems, required=True)
    if problems:
        raise PrintingProposalError(problems)
    proposal = _pending(proposal_id, reviewer)
    proposal.status = PrintingProposal.Status.REJECTED
    proposal.reason = reason
    proposal.reviewer = reviewer
    proposal.reviewed_at = timezone.now()
    proposal.save()
    return proposal
