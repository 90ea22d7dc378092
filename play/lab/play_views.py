"""Touchdown Heroes by hand (one seat, three bots) and its replay viewer, step by step."""

from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from play.lab import play_services
from play.lab.play_forms import TdStartForm
from play.lab.play_presenters import play_context, replay_context
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
    frames = replay_frames(log)
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    context = replay_context(frames, step)
    context["log"] = log
    return render(request, "play/touchdown/replay.html", context)
