"""Contribution pages: propose a card, the review queue and page, a card's history."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.static import serve

from cardsite.web.numbers import whole_number_or
from catalog.contributions import selectors as selectors
from catalog.contributions.forms import ProposalForm, ReviewForm
from catalog.contributions.services import (
    ProposalError,
    is_editor,
    is_trusted,
    proposal_accept,
    proposal_create,
    proposal_reject,
    proposal_request_changes,
    proposal_resubmit,
)
from catalog.models import Card, CardProposal, CardScan
from catalog.scans import SCAN_PREFIX


def _int(value) -> int | None:
    return whole_number_or(value, None, max_digits=3)


def _show_problems(form, exc: ProposalError) -> None:
    for problem in exc.problems:
        field = problem.field if problem.field in form.fields else None
        form.add_error(field, problem.message)


@login_required
@require_http_methods(["GET", "POST"])
def propose(request):
    """Propose a real card for a set number, or a correction to a real card."""
    card_id = (request.GET.get("card") or "").upper().replace("\x00", "")[:10]
    set_code = (request.GET.get("set") or "").upper().replace("\x00", "")[:4]
    number = _int(request.GET.get("number"))
    card = Card.objects.filter(id=card_id).first() if card_id else None
    if card is None and set_code and number:
        card = Card.objects.filter(card_set_id=set_code, number=number).first()
    trusted = is_trusted(request.user)
    if request.method == "POST":
        form = ProposalForm(request.POST, request.FILES, trusted=trusted)
        if form.is_valid():
            try:
                proposal = proposal_create(
                    proposer=request.user,
                    data=form.card_data,
                    source=form.cleaned_data["source"],
                    note=form.cleaned_data["note"],
                    scans=form.images,
                    apply_now=form.cleaned_data.get("apply_now", False),
                )
            except ProposalError as exc:
                _show_problems(form, exc)
            else:
                if proposal.status == CardProposal.Status.ACCEPTED:
                    messages.success(request, _("Applied: the card now shows your version."))
                    return redirect("catalog:card-detail", proposal.card_id)
                messages.success(
                    request, _("Thank you! Your proposal is waiting for an editor's review.")
                )
                return redirect(proposal.get_absolute_url())
    else:
        form = ProposalForm(
            initial=ProposalForm.initial_for(card, set_code=set_code, number=number),
            trusted=trusted,
        )
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "catalog/propose.html",
        {"form": form, "card": card, "trusted": trusted},
        status=status,
    )


def _visible_proposal(request, pk) -> CardProposal:
    proposal = get_object_or_404(CardProposal.objects.select_related("proposer"), pk=pk)
    if proposal.proposer_id != request.user.pk and not is_editor(request.user):
        raise Http404
    return proposal


@login_required
@require_GET
def proposal_detail(request, pk):
    """The review page: the proposal, the card as it is now, the difference and the scans."""
    proposal = _visible_proposal(request, pk)
    context = {
        "proposal": proposal,
        **selectors.proposal_review(proposal),
        "can_review": is_editor(request.user) or is_trusted(request.user),
        "can_accept": (proposal.proposer_id != request.user.pk and is_editor(request.user))
        or (proposal.proposer_id == request.user.pk and is_trusted(request.user)),
        "review_form": ReviewForm(),
    }
    return render(request, "catalog/proposal_detail.html", context)


@login_required
@require_POST
def proposal_review(request, pk):
    """Accept, reject (with a reason) or send back (with a reason) a pending proposal."""
    proposal = _visible_proposal(request, pk)
    if not (is_editor(request.user) or is_trusted(request.user)):
        raise PermissionDenied
    form = ReviewForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose accept, reject or ask for changes."))
        return redirect(proposal.get_absolute_url())
    action, reason = form.cleaned_data["action"], form.cleaned_data["reason"]
    try:
        if action == "accept":
            proposal_accept(proposal=proposal, reviewer=request.user)
            messages.success(
                request, _("Accepted and applied to %(id)s.") % {"id": proposal.card_id}
            )
        elif action == "reject":
            proposal_reject(proposal=proposal, reviewer=request.user, reason=reason)
            messages.success(request, _("Rejected; the proposer sees your reason."))
        else:
            proposal_request_changes(proposal=proposal, reviewer=request.user, reason=reason)
            messages.success(request, _("Sent back to the proposer with your request."))
    except ProposalError as exc:
        for problem in exc.problems:
            messages.error(request, str(problem).removeprefix("file, ").removeprefix("file: "))
        return redirect(proposal.get_absolute_url())
    if action == "accept":
        return redirect("catalog:card-detail", proposal.card_id)
    return redirect("catalog:review-queue")


@login_required
@require_http_methods(["GET", "POST"])
def proposal_edit(request, pk):
    """The proposer answers "changes requested" with a corrected proposal."""
    proposal = get_object_or_404(CardProposal, pk=pk, proposer=request.user)
    if proposal.status not in (CardProposal.Status.CHANGES_REQUESTED, CardProposal.Status.PENDING):
        messages.error(request, _("This proposal has been reviewed already."))
        return redirect(proposal.get_absolute_url())
    if request.method == "POST":
        form = ProposalForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                proposal_resubmit(
                    proposal=proposal,
                    user=request.user,
                    data=form.card_data,
                    source=form.cleaned_data["source"],
                    note=form.cleaned_data["note"],
                    scans=form.images,
                )
            except ProposalError as exc:
                _show_problems(form, exc)
            else:
                messages.success(request, _("Changed; your proposal is waiting for review again."))
                return redirect(proposal.get_absolute_url())
    else:
        form = ProposalForm(
            initial={**proposal.data, "source": proposal.source, "note": proposal.note}
        )
    return render(
        request,
        "catalog/propose.html",
        {"form": form, "proposal": proposal, "card": None},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_GET
def review_queue(request):
    """The editors' queue of pending proposals, oldest first."""
    if not is_editor(request.user):
        raise PermissionDenied
    return render(request, "catalog/review_queue.html", {"proposals": selectors.review_queue()})


@require_GET
def card_history(request, card_id):
    """A card's revisions; `?a=1&b=3` compares two of them field by field."""
    card = get_object_or_404(Card, id=card_id.upper().replace("\x00", "")[:10])
    revisions = list(selectors.card_history(card))
    a, b = _int(request.GET.get("a")), _int(request.GET.get("b"))
    if (a is None or b is None) and len(revisions) >= 2:
        a, b = revisions[1].number, revisions[0].number
    compare = selectors.revision_compare(card, a, b) if a and b else None
    return render(
        request,
        "catalog/card_history.html",
        {"card": card, "revisions": revisions, "compare": compare, "a": a, "b": b},
    )


@require_GET
def scan_image(request, token, size):
    """One size of a scan: an applied card's to anyone, a proposal's only to its proposer and
    the editors (a 404 for anyone else, as for the proposal page)."""
    scan = get_object_or_404(CardScan.objects.select_related("proposal"), token=token)
    public = scan.card_id is not None
    if not public and not (scan.proposal.proposer_id == request.user.pk or is_editor(request.user)):
        raise Http404
    name = getattr(scan, size).name
    header = settings.SCAN_SENDFILE_HEADER
    if header:
        # The web server in front sends the file; this answer only says which one.
        response = HttpResponse(content_type="image/jpeg")
        response[header] = f"{settings.SCAN_SENDFILE_PREFIX.rstrip('/')}/{name}"
    else:
        try:
            response = FileResponse(default_storage.open(name), content_type="image/jpeg")
        except FileNotFoundError:
            raise Http404 from None
    # A proposal's scan must never sit in a shared cache; a card's never changes (new token).
    response["Cache-Control"] = "public, max-age=86400" if public else "private, no-store"
    return response


@require_GET
def scan_file(request, path):
    """Serve an uploaded file from MEDIA_ROOT while SERVE_MEDIA is on (development).

    Scans are never served here: only through `scan_image`, which checks who may see them.
    """
    if not settings.SERVE_MEDIA or path.startswith(f"{SCAN_PREFIX}/"):
        raise Http404
    return serve(request, path, document_root=settings.MEDIA_ROOT)
