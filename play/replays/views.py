"""The replay viewer: a saved match log (solo game, batch sample, upload) or an uploaded file.

Who may open a saved log is `play.replays.selectors.match_log_for_viewer`.
"""

from __future__ import annotations

import json
import secrets
import zlib

from django.core.cache import cache
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from cardsite.web.json_limits import JSONLimitError, loads_bounded
from cardsite.web.numbers import whole_number_or
from play.engine.log import LogInvalid, validate_log
from play.engine.runner import ReplayMismatch
from play.engine.runner import replay as engine_replay
from play.models import MatchLog, match_log_title
from play.replays import presenters
from play.replays.forms import MAX_UPLOAD_BYTES, LogUploadForm
from play.replays.selectors import match_log_for_viewer

MAX_ERRORS_SHOWN = 8
# Bounds of an uploaded log, so one upload is bounded work to check and show. A full match
# writes about 2,000 events and no string longer than 60 characters.
MAX_LOG_EVENTS = 10_000
MAX_LOG_STRING = 200


def _bounds_errors(log: dict) -> list[str]:
    """Return why a log is too big to check and show: too many events, an over-long string."""
    events = log.get("events")
    if isinstance(events, list) and len(events) > MAX_LOG_EVENTS:
        return [
            _("The log has %(count)s events; an uploaded log has at most %(limit)s.")
            % {"count": len(events), "limit": MAX_LOG_EVENTS}
        ]
    stack: list[tuple[str, object]] = [("", log)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str) and len(value) > MAX_LOG_STRING:
            return [
                _("%(path)s: a text of %(length)s characters; at most %(limit)s are allowed.")
                % {"path": path or "/", "length": len(value), "limit": MAX_LOG_STRING}
            ]
        if isinstance(value, dict):
            for key, item in value.items():
                if len(key) > MAX_LOG_STRING:
                    return [
                        _("A key of the log is longer than %(limit)s characters.")
                        % {"limit": MAX_LOG_STRING}
                    ]
                stack.append((f"{path}/{key}", item))
        elif isinstance(value, list):
            stack.extend((f"{path}/{index}", item) for index, item in enumerate(value))
    return []


def _replay_errors(log: dict) -> list[str]:
    """Return why the engine, replaying the log's seed, decks and choices, writes another log."""
    try:
        engine_replay(log, verify=True)
    except ReplayMismatch as exc:
        return [_("The log does not replay: %(reason)s") % {"reason": str(exc)[:300]}]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return [_("The log does not replay: %(reason)s") % {"reason": repr(exc)[:300]}]
    return []


@require_GET
def replay(request, token):
    match_log = match_log_for_viewer(
        token=token, user=request.user, batch_token=request.GET.get("batch", "")
    )
    if match_log.log.get("format") == "touchdown-heroes-log":
        url = reverse("play:td-log-replay", args=[token])
        batch = request.GET.get("batch", "")
        return redirect(f"{url}?batch={batch}" if batch else url)
    batch = request.GET.get("batch", "")
    steps_url = reverse("play:replay-steps", args=[token]) + (f"?batch={batch}" if batch else "")
    context = presenters.replay_context(
        match_log.log, match_log=match_log, title=match_log.title, steps_url=steps_url
    )
    context["batch_token"] = batch
    return render(request, "play/replay_view.html", context)


def _position(request) -> int | JsonResponse:
    position = whole_number_or(request.GET.get("position", "0"), None)
    if position is None:
        message = "position: a board position is a whole number from 0 to the event count."
        return JsonResponse(
            {"message": message, "errors": [{"field": "position", "message": message}]},
            status=400,
        )
    return position


@require_GET
def replay_steps(request, token):
    """The window of steps (board, events, narration) that shows one board position."""
    match_log = match_log_for_viewer(
        token=token, user=request.user, batch_token=request.GET.get("batch", "")
    )
    position = _position(request)
    if isinstance(position, JsonResponse):
        return position
    if match_log.log.get("format") == "touchdown-heroes-log":
        return JsonResponse({"message": "Not an Eleven Stars match log.", "errors": []}, status=404)
    return JsonResponse(presenters.replay_steps(match_log.log, position=position))


# A guest's upload is not saved: the viewer keeps it an hour in the cache (compressed), known
# only to the uploader's session, so the viewer can fetch its other windows of steps.
GUEST_UPLOAD_SECONDS = 3600
GUEST_UPLOADS_KEPT = 3


def _keep_guest_upload(request, log: dict) -> str:
    token = secrets.token_urlsafe(16)
    data = zlib.compress(json.dumps(log, ensure_ascii=False).encode("utf-8"), 6)
    cache.set(f"replay-upload:{token}", data, GUEST_UPLOAD_SECONDS)
    kept = [*request.session.get("replay_uploads", []), token][-GUEST_UPLOADS_KEPT:]
    request.session["replay_uploads"] = kept
    return token


@require_GET
def upload_steps(request, token):
    """The window of steps of a guest's unsaved upload (the uploader's session only)."""
    if token not in request.session.get("replay_uploads", []):
        raise Http404("No such upload.")
    position = _position(request)
    if isinstance(position, JsonResponse):
        return position
    data = cache.get(f"replay-upload:{token}")
    if data is None:
        message = _(
            "This unsaved upload has expired; upload the file again (or log in to keep it)."
        )
        return JsonResponse({"message": message, "errors": []}, status=410)
    log = json.loads(zlib.decompress(data))
    return JsonResponse(presenters.replay_steps(log, position=position))


def _log_title(log: dict, fallback: str) -> str:
    try:
        return match_log_title(log)
    except (KeyError, TypeError):
        return fallback[:200]


@require_http_methods(["GET", "POST"])
def replay_upload(request):
    """Validate an uploaded log; save it for a logged-in user, or just show it to a guest."""
    posted = request.method == "POST"  # bound even when the body parsed to nothing
    form = LogUploadForm(request.POST if posted else None, request.FILES if posted else None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        log = None
        try:
            log = loads_bounded(upload.read(MAX_UPLOAD_BYTES + 1), max_bytes=MAX_UPLOAD_BYTES)
        except JSONLimitError as exc:
            errors = [_("The file is not valid JSON: %(reason)s.") % {"reason": exc}]
        if log is not None and not isinstance(log, dict):
            errors = [_("A match log is a JSON object, not a list or a value.")]
        elif log is not None:
            errors = _bounds_errors(log)
            if not errors:
                try:
                    validate_log(log)
                except LogInvalid as exc:
                    errors = exc.errors
            if not errors:
                # A log is shown as a match only if the engine replays it to the very same log.
                errors = _replay_errors(log)
        if not errors:
            title = _log_title(log, upload.name)[:200]
            try:  # narrate it now, so a log the viewer cannot read is refused, not saved
                context = presenters.replay_context(log, match_log=None, title=title, steps_url="")
            except (KeyError, TypeError, ValueError) as exc:
                errors = [
                    _("The file matches the schema but cannot be replayed: %(error)r")
                    % {"error": exc}
                ]
        if not errors:
            if request.user.is_authenticated:
                saved = MatchLog.objects.create(
                    owner=request.user, source=MatchLog.Source.UPLOAD, title=title, log=log
                )
                return redirect("play:replay", token=saved.share_token)
            token = _keep_guest_upload(request, log)
            context["payload"]["steps_url"] = reverse("play:upload-steps", args=[token])
            return render(request, "play/replay_view.html", context)
    shown = errors[:MAX_ERRORS_SHOWN]
    return render(
        request,
        "play/replay_upload.html",
        {
            "form": form,
            "errors": shown,
            "more_errors": len(errors) - len(shown),
        },
        status=400 if (errors or form.errors) else 200,
    )


@require_GET
def log_json(request, token):
    """Download a saved match log, for whoever may watch its replay."""
    match_log = match_log_for_viewer(
        token=token, user=request.user, batch_token=request.GET.get("batch", "")
    )
    response = JsonResponse(match_log.log, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="match-{match_log.pk}.json"'
    return response
