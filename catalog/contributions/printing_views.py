"""Printing proposal pages: propose one from the card page, its own page (fields, history,
review form), the proposer's edit, and the review at the version the page showed."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalog.contributions import selectors
from catalog.contributions.forms import ReviewForm
from catalog.contributions.printings import (
    PrintingProposalError,
    printing_proposal_accept,
    printing_proposal_create,
    printing_proposal_refuse,
    printing_proposal_resubmit,
)
from catalog.contributions.services import ProposalChanged, is_editor
from catalog.models import Card, PrintingProposal


def _field_label(field: str) -> str:
    labels = {
        "set": _("Set"),
        "number": _("Number in the set"),
        "kind": _("Kind"),
        "label": _("Label"),
        "notes": _("Notes"),
        "source": _("Source"),
        "note": _("Note"),
        "reason": _("Reason"),
        "card": _("Card"),
        "is_sample": _("sample"),
        "decision": _("Decision"),
        "action": _("Decision"),
        "version": _("Version"),
    }
    return labels.get(field, field)


def _say_problems(request, problems: dict[str, list[str]]) -> None:
    """Say every problem, each with the name of its field (in the reader's language)."""
    for field, said in problems.items():
        for problem in said:
            if field:
                problem = _("%(field)s: %(problem)s") % {
                    "field": _field_label(field),
                    "problem": problem,
                }
            messages.error(request, problem)


@login_required
@require_POST
def printing_propose(request, card_id):
    """Propose a new printing of a card (from the card page); editors review it."""
    card = get_object_or_404(Card, id=card_id.upper())
    try:
        printing_proposal_create(proposer=request.user, card_id=card.id, data=request.POST)
        messages.success(request, _("Your printing is sent for review."))
    except PrintingProposalError as exc:
        messages.error(request, _("Nothing was sent."))
        _say_problems(request, exc.problems)
    return redirect(f"{card.get_absolute_url()}#printings")


def _proposal(pk: int) -> PrintingProposal:
    return get_object_or_404(
        PrintingProposal.objects.select_related("card", "card_set", "proposer", "reviewer"), pk=pk
    )


def _context(request, proposal: PrintingProposal, **more) -> dict:
    own = proposal.proposer_id == request.user.pk
    return {
        "proposal": proposal,
        "rows": selectors.printing_proposal_rows(proposal),
        "history": selectors.printing_proposal_history(proposal),
        "can_review": is_editor(request.user) and not own,
        "can_edit": own
        and proposal.status
        in (PrintingProposal.Status.PENDING, PrintingProposal.Status.CHANGES_REQUESTED),
        **more,
    }


@require_GET
def printing_proposal_detail(request, pk):
    """A proposed printing: its fields, its history (sent, reviewed, edited), the review form
    for editors (not the proposer) and the proposer's edit link. Pending printings are listed
    on the card page for everyone, so their page is public too."""
    proposal = _proposal(pk)
    return render(request, "catalog/printing_proposal_detail.html", _context(request, proposal))


@login_required
@require_POST
def printing_proposal_review(request, pk):
    """Accept, reject or send back a proposed printing at the version the page showed: if the
    proposer edited it since, nothing is done and the page answers 409 with what changed."""
    proposal = _proposal(pk)
    if not is_editor(request.user):
        raise PermissionDenied
    form = ReviewForm(request.POST)
    if not form.is_valid():
        _say_problems(request, {field: list(errors) for field, errors in form.errors.items()})
        context = _context(request, proposal, reason_given=request.POST.get("reason", ""))
        return render(request, "catalog/printing_proposal_detail.html", context, status=400)
    action, reason = form.cleaned_data["action"], form.cleaned_data["reason"]
    seen = form.cleaned_data["version"]
    try:
        if action == "accept":
            printing = printing_proposal_accept(
                proposal_id=proposal.pk, reviewer=request.user, seen_version=seen
            )
            messages.success(request, _("Printing %(code)s added.") % {"code": printing.code})
        else:
            status = (
                PrintingProposal.Status.REJECTED
                if action == "reject"
                else PrintingProposal.Status.CHANGES_REQUESTED
            )
            printing_proposal_refuse(
                proposal_id=proposal.pk,
                reviewer=request.user,
                reason=reason,
                status=status,
                seen_version=seen,
            )
            messages.success(request, _("Answered; the proposer sees your reason."))
    except ProposalChanged as exc:
        fresh = _proposal(exc.proposal.pk)
        context = _context(
            request,
            fresh,
            changed_since=selectors.printing_proposal_changes_since(fresh, exc.seen),
            reason_given=reason,
        )
        return render(request, "catalog/printing_proposal_detail.html", context, status=409)
    except PrintingProposalError as exc:
        _say_problems(request, exc.problems)
        context = _context(request, _proposal(pk), reason_given=reason)
        return render(request, "catalog/printing_proposal_detail.html", context, status=400)
    if action == "accept":
        return redirect(f"{proposal.card.get_absolute_url()}#printings")
    return redirect(proposal.get_absolute_url())


@login_required
@require_http_methods(["GET", "POST"])
def printing_proposal_edit(request, pk):
    """The proposer changes a pending printing proposal, or answers "changes requested"."""
    proposal = _proposal(pk)
    if proposal.proposer_id != request.user.pk:
        raise Http404
    if proposal.status not in (
        PrintingProposal.Status.PENDING,
        PrintingProposal.Status.CHANGES_REQUESTED,
    ):
        messages.error(request, _("This proposal has been reviewed already."))
        return redirect(proposal.get_absolute_url())
    values = {**proposal.fields(), "source": proposal.source, "note": proposal.note}
    status, problems = 200, []
    if request.method == "POST":
        values = {name: request.POST.get(name, "") for name in values}
        try:
            printing_proposal_resubmit(proposal_id=proposal.pk, user=request.user, data=values)
        except PrintingProposalError as exc:
            # Listed at the top of the form, each linking to its field (as every form does).
            problems = [
                {"field": field, "label": _field_label(field) if field else "", "message": said}
                for field, messages_of in exc.problems.items()
                for said in messages_of
            ]
            status = 400
        else:
            messages.success(request, _("Changed; your proposal is waiting for review again."))
            return redirect(proposal.get_absolute_url())
    return render(
        request,
        "catalog/printing_proposal_edit.html",
        {
            "proposal": proposal,
            "values": values,
            "problems": problems,
            "invalid": {p["field"] for p in problems},
            **selectors.printing_form_choices(),
        },
        status=status,
    )
