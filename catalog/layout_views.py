"""A set's layout pages (issue #25, 1.): the layout as it is, marking it, and its review.

The set's page (`set_layout`) draws the accepted layout over its template, with its history
and the proposals waiting. The marking page (`layout_mark`) sends a scan of one card as a
"straighten" reading job (catalog.readings; static/js/layout_mark.js through the JSON door
catalog.reading_views, or a plain form post without JavaScript), then shows the straightened
card with the regions to move (draggable rectangles, and four numbers each); it sends a
LayoutProposal (catalog.contributions.layouts). A proposal's page (`layout_proposal_detail`)
is reviewed like a card's, naming the version the editor saw (409 when it changed since).
Template pictures are served here (`set_layout_template`, `layout_template`) with the
visibility of proposal scans: an accepted layout's to anyone, another only to its proposer
and the editors; never at the storage's own address.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalog import readings
from catalog.contributions import layouts
from catalog.contributions.forms import ReviewForm
from catalog.contributions.services import ProposalError, is_editor, is_trusted
from catalog.models import CardSet, LayoutProposal, ReadingJob, SetLayout
from catalog.reading.layout import CARD_HEIGHT, CARD_WIDTH, FIELDS, MIN_REGION, REQUIRED

EDGES = ("left", "top", "right", "bottom")


def region_labels() -> dict[str, str]:
    """Each region's name for a person, in the active language."""
    return {
        "name": _("Card name"),
        "reading": _("Kana reading"),
        "number": _("Card number"),
        "shoot": _("Shoot"),
        "keep": _("Keep"),
        "defense": _("Defense"),
        "art": _("Art"),
    }


def _edge_labels() -> dict[str, str]:
    return {"left": _("left"), "top": _("top"), "right": _("right"), "bottom": _("bottom")}


def _card_set(code: str) -> CardSet:
    return get_object_or_404(CardSet, code=code.upper().replace("\x00", "")[:4])


def _region_rows(regions: dict | None, values: dict | None = None) -> list[dict]:
    """The regions as the templates draw them: label, edges (fractions) and SVG pixels."""
    labels = region_labels()
    edge_labels = _edge_labels()
    rows = []
    for name in FIELDS:
        box = (regions or {}).get(name)
        typed = (values or {}).get(name)
        row = {
            "name": name,
            "label": labels[name],
            "required": name in REQUIRED,
            "box": None,
            "inputs": [
                {
                    "edge": edge,
                    "label": edge_labels[edge],
                    "value": typed[i] if typed else (f"{box[i]:.4f}" if box else ""),
                }
                for i, edge in enumerate(EDGES)
            ],
        }
        if box:
            left, top, right, bottom = (float(v) for v in box)
            row["box"] = {
                "x": round(left * CARD_WIDTH, 1),
                "y": round(top * CARD_HEIGHT, 1),
                "width": round((right - left) * CARD_WIDTH, 1),
                "height": round((bottom - top) * CARD_HEIGHT, 1),
            }
        rows.append(row)
    return rows


class RegionsRefused(ValueError):
    """A marked layout that cannot be kept; `problems` names each region in the user's words."""

    def __init__(self, problems: list[tuple[str, str]]):
        super().__init__("; ".join(message for _field, message in problems))
        self.problems = problems


def regions_from_post(post) -> dict:
    """Return the regions (fractions) from the form's four numbers a region; raise
    RegionsRefused naming every region that is wrong, in the reader's language. The service
    checks them again (catalog.reading.layout.Layout.from_dict)."""
    labels = region_labels()
    regions, problems = {}, []
    for name, raw in _typed(post).items():
        if not any(raw):
            if name in REQUIRED:
                problems.append((name, _("%(region)s: mark this region (it is required).")))
            continue
        try:
            numbers = [float(v) for v in raw]
        except ValueError:
            problems.append(
                (name, _("%(region)s: give four numbers from 0 to 1 (left, top, right, bottom)."))
            )
            continue
        if not all(0.0 <= v <= 1.0 for v in numbers):
            problems.append(
                (
                    name,
                    _(
                        "%(region)s: marked outside the card; every edge must lie on the card "
                        "(0 to 1)."
                    ),
                )
            )
            continue
        left, top, right, bottom = numbers
        if right - left < MIN_REGION or bottom - top < MIN_REGION:
            problems.append(
                (
                    name,
                    _(
                        "%(region)s: empty or upside down; right must be past left and bottom "
                        "below top."
                    ),
                )
            )
            continue
        regions[name] = numbers
    if problems:
        said = [(name, message % {"region": labels[name]}) for name, message in problems]
        raise RegionsRefused(said)
    return regions


def _listed(pairs) -> list[dict]:
    """The problems as the pages list them at the top: each message, linked to its field."""
    anchors = {name: f"region-{name}" for name in FIELDS}
    anchors.update({name: f"id_{name}" for name in ("source", "note", "photo", "reason")})
    return [{"anchor": anchors.get(field, ""), "message": message} for field, message in pairs]


def _said(exc: ProposalError) -> list[dict]:
    labels = {**region_labels(), "source": _("Source"), "note": _("Note for the editors")}
    labels["reason"] = _("Reason")
    out = []
    for problem in exc.problems:
        # The review checks (catalog.contributions.services.check_reviewer) word theirs in
        # English; the catalogue has them.
        message = _(problem.message) if isinstance(problem.message, str) else problem.message
        label = labels.get(problem.field)
        out.append((problem.field, f"{label}: {message}" if label else message))
    return _listed(out)


# ----- the set's layout ---------------------------------------------------------------------


def _mark_refused(request, context: dict, problems: list, fields: list) -> HttpResponse:
    """The marking page again with its problems listed and their fields marked (400)."""
    context["problems"], context["error_fields"] = problems, fields
    return render(request, "catalog/layout_mark.html", context, status=400)


def _pending(card_set: CardSet, user):
    pending = LayoutProposal.objects.filter(
        card_set=card_set,
        status__in=[LayoutProposal.Status.PENDING, LayoutProposal.Status.CHANGES_REQUESTED],
    ).select_related("proposer")
    if is_editor(user):
        return pending.order_by("created_at", "id")
    if user.is_authenticated:
        return pending.filter(proposer=user).order_by("created_at", "id")
    return pending.none()


def _set_template_url(current: SetLayout | None) -> str:
    if current is None:
        return ""
    # The version in the address: a new layout is a new picture, whatever a cache kept.
    return reverse("catalog:set-layout-template", args=[current.card_set_id]) + (
        f"?v={current.version}"
    )


@require_GET
def set_layout(request, code):
    """The set's accepted layout over its template, its history and the proposals waiting."""
    card_set = _card_set(code)
    current = SetLayout.objects.filter(card_set=card_set).select_related("proposal").first()
    return render(
        request,
        "catalog/set_layout.html",
        {
            "set": card_set,
            "current": current,
            "regions": _region_rows(current.regions if current else None),
            "history": list(layouts.layout_history(card_set)),
            "pending": list(_pending(card_set, request.user)),
            "template_url": _set_template_url(current),
            "card_width": CARD_WIDTH,
            "card_height": CARD_HEIGHT,
        },
    )


def _file_response(name: str, public: bool):
    header = settings.SCAN_SENDFILE_HEADER
    if header:
        response = HttpResponse(content_type="image/png")
        response[header] = f"{settings.SCAN_SENDFILE_PREFIX.rstrip('/')}/{name}"
    else:
        try:
            response = FileResponse(default_storage.open(name), content_type="image/png")
        except (FileNotFoundError, ValueError):
            raise Http404 from None
    response["Cache-Control"] = "public, max-age=3600" if public else "private, no-store"
    return response


@require_GET
def set_layout_template(request, code):
    """The set's accepted template picture (anyone may see it, as an applied card's scan)."""
    current = get_object_or_404(SetLayout, card_set=_card_set(code))
    if not current.template:
        raise Http404
    return _file_response(current.template.name, public=True)


# ----- marking ------------------------------------------------------------------------------


def _start_regions(card_set: CardSet) -> dict:
    current = SetLayout.objects.filter(card_set=card_set).first()
    return current.regions if current else layouts.generated_regions(card_set)


def _mark_context(request, card_set: CardSet, **extra) -> dict:
    context = {
        "set": card_set,
        "current": SetLayout.objects.filter(card_set=card_set).first(),
        "tools_missing": readings.tools_missing_said(),
        "trusted": is_trusted(request.user),
        "card_width": CARD_WIDTH,
        "card_height": CARD_HEIGHT,
        "values": {"source": "", "note": ""},
        "problems": [],
        "error_fields": [],
    }
    context.update(extra)
    return context


def _own_job(request, token: str, card_set: CardSet) -> ReadingJob | None:
    token = (token or "").strip()[:64]
    if not token or "\x00" in token:  # PostgreSQL refuses NUL in a query
        return None
    return ReadingJob.objects.filter(
        token=token, user=request.user, card_set=card_set, kind=ReadingJob.Kind.STRAIGHTEN
    ).first()


@login_required
@require_http_methods(["GET", "POST"])
def layout_mark(request, code):
    """Send a scan of one card to be straightened, then mark the regions on it."""
    card_set = _card_set(code)
    if request.method == "POST" and "photo" in request.FILES:
        return _mark_upload(request, card_set)
    if request.method == "POST":
        return _mark_send(request, card_set)
    job = None
    if request.GET.get("job"):
        job = _own_job(request, request.GET["job"], card_set)
        if job is None:
            raise Http404
    context = _mark_context(request, card_set, job=job)
    if job is not None and job.status == ReadingJob.Status.DONE:
        context["regions"] = _region_rows(_start_regions(card_set))
    elif job is not None and job.status == ReadingJob.Status.FAILED:
        context["job_failed"] = readings.failure_said(job)
    return render(request, "catalog/layout_mark.html", context)


def _mark_upload(request, card_set: CardSet):
    """The scan, sent by the plain form (no JavaScript): queue its straightening."""
    if readings.tools_missing_said():
        context = _mark_context(
            request, card_set, problems=_listed([("", readings.tools_missing_said())])
        )
        return render(request, "catalog/layout_mark.html", context, status=400)
    try:
        job = readings.reading_job_create(
            user=request.user,
            card_set=card_set,
            kind=ReadingJob.Kind.STRAIGHTEN,
            upload=request.FILES["photo"],
        )
    except readings.ReadingRefused as exc:
        problem = _("Scan or photo of the card: %(problem)s") % {"problem": exc}
        context = _mark_context(
            request, card_set, problems=_listed([("photo", problem)]), error_fields=["photo"]
        )
        return render(request, "catalog/layout_mark.html", context, status=400)
    return redirect(f"{request.path}?job={job.token}")


def _mark_send(request, card_set: CardSet):
    """The marked regions, source and note: a proposal (or the layout, for a trusted editor)."""
    job = _own_job(request, request.POST.get("job", ""), card_set)
    values = {name: request.POST.get(name, "")[:2100] for name in ("source", "note")}
    context = _mark_context(request, card_set, job=job, values=values)
    context["apply_now"] = bool(request.POST.get("apply_now"))
    if job is None or job.status != ReadingJob.Status.DONE:
        context["job"] = None
        said = _("Scan or photo of the card: send a scan first; it has not been straightened.")
        context["problems"] = _listed([("photo", said)])
        context["error_fields"] = ["photo"]
        return render(request, "catalog/layout_mark.html", context, status=400)
    context["regions"] = _region_rows(None, _typed(request.POST))
    try:
        regions = regions_from_post(request.POST)
        proposal = layouts.layout_proposal_create(
            proposer=request.user,
            job=job,
            regions=regions,
            source=values["source"],
            note=values["note"],
            apply_now=context["apply_now"],
        )
    except RegionsRefused as exc:
        fields = [name for name, _message in exc.problems]
        return _mark_refused(request, context, _listed(exc.problems), fields)
    except ProposalError as exc:
        return _mark_refused(request, context, _said(exc), [p.field for p in exc.problems])
    if proposal.status == LayoutProposal.Status.ACCEPTED:
        messages.success(request, _("Applied: this is now the set's layout."))
        return redirect("catalog:set-layout", card_set.code)
    messages.success(request, _("Thank you! Your layout is waiting for an editor's review."))
    return redirect(proposal.get_absolute_url())


def _typed(post) -> dict:
    return {
        name: [(post.get(f"{name}-{edge}") or "").strip()[:20] for edge in EDGES] for name in FIELDS
    }


# ----- a proposal and its review ------------------------------------------------------------


def _visible_proposal(request, pk) -> LayoutProposal:
    """An accepted layout is anyone's to see (it is the set's, or was); another only its
    proposer's and the editors' (404 for anyone else, as a card proposal)."""
    proposal = get_object_or_404(
        LayoutProposal.objects.select_related("proposer", "reviewer", "card_set"), pk=pk
    )
    if proposal.status == LayoutProposal.Status.ACCEPTED:
        return proposal
    if proposal.proposer_id != request.user.pk and not is_editor(request.user):
        raise Http404
    return proposal


def _fixed(box) -> list[str] | None:
    return [f"{float(v):.4f}" for v in box] if box else None


def _proposal_context(request, proposal: LayoutProposal, **extra) -> dict:
    current = SetLayout.objects.filter(card_set=proposal.card_set).first()
    rows = _region_rows(proposal.regions)
    now = current.regions if current else {}
    for row in rows:
        row["now"] = _fixed(now.get(row["name"]))
        # Against the set's layout now; with none yet, nothing is "changed".
        row["changed"] = current is not None and row["now"] != _fixed(
            proposal.regions.get(row["name"])
        )
    own = proposal.proposer_id == request.user.pk
    context = {
        "proposal": proposal,
        "set": proposal.card_set,
        "current": current,
        "regions": rows,
        "current_regions": _region_rows(now) if current else [],
        "current_url": _set_template_url(current),
        "history": list(layouts.layout_history(proposal.card_set)),
        "can_review": is_editor(request.user),
        "can_accept": (not own and is_editor(request.user)) or (own and is_trusted(request.user)),
        "own": own,
        "card_width": CARD_WIDTH,
        "card_height": CARD_HEIGHT,
    }
    context.update(extra)
    return context


@require_GET
def layout_proposal_detail(request, pk):
    """A proposed layout over its template, beside the set's layout now, and its review."""
    proposal = _visible_proposal(request, pk)
    return render(request, "catalog/layout_proposal.html", _proposal_context(request, proposal))


@login_required
@require_POST
def layout_proposal_review(request, pk):
    """Accept, reject or send back a layout at the version the page showed: when the proposer
    changed it since, nothing is done and the page answers 409 saying so."""
    proposal = _visible_proposal(request, pk)
    if not (is_editor(request.user) or is_trusted(request.user)):
        raise PermissionDenied
    form = ReviewForm(request.POST)
    if not form.is_valid():
        labels = {"action": _("Decision"), "reason": _("Reason"), "version": _("Version")}
        problems = _listed(
            (field, f"{labels.get(field, field)}: {error}")
            for field, errors in form.errors.items()
            for error in errors
        )
        context = _proposal_context(request, proposal, problems=problems)
        return render(request, "catalog/layout_proposal.html", context, status=400)
    action, reason = form.cleaned_data["action"], form.cleaned_data["reason"]
    seen = form.cleaned_data["version"]
    try:
        if action == "accept":
            layouts.layout_proposal_accept(
                proposal=proposal, reviewer=request.user, seen_version=seen
            )
        elif action == "reject":
            layouts.layout_proposal_reject(
                proposal=proposal, reviewer=request.user, reason=reason, seen_version=seen
            )
        else:
            layouts.layout_proposal_request_changes(
                proposal=proposal, reviewer=request.user, reason=reason, seen_version=seen
            )
    except layouts.LayoutChanged as exc:
        context = _proposal_context(
            request,
            _visible_proposal(request, pk),
            changed_since={"seen": exc.seen, "now": exc.proposal.version},
            reason_given=reason,
        )
        return render(request, "catalog/layout_proposal.html", context, status=409)
    except ProposalError as exc:
        context = _proposal_context(
            request, _visible_proposal(request, pk), problems=_said(exc), reason_given=reason
        )
        return render(request, "catalog/layout_proposal.html", context, status=400)
    if action == "accept":
        messages.success(request, _("Accepted: this is now the set's layout."))
        return redirect("catalog:set-layout", proposal.card_set_id)
    if action == "reject":
        messages.success(request, _("Rejected; the proposer sees your reason."))
    else:
        messages.success(request, _("Sent back to the proposer with your request."))
    return redirect("catalog:review-queue")


@login_required
@require_http_methods(["GET", "POST"])
def layout_proposal_edit(request, pk):
    """The proposer moves their regions and sends the layout again (after changes were asked
    for, or while it waits)."""
    proposal = get_object_or_404(
        LayoutProposal.objects.select_related("card_set"), pk=pk, proposer=request.user
    )
    editable = (LayoutProposal.Status.PENDING, LayoutProposal.Status.CHANGES_REQUESTED)
    if proposal.status not in editable:
        messages.error(request, _("This layout has been reviewed already."))
        return redirect(proposal.get_absolute_url())
    card_set = proposal.card_set
    values = {"source": proposal.source, "note": proposal.note}
    context = _mark_context(request, card_set, proposal=proposal, values=values)
    context["regions"] = _region_rows(proposal.regions)
    if request.method == "GET":
        return render(request, "catalog/layout_mark.html", context)
    values = {name: request.POST.get(name, "")[:2100] for name in ("source", "note")}
    context["values"] = values
    context["regions"] = _region_rows(None, _typed(request.POST))
    try:
        layouts.layout_proposal_resubmit(
            proposal=proposal,
            editor=request.user,
            regions=regions_from_post(request.POST),
            source=values["source"],
            note=values["note"],
        )
    except RegionsRefused as exc:
        fields = [name for name, _message in exc.problems]
        return _mark_refused(request, context, _listed(exc.problems), fields)
    except ProposalError as exc:
        return _mark_refused(request, context, _said(exc), [p.field for p in exc.problems])
    messages.success(request, _("Changed; your layout is waiting for review again."))
    return redirect(proposal.get_absolute_url())


@require_GET
def layout_template(request, pk):
    """The straightened card a layout was marked on, with the proposal's visibility."""
    proposal = _visible_proposal(request, pk)
    if not proposal.template:
        raise Http404
    public = proposal.status == LayoutProposal.Status.ACCEPTED
    return _file_response(proposal.template.name, public=public)
