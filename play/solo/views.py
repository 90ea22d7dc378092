"""Solo play pages: the start form, the board, and the POST endpoints htmx calls per decision.

Views stay thin: they read the request, call `play.solo`, and render the game region. Without
JavaScript every form still works (the endpoints redirect back to the board).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalog.models import Card as CatalogCard
from decks.selectors import decks_readable_by
from play.engine import (
    ChooseGoalKick,
    ChooseShot,
    HalftimeSwaps,
    PlayCards,
)
from play.engine.match import GOAL_KICK, HALFTIME, PLAY, SHOT
from play.engine.options import MAX_PLAYER_CARDS_PER_TURN, rules_object
from play.models import MatchLog, SoloGame
from play.narrate import group_by_turn, narrate
from play.solo import services as solo
from play.solo.forms import SoloStartForm

RECENT_TURNS = 8
ZONE_OWNERS = ("A", "A", None, "B", "B")


# ----- shared with the replay viewer ---------------------------------------------------------


def card_table(card_data: Mapping[str, Mapping]) -> dict[str, dict]:
    """Return {id: card} for display: the engine's numbers plus the catalog's name and position."""
    catalog = CatalogCard.objects.filter(id__in=list(card_data)).only(
        "id", "name", "name_ja", "position", "kind"
    )
    japanese = (get_language() or "").startswith("ja")
    found = {card.id: card for card in catalog}
    table = {}
    for card_id, data in card_data.items():
        card = found.get(card_id)
        if card is not None:
            name = (card.name_ja if japanese and card.name_ja else card.name) or card_id
            position = card.position
        else:
            name = data.get("person") or card_id
            position = ""
        if not position:
            position = {"goalkeeper": "GK", "event": _("EV")}.get(data.get("kind"), "")
        table[card_id] = {
            "id": card_id,
            "kind": data.get("kind"),
            "name": name,
            "position": position,
            "shoot": data.get("shoot", 0),
            "keep": data.get("keep", 0),
            "defense": data.get("defense", 0),
            "effect": data.get("effect") or "",
        }
    return table


def side_labels(name_a: str, name_b: str) -> dict[str, str]:
    """Return short side labels, told apart when both decks have the same name."""
    if name_a == name_b:
        return {"A": f"{name_a} (A)", "B": f"{name_b} (B)"}
    return {"A": name_a, "B": name_b}


def zones(labels: Mapping[str, str]) -> list[dict]:
    """Return the five zones of R-FIELD-1 with their names."""
    names = [
        _("%(side)s penalty zone") % {"side": labels["A"]},
        _("%(side)s middle zone") % {"side": labels["A"]},
        _("Center zone"),
        _("%(side)s middle zone") % {"side": labels["B"]},
        _("%(side)s penalty zone") % {"side": labels["B"]},
    ]
    short = [_("PZ"), _("MZ"), _("C"), _("MZ"), _("PZ")]
    return [
        {"index": i, "name": names[i], "short": short[i], "owner": ZONE_OWNERS[i] or ""}
        for i in range(5)
    ]


def narrate_for_page(events, *, cards, labels, viewer=None, rules=None) -> list:
    """Return the narrated lines with this request's language."""
    names = {card_id: card["name"] for card_id, card in cards.items()}
    return narrate(
        events, cards=cards, labels=labels, names=names, viewer=viewer, rules=rules, gettext=_
    )


# ----- the board of a solo game --------------------------------------------------------------


def _side_board(match, side: str, *, cards, labels, viewer: str) -> dict:
    snap = match.snapshot(viewer)["sides"][side]
    hand = snap["hand"]
    return {
        "key": side,
        "label": labels[side],
        "role": "offense" if match.offense == side else "defense",
        "totals": snap["totals"],
        "deck_count": snap["deck_count"],
        "discard_count": snap["discard_count"],
        "hand_count": snap["hand_count"],
        "hand": [cards[c] for c in hand] if hand is not None else None,
        "hidden": range(snap["hand_count"]) if hand is None else range(0),
        "in_play": [cards[c] for c in snap["in_play"]],
        "goalkeeper": cards[snap["goalkeeper"]],
        "player_cards_used": snap["player_cards_used"],
    }


def solo_board(position: solo.Position, *, cards, labels) -> dict:
    """Return the board as the user (side A) sees it."""
    match = position.match
    ball = match.ball
    sides = [
        _side_board(match, side, cards=cards, labels=labels, viewer=solo.USER) for side in "AB"
    ]
    return {
        "half": match.half,
        "turn": match.turn,
        "score": dict(match.score),
        "offense": match.offense,
        "ball": {"zone": ball.zone, "arrow": ball.arrow} if ball else None,
        "shot": match.shot,
        "timing": match.timing,
        "sides": sides,
        "zones": zones(labels),
        "pk": match.result.pk if match.result else None,
        "result": match.result.to_dict() if match.result else None,
    }


def _decision(position: solo.Position, cards) -> dict:
    """Return what the decision panel offers: exactly the engine's legal actions."""
    match = position.match
    decision = match.decision
    if decision is None or match.actor != solo.USER:
        return {"kind": decision, "mine": False}
    info = {"kind": decision, "mine": True}
    if decision == PLAY:
        used = match.player_cards_used(solo.USER)
        info["budget"] = MAX_PLAYER_CARDS_PER_TURN - used
        info["used"] = used
        info["limit"] = MAX_PLAYER_CARDS_PER_TURN
        info["timing"] = match.timing
        info["role"] = "offense" if match.offense == solo.USER else "defense"
    elif decision == HALFTIME:
        options = solo.halftime_options(match)
        info["swaps"] = [
            {
                "value": f"{a.swaps[0][0]}>{a.swaps[0][1]}",
                "out": cards[a.swaps[0][0]],
                "into": cards[a.swaps[0][1]],
            }
            for a in options
            if a.swaps
        ]
    return info


def _game_context(request, position: solo.Position, *, full_log: bool = False) -> dict:
    game = position.game
    match = position.match
    cards = card_table({card_id: card.to_log() for card_id, card in match.cards.items()})
    labels = side_labels(match.side_decks["A"].name, match.side_decks["B"].name)
    rules = rules_object(match.options)
    lines = narrate_for_page(
        match.events, cards=cards, labels=labels, viewer=solo.USER, rules=rules
    )
    turns = group_by_turn(lines)
    shown = turns if full_log else turns[-RECENT_TURNS:]
    decision = _decision(position, cards)
    recent = [line for line in lines[position.last_user_event :] if line.type != "turn_start"]
    return {
        "game": game,
        "board": solo_board(position, cards=cards, labels=labels),
        "decision": decision,
        "selectable_hand": decision["mine"] and decision["kind"] == PLAY,
        "waiting_for_bot": position.waiting_for_bot,
        "bot_label": labels["B"],
        "recent": recent[-14:],
        "turns": list(reversed(shown)),
        "hidden_turns": len(turns) - len(shown),
        "can_undo": not game.is_finished and any(a["side"] == "A" for a in game.actions),
        "bot_delay_ms": 700,
        "js_strings": {
            "limit": _(
                "{name} can't be added: at most {limit} player cards per turn (R-PLAY-2), and "
                "you have already used {used} this turn and selected {selected}."
            )
        },
    }


def _htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def _render_game(request, position: solo.Position, *, status: int = 200, error: str = ""):
    context = _game_context(request, position)
    context["error"] = error
    template = "play/solo_game_region.html" if _htmx(request) else "play/solo_game.html"
    return render(request, template, context, status=status)


def _respond(request, game: SoloGame, write) -> object:
    """Run a write; answer htmx with the new game region, anything else with a redirect."""
    try:
        position = write()
    except solo.StaleGame as exc:
        position = solo.solo_match(solo.solo_game_for_owner(user=request.user, game_id=game.pk))
        return _fail(request, position, str(exc), 409)
    except solo.GameBroken as exc:
        messages.error(request, str(exc))
        return redirect(game)
    except solo.SoloError as exc:
        position = solo.solo_match(solo.solo_game_for_owner(user=request.user, game_id=game.pk))
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
    try:
        return int(request.POST["revision"])
    except (KeyError, ValueError):
        return None


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
    form = SoloStartForm(request.POST or None, user=request.user, preselected=preselected)
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
    games = solo.solo_games_of(request.user)[:12]
    logs = (
        MatchLog.objects.filter(owner=request.user)
        .exclude(source=MatchLog.Source.BATCH)
        .only("id", "title", "share_token", "source", "created_at")[:12]
    )
    return render(
        request,
        "play/solo_new.html",
        {"form": form, "games": games, "logs": logs},
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def solo_game(request, game_id):
    game = solo.solo_game_for_owner(user=request.user, game_id=game_id)
    try:
        position = solo.solo_match(game)
    except solo.GameBroken as exc:
        return render(request, "play/solo_broken.html", {"game": game, "error": str(exc)})
    return _render_game(request, position)


@login_required
@require_GET
def solo_events(request, game_id):
    """Return the whole event list of the game (the page shows the last turns only)."""
    game = solo.solo_game_for_owner(user=request.user, game_id=game_id)
    context = _game_context(request, solo.solo_match(game), full_log=True)
    return render(request, "play/solo_events.html", context)


@login_required
@require_POST
def solo_act_view(request, game_id):
    game = solo.solo_game_for_owner(user=request.user, game_id=game_id)

    def write():
        position = solo.solo_match(game)
        action = _action_from_post(request, position)
        return solo.solo_act(game=game, revision=_revision(request), action=action)

    return _respond(request, game, write)


@login_required
@require_POST
def solo_bot_step_view(request, game_id):
    game = solo.solo_game_for_owner(user=request.user, game_id=game_id)
    every = request.POST.get("all") == "1"
    # No revision check: a bot step depends on the position alone, so a repeated step is
    # harmless (it is the next bot decision, or nothing when the user is to decide).
    return _respond(
        request, game, lambda: solo.solo_bot_step(game=game, revision=None, all_steps=every)
    )


@login_required
@require_POST
def solo_undo_view(request, game_id):
    game = solo.solo_game_for_owner(user=request.user, game_id=game_id)
    return _respond(request, game, lambda: solo.solo_undo(game=game, revision=_revision(request)))


@login_required
@require_POST
def solo_restart_view(request, game_id):
    game = solo.solo_game_for_owner(user=request.user, game_id=game_id)
    new_shuffle = request.POST.get("shuffle") == "new"
    return _respond(
        request,
        game,
        lambda: solo.solo_restart(game=game, revision=_revision(request), new_shuffle=new_shuffle),
    )


@login_required
@require_POST
def solo_autoplay_view(request, game_id):
    game = solo.solo_game_for_owner(user=request.user, game_id=game_id)
    return _respond(
        request, game, lambda: solo.solo_autoplay_half(game=game, revision=_revision(request))
    )
