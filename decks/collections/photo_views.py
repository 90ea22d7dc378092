"""The photo to collection page (/collection/photo/, issue #25, 3.): choose the set, take or
choose a photo, wait while the control worker reads it, then add each card found.

With JavaScript (static/js/collection_photo.js) the photo goes to the reading jobs' JSON door
(catalog.reading_views), the page polls the job and then asks this module for the matches
as a fragment, and each Add answers JSON. Without it, the form posts here, the job page
refreshes itself until the reading is done, and each Add redirects back with a message.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from catalog import readings
from catalog.models import CardSet, ReadingJob
from decks.collections import photo
from decks.collections.services import CollectionError, collection_add_found


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _page_context(request, chosen_code: str = "") -> dict:
    sets = readings.sets_for_recognition()
    ready = [row for row in sets if row.ready]
    chosen = next((row for row in sets if row.card_set.code == chosen_code.upper()), None)
    if chosen is None or not chosen.ready:
        chosen = ready[0] if ready else None
    return {
        "sets": sets,
        "ready": ready,
        "not_ready": [row for row in sets if not row.ready],
        "chosen": chosen,
        "tools_missing": readings.tools_missing_said(),
        "kind": ReadingJob.Kind.RECOGNISE,
    }


@login_required
@require_http_methods(["GET", "POST"])
def collection_photo(request):
    """The page; a POST (the form without JavaScript) starts the reading and shows its job."""
    if request.method == "GET":
        return render(
            request,
            "decks/collection/photo.html",
            _page_context(request, request.GET.get("set", "")),
        )
    code = (request.POST.get("set") or "").strip()
    card_set = CardSet.objects.filter(code=code.upper()).first() if code.isalnum() else None
    error = None
    if card_set is None:
        error = _("Choose the set the card belongs to.")
    elif request.FILES.get("photo") is None:
        error = _("Choose a photo or scan of the card.")
    else:
        try:
            job = readings.reading_job_create(
                user=request.user,
                card_set=card_set,
                kind=ReadingJob.Kind.RECOGNISE,
                upload=request.FILES["photo"],
            )
        except readings.ReadingRefused as exc:
            error = str(exc)
        else:
            return redirect("decks:collection-photo-job", token=job.token)
    context = _page_context(request, code)
    context["error"] = error
    return render(request, "decks/collection/photo.html", context, status=400)


def _own_job(request, token: str) -> ReadingJob:
    job = (
        ReadingJob.objects.filter(token=token, user=request.user, kind=ReadingJob.Kind.RECOGNISE)
        .select_related("card_set")
        .first()
    )
    if job is None:
        raise Http404
    return job


def _job_context(request, job: ReadingJob) -> dict:
    context = {
        "job": job,
        "state": readings.job_state(job),
        "conditions": photo.conditions(),
        "default_condition": photo.DEFAULT_CONDITION,
        "add_url": reverse("decks:collection-photo-add", args=[job.token]),
    }
    if job.status == ReadingJob.Status.DONE:
        context["found"] = photo.found_cards(job)
    return context


@login_required
def collection_photo_job(request, token):
    """One reading's matches: the whole page, or (`?part=matches`) the fragment the script
    puts under the form once the job is done."""
    job = _own_job(request, token)
    context = _job_context(request, job)
    if request.GET.get("part") == "matches":
        return render(request, "decks/collection/_photo_matches.html", context)
    context.update(_page_context(request, job.card_set_id))
    return render(request, "decks/collection/photo.html", context)


@login_required
@require_POST
def collection_photo_add(request, token):
    """Add one card found (`add` = its place) or every card still on the form (`add` = all)."""
    job = _own_job(request, token)
    if job.status != ReadingJob.Status.DONE:
        return _add_answer(request, job, [_("The photo has not been read yet.")], status=409)
    places = request.POST.getlist("place")
    wanted = request.POST.get("add", "")
    targets = places if wanted == "all" else [wanted]
    items, problems = photo.add_items(job, request.POST, targets)
    if not problems:
        try:
            collection_add_found(owner=request.user, items=items)
        except CollectionError as exc:
            problems = exc.messages
    if problems:
        return _add_answer(request, job, problems, status=400)
    copies = sum(int(item["quantity"]) for item in items)
    cards = ", ".join(f"{item['card']} ×{int(item['quantity'])}" for item in items)
    message = ngettext(
        "Added to your collection: %(n)d copy (%(cards)s).",
        "Added to your collection: %(n)d copies (%(cards)s).",
        copies,
    ) % {"n": copies, "cards": cards}
    return _add_answer(request, job, [], added=targets, message=message)


def _add_answer(request, job, problems, *, status=200, added=(), message=""):
    if _wants_json(request):
        if problems:
            body = {
                "message": _("Nothing was added."),
                "errors": [{"message": problem} for problem in problems],
            }
        else:
            body = {"message": message, "added": list(added)}
        return JsonResponse(body, status=status)
    if problems:
        messages.error(request, _("Nothing was added."))
        for problem in problems:
            messages.error(request, problem)
    else:
        messages.success(request, message)
    return redirect("decks:collection-photo-job", token=job.token)
