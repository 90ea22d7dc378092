"""Contribution pages: propose a card, the review queue and page, a card's history."""

import posixpath

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.static import serve

from cardsite.web.numbers import whole_number_or
from catalog import readings
from catalog.card_format import PROPOSAL_FIELDS
from catalog.card_words import field_label
from catalog.contributions import changesets, layouts, notes
from catalog.contributions import selectors as selectors
from catalog.contributions.forms import NoteForm, ProposalForm, ReviewForm
from catalog.contributions.open_data import import_changeset
from catalog.contributions.services import (
    ProposalChanged,
    ProposalError,
    is_editor,
    is_trusted,
    proposal_accept,
    proposal_create,
    proposal_reject,
    proposal_request_changes,
    proposal_resubmit,
)
from catalog.importer import RowProblem, card_row
from catalog.models import (
    Card,
    CardNoteProposal,
    CardProposal,
    CardScan,
    CardSet,
    Changeset,
    SetLayout,
)
from catalog.opendata_import import ExportRejected, files_from_upload, read_export
from catalog.scans import SCAN_PREFIX, UPLOAD_PREFIX


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
                    scans=form.scans,
                    apply_now=form.cleaned_data.get("apply_now", False),
                    scan_printing=form.cleaned_data.get("scan_printing", ""),
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
        initial = ProposalForm.initial_for(card, set_code=set_code, number=number)
        # "add a scan" of one printing (the card page's printings table) preselects it.
        initial["scan_printing"] = (request.GET.get("printing") or "").replace("\x00", "")[:20]
        form = ProposalForm(initial=initial, trusted=trusted)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "catalog/propose.html",
        {
            "form": form,
            "card": card,
            "trusted": trusted,
            "card_printings": list(card.printings.all()) if card else [],
        },
        status=status,
    )


def _visible_proposal(request, pk) -> CardProposal:
    proposal = get_object_or_404(CardProposal.objects.select_related("proposer"), pk=pk)
    if proposal.proposer_id != request.user.pk and not is_editor(request.user):
        raise Http404
    return proposal


def _detail_context(request, proposal: CardProposal) -> dict:
    return {
        "proposal": proposal,
        **selectors.proposal_review(proposal),
        "can_review": is_editor(request.user) or is_trusted(request.user),
        "can_accept": (proposal.proposer_id != request.user.pk and is_editor(request.user))
        or (proposal.proposer_id == request.user.pk and is_trusted(request.user)),
        "review_form": ReviewForm(initial={"version": proposal.version}),
    }


@login_required
@require_GET
def proposal_detail(request, pk):
    """The review page: the proposal, the card as it is now, the difference and the scans."""
    proposal = _visible_proposal(request, pk)
    return render(request, "catalog/proposal_detail.html", _detail_context(request, proposal))


@login_required
@require_GET
def proposal_scans(request, pk):
    """How many of the proposal's scan uploads are still being processed, and how many failed
    (JSON, polled by static/js/scan_wait.js while the page shows one being processed)."""
    proposal = _visible_proposal(request, pk)
    uploads = selectors.scan_uploads(proposal)
    response = JsonResponse(
        {"pending": len(uploads["uploads_pending"]), "failed": len(uploads["uploads_failed"])}
    )
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def proposal_review(request, pk):
    """Accept, reject (with a reason) or send back (with a reason) a pending proposal.

    The form names the proposal's version its page showed; if the proposer edited it since,
    nothing is applied and the page answers 409 with what changed, to be reviewed again.
    """
    proposal = _visible_proposal(request, pk)
    if not (is_editor(request.user) or is_trusted(request.user)):
        raise PermissionDenied
    form = ReviewForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for error in errors:
                messages.error(request, f"{field}: {error}")
        context = _detail_context(request, proposal)
        return render(request, "catalog/proposal_detail.html", context, status=400)
    action, reason = form.cleaned_data["action"], form.cleaned_data["reason"]
    seen = form.cleaned_data["version"]
    try:
        if action == "accept":
            proposal_accept(proposal=proposal, reviewer=request.user, seen_version=seen)
            messages.success(
                request, _("Accepted and applied to %(id)s.") % {"id": proposal.card_id}
            )
        elif action == "reject":
            proposal_reject(
                proposal=proposal, reviewer=request.user, reason=reason, seen_version=seen
            )
            messages.success(request, _("Rejected; the proposer sees your reason."))
        else:
            proposal_request_changes(
                proposal=proposal, reviewer=request.user, reason=reason, seen_version=seen
            )
            messages.success(request, _("Sent back to the proposer with your request."))
    except ProposalChanged as exc:
        context = _detail_context(request, exc.proposal)
        context["changed_since"] = selectors.proposal_changes_since(exc.proposal, exc.seen)
        context["reason_given"] = reason
        return render(request, "catalog/proposal_detail.html", context, status=409)
    except ProposalError as exc:
        for problem in _named(exc.problems, {"reason": _("Reason")}):
            messages.error(request, problem)
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
                    scans=form.scans,
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
    return render(
        request,
        "catalog/review_queue.html",
        {
            "proposals": selectors.review_queue(),
            "changesets": selectors.pending_changesets(),
            "notes": selectors.note_queue(),
            "printing_proposals": selectors.pending_printing_proposals(),
            "layouts": layouts.layout_queue(),
        },
    )


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


# Folders of MEDIA_ROOT only ever served through a view that checks who asks.
PRIVATE_MEDIA = (SCAN_PREFIX, UPLOAD_PREFIX, "reading-uploads", "layouts")


@require_GET
def scan_file(request, path):
    """Serve an uploaded file from MEDIA_ROOT while SERVE_MEDIA is on (development).

    Scans are never served here: only through `scan_image`, which checks who may see them; nor
    are raw uploads waiting for the worker (they still carry their EXIF data), photos sent to
    be read, or layout templates (catalog.layout_views serves those).
    """
    top = posixpath.normpath("/" + path).lstrip("/").split("/", 1)[0]
    if not settings.SERVE_MEDIA or top in PRIVATE_MEDIA:
        raise Http404
    return serve(request, path, document_root=settings.MEDIA_ROOT)


# ----- changesets: many cards of one set at once -------------------------------------------

GRID_FIELDS = [name for name in PROPOSAL_FIELDS if name not in ("set", "number")]


@login_required
@require_GET
def set_grid(request, code):
    """A set at a time: a row for each set number and a column for each card field, every cell
    starting from what the catalogue knows; the changed rows are sent as one changeset."""
    card_set = get_object_or_404(CardSet, code=code.upper().replace("\x00", "")[:4])
    cards = {
        card.number: card_row(card)
        for card in card_set.cards.select_related("team", "card_set").order_by("number")
    }
    labels = {name: field_label(name) for name in GRID_FIELDS}
    rows = []
    for number in range(1, card_set.kinds_count + 1):
        row = cards.get(number)
        rows.append(
            {
                "number": number,
                "id": f"{card_set.code}-{number:03d}",
                "status": row["status"] if row else "missing",
                "cells": [
                    {
                        "name": name,
                        "label": labels[name],
                        "value": "" if row is None else str(row[name] or ""),
                    }
                    for name in GRID_FIELDS
                ],
            }
        )
    return render(
        request,
        "catalog/set_grid.html",
        {
            "set": card_set,
            "rows": rows,
            "columns": [(name, labels[name]) for name in GRID_FIELDS],
            "reading": grid_reading(card_set),
        },
    )


# The scan reading's fields (catalog.reading.layout.FIELDS) that fill a grid column: the card's
# printed name is its Japanese name, the kana over it its reading. The number is not a column:
# the grid says when a scan's number is not its row's (static/js/set_grid_reading.js).
READ_COLUMNS = {
    "name": "name_ja",
    "reading": "name_kana",
    "shoot": "shoot",
    "keep": "keep",
    "defense": "defense",
}
READING_AT_ONCE = 3  # scans a grid sends to be read at a time


def grid_reading(card_set: CardSet) -> dict:
    """Whether the set grid can read its scans (issue #25, 2.): with the tools and the set's
    accepted layout, how many to send at once and which column each read field fills; else
    the one line saying why not (the tools), or where to mark the set's layout."""
    said = readings.tools_missing_said()
    if said:
        return {"on": False, "tools_said": said}
    if not SetLayout.objects.filter(card_set=card_set).exists():
        return {"on": False, "layout_url": reverse("catalog:set-layout", args=[card_set.code])}
    return {
        "on": True,
        "at_once": max(1, min(READING_AT_ONCE, settings.READING_PENDING_MAX)),
        "columns": " ".join(f"{read}:{column}" for read, column in READ_COLUMNS.items()),
    }


def _grid_scans(files) -> dict[int, object]:
    """Return the set grid's scans by set number: one file a row, in fields `scan-<number>`."""
    scans = {}
    for key in files:
        number = _int(key.removeprefix("scan-")) if key.startswith("scan-") else None
        if number is None or number < 1:
            raise ProposalError([RowProblem(0, "scan", f"unknown file field {key[:40]!r}")])
        uploads = files.getlist(key)
        if len(uploads) > 1:
            raise ProposalError(
                [RowProblem(0, "scan", f"number {number}: one scan a row ({len(uploads)} given)")]
            )
        scans[number] = uploads[0]
    return scans


@login_required
@require_http_methods(["GET", "POST"])
def changeset_new(request):
    """Paste a set's rows from a spreadsheet (a header line naming the card fields); the rows
    that differ from the catalogue become one changeset for review."""
    sets = list(CardSet.objects.order_by("display_order"))
    problems: list = []
    values = {"source": "", "note": "", "rows": ""}
    status = 200
    if request.method == "POST":
        values = {name: request.POST.get(name, "") for name in values}
        try:
            rows = changesets.rows_from_text(values["rows"])
            changeset, unchanged = changesets.changeset_create(
                proposer=request.user,
                rows=rows,
                source=values["source"],
                note=values["note"],
                scans=_grid_scans(request.FILES),
            )
        except ProposalError as exc:
            problems = _named(
                exc.problems, {"source": _("Source"), "note": _("Note for the editors")}
            )
            status = 400
        else:
            cards = changeset.proposals.count()
            text = ngettext(
                "%(n)s card proposed in one changeset.",
                "%(n)s cards proposed in one changeset.",
                cards,
            ) % {"n": cards}
            if unchanged:
                text += " " + ngettext(
                    "%(n)s row was the same as the catalogue and was left out.",
                    "%(n)s rows were the same as the catalogue and were left out.",
                    unchanged,
                ) % {"n": unchanged}
            messages.success(request, text)
            if request.POST.get("from_grid"):  # the grid's draft can go: it was sent
                return redirect(changeset.get_absolute_url() + "?sent=grid")
            return redirect(changeset)
    return render(
        request,
        "catalog/changeset_new.html",
        {
            "sets": sets,
            "values": values,
            "problems": problems,
            "fields": PROPOSAL_FIELDS,
            "from_grid": (request.POST.get("from_grid") or "")[:4],
        },
        status=status,
    )


def _visible_changeset(request, pk) -> Changeset:
    changeset = get_object_or_404(Changeset.objects.select_related("proposer", "card_set"), pk=pk)
    if changeset.proposer_id != request.user.pk and not is_editor(request.user):
        raise Http404
    return changeset


def _changeset_context(request, changeset: Changeset) -> dict:
    can_review = changeset.status == Changeset.Status.PENDING and (
        is_editor(request.user)
        and (changeset.proposer_id != request.user.pk or is_trusted(request.user))
    )
    rows = selectors.changeset_review_rows(changeset)
    return {
        "changeset": changeset,
        "rows": rows,
        "scans_pending": any(row["uploads_pending"] for row in rows),
        "conflicts": changesets.changeset_conflicts(changeset),
        "can_review": can_review,
    }


@login_required
@require_GET
def changeset_detail(request, pk):
    """A changeset: each card's difference from the catalogue, conflicts, and the review."""
    changeset = _visible_changeset(request, pk)
    return render(request, "catalog/changeset_detail.html", _changeset_context(request, changeset))


@login_required
@require_POST
def changeset_review_view(request, pk):
    """Accept or reject each card (a rejection with a reason); apply the accepted at once."""
    changeset = _visible_changeset(request, pk)
    if not is_editor(request.user):
        raise PermissionDenied
    seen = _int(request.POST.get("version"))
    decisions = {}
    for proposal_id in changeset.proposals.values_list("pk", flat=True):
        action = request.POST.get(f"action-{proposal_id}", "")
        if action in (changesets.ACCEPT, changesets.REJECT):
            reason = request.POST.get(f"reason-{proposal_id}", "")
            decisions[proposal_id] = changesets.Decision(action, reason)
    context = _changeset_context(request, changeset)
    try:
        if seen is None:
            raise ProposalError([RowProblem(0, "version", "give the version the page showed")])
        reviewed = changesets.changeset_review(
            changeset=changeset, reviewer=request.user, decisions=decisions, seen_version=seen
        )
    except changesets.ChangesetChanged:
        context["stale"] = True
        return render(request, "catalog/changeset_detail.html", context, status=409)
    except ProposalError as exc:
        context["problems"] = [str(p).removeprefix("file: ") for p in exc.problems]
        context["posted"] = request.POST
        return render(request, "catalog/changeset_detail.html", context, status=400)
    accepted = reviewed.proposals.filter(status=CardProposal.Status.ACCEPTED).count()
    messages.success(
        request,
        _("Changeset reviewed: %(a)s of %(n)s cards accepted and applied.")
        % {"a": accepted, "n": reviewed.proposals.count()},
    )
    return redirect(reviewed)


# ----- errata and rulings ------------------------------------------------------------------


def _note_kind(value) -> str:
    kind = value if isinstance(value, str) else ""
    return kind if kind in (CardNoteProposal.Kind.ERRATUM, CardNoteProposal.Kind.RULING) else ""


@login_required
@require_http_methods(["GET", "POST"])
def note_propose(request, card_id):
    """Propose an erratum (`?kind=erratum`) or a ruling (`?kind=ruling`) for a card."""
    card = get_object_or_404(Card, id=card_id.upper().replace("\x00", "")[:10])
    kind = _note_kind(request.GET.get("kind")) or _note_kind(request.POST.get("kind"))
    if not kind:
        kind = CardNoteProposal.Kind.ERRATUM
    if request.method == "POST":
        form = NoteForm(request.POST, kind=kind)
        if form.is_valid():
            try:
                proposal = notes.note_create(
                    proposer=request.user, card=card, kind=kind, data=form.cleaned_data
                )
            except ProposalError as exc:
                _show_problems(form, exc)
            else:
                messages.success(
                    request, _("Thank you! Your proposal is waiting for an editor's review.")
                )
                return redirect(proposal.get_absolute_url())
    else:
        form = NoteForm(kind=kind)
    return render(
        request,
        "catalog/note_propose.html",
        {"form": form, "card": card, "kind": kind, "proposal": None},
        status=400 if request.method == "POST" else 200,
    )


def _visible_note(request, pk) -> CardNoteProposal:
    proposal = get_object_or_404(
        CardNoteProposal.objects.select_related("proposer", "card", "reviewer"), pk=pk
    )
    if proposal.proposer_id != request.user.pk and not is_editor(request.user):
        raise Http404
    return proposal


def _note_context(request, proposal: CardNoteProposal) -> dict:
    labels = selectors.note_field_labels()
    return {
        "proposal": proposal,
        "rows": [
            {"field": name, "label": labels[name], "value": value}
            for name, value in proposal.fields().items()
        ],
        "can_review": is_editor(request.user) or is_trusted(request.user),
        "can_accept": (proposal.proposer_id != request.user.pk and is_editor(request.user))
        or (proposal.proposer_id == request.user.pk and is_trusted(request.user)),
    }


@login_required
@require_GET
def note_detail(request, pk):
    """A proposed erratum or ruling: its fields, and the review form for editors."""
    proposal = _visible_note(request, pk)
    return render(request, "catalog/note_detail.html", _note_context(request, proposal))


@login_required
@require_POST
def note_review(request, pk):
    """Accept, reject or send back an erratum or ruling, at the version the page showed: if
    the proposer edited it since, nothing is done and the page answers 409 with what changed."""
    proposal = _visible_note(request, pk)
    if not (is_editor(request.user) or is_trusted(request.user)):
        raise PermissionDenied
    form = ReviewForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for error in errors:
                messages.error(request, f"{field}: {error}")
        return render(
            request, "catalog/note_detail.html", _note_context(request, proposal), status=400
        )
    action, reason = form.cleaned_data["action"], form.cleaned_data["reason"]
    seen = form.cleaned_data["version"]
    try:
        if action == "accept":
            notes.note_accept(proposal=proposal, reviewer=request.user, seen_version=seen)
            messages.success(
                request, _("Accepted: it now shows on %(id)s.") % {"id": proposal.card_id}
            )
        else:
            status = (
                CardNoteProposal.Status.REJECTED
                if action == "reject"
                else CardNoteProposal.Status.CHANGES_REQUESTED
            )
            notes.note_refuse(
                proposal=proposal,
                reviewer=request.user,
                reason=reason,
                status=status,
                seen_version=seen,
            )
            messages.success(request, _("Answered; the proposer sees your reason."))
    except ProposalChanged as exc:
        context = _note_context(request, exc.proposal)
        context["changed_since"] = selectors.note_changes_since(exc.proposal, exc.seen)
        context["reason_given"] = reason
        return render(request, "catalog/note_detail.html", context, status=409)
    except ProposalError as exc:
        for problem in _named(exc.problems, {"reason": _("Reason")}):
            messages.error(request, problem)
        context = _note_context(request, proposal)
        context["reason_given"] = reason
        return render(request, "catalog/note_detail.html", context, status=400)
    if action == "accept":
        return redirect("catalog:card-detail", proposal.card_id)
    return redirect("catalog:review-queue")


@login_required
@require_http_methods(["GET", "POST"])
def note_edit(request, pk):
    """The proposer changes a pending erratum or ruling, or answers "changes requested"."""
    proposal = get_object_or_404(
        CardNoteProposal.objects.select_related("card"), pk=pk, proposer=request.user
    )
    if proposal.status not in (
        CardNoteProposal.Status.PENDING,
        CardNoteProposal.Status.CHANGES_REQUESTED,
    ):
        messages.error(request, _("This proposal has been reviewed already."))
        return redirect(proposal.get_absolute_url())
    if request.method == "POST":
        form = NoteForm(request.POST, kind=proposal.kind)
        if form.is_valid():
            try:
                notes.note_resubmit(proposal=proposal, user=request.user, data=form.cleaned_data)
            except ProposalError as exc:
                _show_problems(form, exc)
            else:
                messages.success(request, _("Changed; your proposal is waiting for review again."))
                return redirect(proposal.get_absolute_url())
    else:
        form = NoteForm(
            kind=proposal.kind,
            initial={**proposal.fields(), "source": proposal.source, "note": proposal.note},
        )
    return render(
        request,
        "catalog/note_propose.html",
        {"form": form, "card": proposal.card, "kind": proposal.kind, "proposal": proposal},
        status=400 if request.method == "POST" else 200,
    )


def _named(problems, labels: dict[str, str]) -> list[str]:
    """The problems of a form's free-text fields, each named by the label the form shows (not
    the field's code name, which is English on a Japanese page); other problems as they are."""
    return [
        f"{labels[p.field]}: {p.message}"
        if p.field in labels
        else str(p).removeprefix("file, ").removeprefix("file: ")
        for p in problems
    ]


@require_http_methods(["GET", "POST"])
def open_data_import(request):
    """An editor uploads another instance's open-data export (a set's .json or a .zip of its
    /data/ files); it becomes one changeset for review, never applied directly. Anyone else is
    refused (403), a GET as well as a POST."""
    if not is_editor(request.user):
        raise PermissionDenied
    values = {"instance": "", "note": ""}
    problems: list[str] = []
    status = 200
    if request.method == "POST":
        values = {name: request.POST.get(name, "") for name in values}
        upload = request.FILES.get("export")
        limit = settings.OPEN_DATA_IMPORT_MAX_BYTES
        try:
            if upload is None:
                raise ProposalError([RowProblem(0, "export", _("choose the export's file"))])
            if upload.size > limit:
                raise ProposalError(
                    [
                        RowProblem(
                            0,
                            "export",
                            _("is %(size)s bytes (at most %(limit)s)")
                            % {"size": f"{upload.size:,}", "limit": f"{limit:,}"},
                        )
                    ]
                )
            name = (upload.name or "export.json").replace("\x00", "")[-100:]
            export = read_export(files_from_upload(name, upload.read(limit + 1)))
            changeset = import_changeset(
                proposer=request.user,
                export=export,
                instance=values["instance"],
                note=values["note"],
            )
        except ExportRejected as exc:
            problems, status = exc.messages(), 400
        except ProposalError as exc:
            labels = {
                "export": _("Export file (.json or .zip)"),
                "instance": _("Where it comes from"),
                "note": _("Note for the editors"),
            }
            problems = _named(exc.problems, labels)
            status = 400
        else:
            counts = export.counts()
            messages.success(
                request,
                _(
                    "The export is one changeset for review: %(new)s new, %(different)s "
                    "different, %(same)s the same, %(kept)s samples kept. Nothing was applied."
                )
                % counts,
            )
            return redirect(changeset)
    return render(
        request,
        "catalog/open_data_import.html",
        {
            "values": values,
            "problems": problems,
            "max_cards": settings.OPEN_DATA_IMPORT_MAX_CARDS,
            "max_bytes": settings.OPEN_DATA_IMPORT_MAX_BYTES,
            # said as the refusals say it ("10,000,000 bytes"), the size in MB beside it
            "max_bytes_said": f"{settings.OPEN_DATA_IMPORT_MAX_BYTES:,}",
        },
        status=status,
    )
