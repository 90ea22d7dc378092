"""The replay viewer: a saved match log (solo game, batch sample, upload) or an uploaded file.

Who may open a saved log at `/replays/<share_token>/` (docs/play.md):
- its owner, always;
- anyone, when the log's deck (the deck version it was played with) is public or unlisted:
  whoever can open that deck can watch its matches;
- anyone holding the share link of the batch the log came from: the batch page links its
  sample matches with `?batch=<batch share token>`, and the viewer checks that token.
Everything else is a 404, as for a missing log. Uploaded logs name no deck, so they stay the
uploader's own.
"""

from __future__ import annotations

import json

from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from decks.models import Deck
from play.engine.log import LogInvalid, validate_log
from play.models import MatchLog
from play.solo.forms import LogUploadForm
from play.solo.views import card_table, narrate_for_page, side_labels, zones

MAX_ERRORS_SHOWN = 8


def match_log_for_viewer(*, token: str, user, batch_token: str = "") -> MatchLog:
    """Return the saved log if the user may watch it (see the module docstring); else 404."""
    match_log = (
        MatchLog.objects.filter(share_token=token)
        .select_related("deck_version__deck", "batch")
        .first()
    )
    if match_log is None:
        raise Http404("No such match log.")
    if user.is_authenticated and match_log.owner_id == user.id:
        return match_log
    version = match_log.deck_version
    if version is not None and version.deck.visibility in (
        Deck.Visibility.PUBLIC,
        Deck.Visibility.UNLISTED,
    ):
        return match_log
    if match_log.batch is not None and batch_token and batch_token == match_log.batch.share_token:
        return match_log
    raise Http404("No such match log.")


def replay_board(log: dict, *, cards: dict, labels: dict) -> dict:
    """Return the board before the first event (replay.js moves it from there)."""
    sides = []
    for side in "AB":
        keeper = log["sides"][side]["goalkeeper"]
        sides.append(
            {
                "key": side,
                "label": labels[side],
                "role": "offense" if side == "A" else "defense",
                "totals": {"keep": 0, "shoot": 0, "defense": 0},
                "deck_count": len(log["sides"][side]["deck"]),
                "discard_count": 0,
                "hand_count": 0,
                "hand": [],
                "hidden": range(0),
                "in_play": [],
                "goalkeeper": cards.get(keeper["id"])
                or card_table({keeper["id"]: keeper})[keeper["id"]],
                "player_cards_used": 0,
            }
        )
    return {
        "half": 1,
        "turn": 0,
        "score": {"A": 0, "B": 0},
        "offense": "A",
        "ball": None,
        "shot": False,
        "timing": 0,
        "sides": sides,
        "zones": zones(labels),
        "pk": None,
        "result": None,
    }


def _replay_context(log: dict, *, match_log: MatchLog | None, title: str) -> dict:
    card_data = dict(log["cards"])
    for side in "AB":  # goalkeepers are in `cards` by the spec; be lenient with uploads
        for key in ("goalkeeper", "pk_goalkeeper"):
            card = log["sides"][side][key]
            card_data.setdefault(card["id"], card)
    cards = card_table(card_data)
    labels = side_labels(log["sides"]["A"]["name"], log["sides"]["B"]["name"])
    lines = narrate_for_page(log["events"], cards=cards, labels=labels, rules=log.get("rules"))
    payload = {
        "log": log,
        "lines": [line.to_dict() for line in lines],
        "cards": cards,
        "labels": labels,
        "strings": {
            "half1": _("1st half"),
            "half2": _("2nd half"),
            "pk": _("PK shootout"),
            "turn": _("Turn %(turn)s"),
            "offense": _("Offense"),
            "defense": _("Defense"),
            "start": _("Before kick-off"),
            "event": _("Event %(n)s of %(total)s"),
            "goal": _("Goal"),
            "half": _("Half"),
            "full_time": _("Full time"),
        },
    }
    return {
        "match_log": match_log,
        "title": title,
        "log": log,
        "labels": labels,
        "board": replay_board(log, cards=cards, labels=labels),
        "payload": payload,
        "result": log.get("result"),
        "event_count": len(log["events"]),
    }


@require_GET
def replay(request, token):
    match_log = match_log_for_viewer(
        token=token, user=request.user, batch_token=request.GET.get("batch", "")
    )
    context = _replay_context(match_log.log, match_log=match_log, title=match_log.title)
    context["batch_token"] = request.GET.get("batch", "")
    return render(request, "play/replay_view.html", context)


def _log_title(log: dict, fallback: str) -> str:
    try:
        goals = log["result"]["goals"]
        return f"{log['sides']['A']['name']} {goals['A']}–{goals['B']} {log['sides']['B']['name']}"
    except (KeyError, TypeError):
        return fallback


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
                context = _replay_context(log, match_log=None, title=title)
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
