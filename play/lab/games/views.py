"""Touchdown Heroes by hand (one seat, three bots) and its replay viewer, step by step."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardsite.web.numbers import whole_number_or
from play.lab.games import services as play_services
from play.lab.games.forms import TdStartForm
from play.lab.games.presenters import play_context, replay_context
from play.replays.selectors import match_log_for_viewer
from play.touchdown.session import replay_frames


@require_http_methods(["GET", "POST"])
def td_play(request):
    """The play page: the start form, or the game in the session."""
    if request.method == "POST":
        form = TdStartForm(request.POST)
        if form.is_valid():
            play_services.td_game_start(
                session=request.session,
                seat=form.cleaned_data["seat"],
                bots=form.cleaned_data["bots"],
                options=form.options(),
            )
            return redirect("play:td-play")
        return render(request, "play/touchdown/play.html", {"form": form}, status=400)
    game = play_services.td_game_of(request.session)
    context = {"form": TdStartForm()}
    if game is not None:
        context |= play_context(game)
        context["playing"] = True
    return render(request, "play/touchdown/play.html", context)


@require_POST
def td_play_act(request):
    """Apply the person's action, then back to the play page (or the error, 400)."""
    cards = request.POST.getlist("cards") if "show" in request.POST else None
    try:
        play_services.td_game_act(
            session=request.session, action=request.POST.get("action", ""), cards=cards
        )
    except play_services.TdPlayError as error:
        game = play_services.td_game_of(request.session)
        context = {"form": TdStartForm(), "error": str(error)}
        if game is not None:
            context |= play_context(game)
            context["playing"] = True
        return render(request, "play/touchdown/play.html", context, status=400)
    return redirect("play:td-play")


@require_POST
def td_play_quit(request):
    request.session.pop(play_services.SESSION_KEY, None)
    return redirect("play:td-play")


@require_GET
def td_play_replay(request):
    """Replay the session's game so far, one action a step (?step=N)."""
    log = play_services.td_game_log(request.session)
    if log is None:
        return redirect("play:td-play")
    context = replay_context(replay_frames(log), _step(request))
    context["log"] = log
    return render(request, "play/touchdown/replay.html", context)


def _step(request) -> int:
    return whole_number_or(request.GET.get("step", "0"), 0, low=None, signed=True)


@require_GET
def td_log_replay(request, token):
    """Replay a saved Touchdown Heroes log (a batch's sample game), one action a step.

    Who may watch it is the replay viewer's rule (play.replays.selectors)."""
    batch_token = request.GET.get("batch", "")
    match_log = match_log_for_viewer(token=token, user=request.user, batch_token=batch_token)
    if match_log.log.get("format") != "touchdown-heroes-log":
        raise Http404("Not a Touchdown Heroes log.")
    context = replay_context(replay_frames(match_log.log), _step(request))
    context["log"] = match_log.log
    context["title"] = match_log.title
    context["extra_query"] = "&" + urlencode({"batch": batch_token}) if batch_token else ""
    return render(request, "play/touchdown/replay.html", context)
