"""The replay viewer: a saved match log (solo game, batch sample, upload) or an uploaded file.

Who may open a saved log is `play.replays.selectors.match_log_for_viewer`.
"""

from __future__ import annotations

import json

from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from play.engine.log import LogInvalid, validate_log
from play.models import MatchLog, match_log_title
from play.replays import presenters
from play.replays.forms import LogUploadForm
from play.replays.selectors import match_log_for_viewer

MAX_ERRORS_SHOWN = 8


@require_GET
def replay(request, token):
    match_log = match_log_for_viewer(
        token=token, user=request.user, batch_token=request.GET.get("batch", "")
    )
    if match_log.log.get("format") == "touchdown-heroes-log":
        url = reverse("play:td-log-replay", args=[token])
        batch = request.GET.get("batch", "")
        return redirect(f"{url}?batch={batch}" if batch else url)
    context = presenters.replay_context(match_log.log, match_log=match_log, title=match_log.title)
    context["batch_token"] = request.GET.get("batch", "")
    return render(request, "play/replay_view.html", context)


def _log_title(log: dict, fallback: str) -> str:
    try:
        return match_log_title(log)
    except (KeyError, TypeError):
        return fallback[:200]


@require_http_methods(["GET", "POST"])
def replay_upload(request):
    """Validate an uploaded log; save it for a logged-in user, or just show it to a guest."""
    form = LogUploadForm(request.POST or None, request.FILES or None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        log = None
        try:
            log = json.loads(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError:
            errors = [_("The file is not UTF-8 text.")]
        except json.JSONDecodeError as exc:
            errors = [
                _("The file is not valid JSON: %(msg)s at line %(line)s, column %(col)s.")
                % {"msg": exc.msg, "line": exc.lineno, "col": exc.colno}
            ]
        if log is not None and not isinstance(log, dict):
            errors = [_("A match log is a JSON object, not a list or a value.")]
        elif log is not None:
            try:
                validate_log(log)
            except LogInvalid as exc:
                errors = exc.errors
        if not errors:
            title = _log_title(log, upload.name)[:200]
            try:  # narrate it now, so a log the viewer cannot read is refused, not saved
                context = presenters.replay_context(log, match_log=None, title=title)
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
