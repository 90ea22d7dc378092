"""Solo play pages: the start form, the board, and the POST endpoints htmx calls per decision.

Views stay thin: they read the request, call the solo services, selectors and presenters,
and render the game region. Without JavaScript every form still works (the endpoints redirect
back to the board).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardsite.web.numbers import whole_number_or
from decks.selectors import decks_readable_by
from play.engine import (
    ChooseGoalKick,
    ChooseShot,
    HalftimeSwaps,
    PlayCards,
)
from play.engine.match import GOAL_KICK, HALFTIME, PLAY, SHOT
from play.models import SoloGame
from play.solo import presenters, selectors
from play.solo import services as solo
from play.solo.forms import SoloStartForm


def _own_game(request, game_id: int) -> SoloGame:
    return selectors.solo_game_for_owner(user=request.user, game_id=game_id)


def _htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def _log_choice(request) -> str:
    """Return the log filter the page shows (htmx sends it with every request of the game)."""
    return presenters.log_filter(request.POST.get("log") or request.GET.get("log"))


def _bad_log_filter(request) -> str:
    """Return the error for an unknown `log` filter in the address, or ""."""
    value = request.GET.get("log")
    if not value or value in presenters.LOG_FILTERS:
        return ""
    return _("Unknown log filter (log): choose %(choices)s.") % {
        "choices": ", ".join(presenters.LOG_FILTERS)
    }


def _render_game(request, position: solo.Position, *, status: int = 200, error: str = ""):
    context = presenters.game_context(position, log=_log_choice(request))
    context["error"] = error
    template = "play/solo_game_region.html" if _htmx(request) else "play/solo_game.html"
    return render(request, template, context, status=status)


def _respond(request, game: SoloGame, write) -> object:
    """Run a write; answer htmx with the new game region, anything else with a redirect."""
    try:
        position = write()
    except solo.StaleGame as exc:
        position = solo.solo_match(_own_game(request, game.pk))
        return _fail(request, position, str(exc), 409)
    except solo.GameBroken as exc:
        messages.error(request, str(exc))
        return redirect(game)
    except solo.SoloError as exc:
        position = solo.solo_match(_own_game(request, game.pk))
        return _fail(request, position, str(exc), 400)
    if not _htmx(request):
        return redirect(position.game)
    return _render_game(request, position)


def _fail(request, position, message: str, status: int):
    if not _htmx(request):
        messages.error(request, message)
        return redirect(position.game)
    return _render_game(request, position, status=status, error=message)


def _revision(request) -> int | None:
    return whole_number_or(request.POST.get("revision"), None, low=None, signed=True)


def _action_from_post(request, position: solo.Position):
    """Return the typed action the form posted for the current decision."""
    decision = position.match.decision
    side = solo.USER
    if decision == PLAY:
        if request.POST.get("nothing"):
            return PlayCards(side, ())
        return PlayCards(side, tuple(request.POST.getlist("card")))
    if decision == SHOT:
        choice = request.POST.get("shot")
        if choice not in ("shoot", "back_pass"):
            raise solo.SoloError(_("Choose to shoot or to pass back."))
        return ChooseShot(side, choice == "shoot")
    if decision == GOAL_KICK:
        return ChooseGoalKick(side, request.POST.get("zone", ""))
    if decision == HALFTIME:
        value = request.POST.get("swap", "")
        if not value:
            return HalftimeSwaps(side, ())
        out, _sep, into = value.partition(">")
        return HalftimeSwaps(side, ((out, into),))
    raise solo.SoloError(_("There is no decision to make now."))


# ----- views ----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def solo_new(request):
    slug = request.GET.get("deck") or request.POST.get("deck") or ""
    preselected = decks_readable_by(request.user).filter(slug=slug).first() if slug else None
    form = SoloStartForm(
        request.POST if request.method == "POST" else None,
        user=request.user,
        preselected=preselected,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            position = solo.solo_start(
                owner=request.user,
                deck=data["deck"],
                mode=data["mode"],
                opponent_deck=data["opponent"],
                policy=data["policy"],
                goalkeeper=data["goalkeeper"],
                seed=data["seed"],
                options=form.options(),
            )
        except solo.SoloInvalid as exc:
            for field, errors in exc.errors.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            return redirect(position.game)
    games = selectors.solo_games_of(request.user)[:12]
    logs = selectors.solo_logs_of(request.user)[:12]
    return render(
        request,
        "play/solo_new.html",
        {"form": form, "games": games, "logs": logs},
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def solo_game(request, game_id):
    game = selectors.solo_game_for_owner(user=request.user, game_id=game_id)
    try:
        position = solo.solo_match(game)
    except solo.GameBroken as exc:
        return render(request, "play/solo_broken.html", {"game": game, "error": str(exc)})
    error = _bad_log_filter(request)
    return _render_game(request, position, status=400 if error else 200, error=error)


@login_required
@require_GET
def solo_events(request, game_id):
    """Return the whole event list of the game (the page shows the last turns only)."""
    game = selectors.solo_game_for_owner(user=request.user, game_id=game_id)
    context = presenters.game_context(
        solo.solo_match(game), full_log=True, log=_log_choice(request)
    )
    error = _bad_log_filter(request)
    context["log_error"] = error
    return render(request, "play/solo_events.html", context, status=400 if error else 200)


@login_required
@require_POST
def solo_act_view(request, game_id):
    game = selectors.solo_game_for_owner(user=request.user, game_id=game_id)

    def write():
        position = solo.solo_match(game)
        action = _action_from_post(request, position)
        return solo.solo_act(game=game, revision=_revision(request), action=action)

    return _respond(request, game, write)


@login_required
@require_POST
def solo_bot_step_view(request, game_id):
    game = selectors.solo_game_for_owner(user=request.user, game_id=game_id)
    every = request.POST.get("all") == "1"
    # No revision check: a bot step depends on the position alone, so a repeated step is
    # harmless (it is the next bot decision, or nothing when the user is to decide).
    return _respond(
        request, game, lambda: solo.solo_bot_step(game=game, revision=None, all_steps=every)
    )


@login_required
@require_POST
def solo_undo_view(request, game_id):
    game = selectors.solo_game_for_owner(user=request.user, game_id=game_id)
    return _respond(request, game, lambda: solo.solo_undo(game=game, revision=_revision(request)))


@login_required
@require_POST
def solo_restart_view(request, game_id):
    game = selectors.solo_game_for_owner(user=request.user, game_id=game_id)
    new_shuffle = request.POST.get("shuffle") == "new"
    return _respond(
        request,
        game,
        lambda: solo.solo_restart(game=game, revision=_revision(request), new_shuffle=new_shuffle),
    )


@login_required
@require_POST
def solo_autoplay_view(request, game_id):
    game = selectors.solo_game_for_owner(user=request.user, game_id=game_id)
    return _respond(
        request, game, lambda: solo.solo_autoplay_half(game=game, revision=_revision(request))
    )


@login_required
@require_POST
def solo_rematch_view(request, game_id):
    """Start a new game with the same shuffle, decks and options; open its board."""
    game = selectors.solo_game_for_owner(user=request.user, game_id=game_id)
    position = solo.solo_rematch(game=game)
    url = position.game.get_absolute_url()
    if _htmx(request):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)
