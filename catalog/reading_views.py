"""The reading jobs' JSON doors (issue #25), shared by every page that reads a photo.

POST /reading/jobs/ (a photo, the set, the kind) stores the photo and queues its reading on the
control worker: 202 with the job's state and the address to poll, or 400 with the one error
object (`message`, `errors` naming the field) and nothing saved. GET /reading/jobs/<token>/
answers the job's progress, then its result or its message; GET .../card.png the straightened
card a "straighten" job kept (the picture a layout is marked on). A job is its owner's only:
anyone else gets 404. The pages: the layout marking (catalog.contributions.views), the set
grid's prefill (static/js/set_grid.js) and the photo to collection page (decks.collections).
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cardsite.web.api_errors import error_body
from catalog import readings
from catalog.models import CardSet, ReadingJob


def _refused(message: str, field: str, status: int = 400) -> JsonResponse:
    return JsonResponse(error_body(message, [{"field": field, "message": message}]), status=status)


def _state(job: ReadingJob) -> dict:
    state = readings.job_state(job)
    state["url"] = reverse("catalog:reading-job", args=[job.token])
    if job.kind == ReadingJob.Kind.STRAIGHTEN and job.status == ReadingJob.Status.DONE:
        state["image"] = reverse("catalog:reading-job-card", args=[job.token])
    return state


def _no_store(response):
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
def job_create(request):
    if not request.user.is_authenticated:
        return _refused(_("Sign in to have a photo read."), "", status=403)
    code = (request.POST.get("set") or "").strip()
    card_set = CardSet.objects.filter(code=code).first() if code and "\x00" not in code else None
    if card_set is None:
        return _refused(_("Choose the set the card belongs to."), "set")
    kind = request.POST.get("kind") or ""
    if kind not in ReadingJob.Kind.values:
        return _refused(_("Unknown kind of reading."), "kind")
    upload = request.FILES.get("photo")
    if upload is None:
        return _refused(_("Choose a photo or scan of the card."), "photo")
    try:
        job = readings.reading_job_create(
            user=request.user, card_set=card_set, kind=kind, upload=upload
        )
    except readings.ReadingRefused as exc:
        return _refused(str(exc), exc.field)
    return _no_store(JsonResponse(_state(job), status=202))


def _own_job(request, token: str) -> ReadingJob:
    if not request.user.is_authenticated:
        raise Http404
    job = ReadingJob.objects.filter(token=token, user=request.user).first()
    if job is None:
        raise Http404
    return job


@require_GET
def job_detail(request, token):
    return _no_store(JsonResponse(_state(_own_job(request, token))))


@login_required
@require_GET
def job_card(request, token):
    job = _own_job(request, token)
    if not job.image:
        raise Http404
    try:
        data = readings.image_png(job)
    except (OSError, ValueError):
        raise Http404 from None
    return _no_store(HttpResponse(data, content_type="image/png"))
