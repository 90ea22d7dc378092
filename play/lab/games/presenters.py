"""What the Touchdown Heroes play page and replay viewer draw, from engine data."""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

from play.studies.labels import describe_variant
from play.touchdown.session import HumanGame, table_model


def play_name(play: str) -> str:
    return {"run": _("run"), "pass": _("pass"), "kick": _("kick")}.get(play, play)


def team_name(team: str | None) -> str:
    return _("Eagles") if team == "eagles" else _("Bears") if team == "bears" else ""


def event_line(event: dict) -> str:
    """Return one event of a log as a short sentence."""
    kind = event["type"]
    if kind == "kickoff":
        if event["choice"] == "normal":
            return _("%(team)s kick off: normal kick, ball at %(ball)s.") % {
                "team": team_name(event["team"]),
                "ball": event["ball"],
            }
        if event["onside"]:
            return _("%(team)s kick off: random kick, roll %(roll)s: onside! Ball at %(ball)s.") % {
                "team": team_name(event["team"]),
                "roll": event["roll"],
                "ball": event["ball"],
            }
        return _("%(team)s kick off: random kick, roll %(roll)s, ball at %(ball)s.") % {
            "team": team_name(event["team"]),
            "roll": event["roll"],
            "ball": event["ball"],
        }
    if kind == "lead":
        return _("Seat %(seat)s leads %(card)s: %(play)s.") % {
            "seat": event["seat"],
            "card": event["card"],
            "play": play_name(event["play"]),
        }
    if kind == "follow":
        return _("Seat %(seat)s plays %(card)s.") % {"seat": event["seat"], "card": event["card"]}
    if kind == "trick":
        return _("Seat %(seat)s takes the trick with %(value)s: attack %(outcome)s.") % {
            "seat": event["taker"],
            "value": event["value"],
            "outcome": _("success") if event["outcome"] == "success" else _("failure"),
        }
    if kind == "kick_play":
        return _("Kick play: roll %(roll)s, ball from %(before)s to %(ball)s.") % {
            "roll": event["roll"],
            "before": event["ball_before"],
            "ball": event["ball"],
        }
    if kind == "score":
        return _("%(team)s score %(points)s (%(eagles)s–%(bears)s).") % {
            "team": team_name(event["team"]),
            "points": event["points"],
            "eagles": event["score"]["eagles"],
            "bears": event["score"]["bears"],
        }
    if kind == "possession":
        return _("Possession changes: %(team)s attack.") % {"team": team_name(event["offense"])}
    if kind == "half_end":
        return _("End of half %(half)s (%(eagles)s–%(bears)s).") % {
            "half": event["half"],
            "eagles": event["score"]["eagles"],
            "bears": event["score"]["bears"],
        }
    if kind == "game_end":
        return _("Game over.")
    if kind == "half_start":
        return _("Half %(half)s: cards dealt.") % {"half": event["half"]}
    return _other_line(event)


def _other_line(event: dict) -> str:
    kind = event["type"]
    if kind == "show":
        return _("Seat %(seat)s shows three cards to seat %(to)s.") % event
    if kind == "lineup":
        return _("Seat %(lead)s is the lead; %(team)s attack.") % {
            "lead": event["lead"],
            "team": team_name(event["offense"]),
        }
    if kind == "effect":
        return _("Seat %(seat)s applies the effect of %(card)s.") % event
    if kind == "skill":
        return _("Seat %(seat)s uses the skill of hero #%(hero)s.") % event
    if kind == "choice":
        return _("Seat %(seat)s chooses %(value)s.") % event
    return kind


def _last_trick(events: list[dict]) -> dict | None:
    for event in reversed(events):
        if event["type"] in ("trick", "kick_play"):
            return event
        if event["type"] == "half_start":
            return None
    return None


def _button(label: str, data: dict) -> dict:
    return {"label": label, "value": json.dumps(data, separators=(",", ":"))}


def play_context(game: HumanGame) -> dict:
    """Return the play page's context: the table as the person sees it and their choices."""
    view = game.view()
    state = view["state"]
    me = game.seat
    shown = [list(game.game.shown[s]) if s in (me, (me + 2) & 3) else [] for s in range(4)]
    table = table_model(state, last_trick=_last_trick(view["events"]), shown=shown)
    table["play_label"] = play_name(table["play"]) if table["play"] else ""
    decision = state["decision"] if view["legal"] else None
    leads: list[dict] = []
    buttons: list[dict] = []
    skill = None
    for action in view["legal"]:
        kind = action["type"]
        if kind == "lead":
            if not leads or leads[-1]["card"] != action["card"]:
                leads.append({"card": action["card"], "plays": []})
            leads[-1]["plays"].append(_button(play_name(action["play"]), action))
        elif kind == "follow":
            buttons.append(_button(action["card"], action))
        elif kind == "kickoff":
            label = _("normal kick") if action["kind"] == "normal" else _("random kick")
            buttons.append(_button(label, action))
        elif kind == "skill":
            skill = _button(_("use the hero's skill"), action)
        elif kind in ("choose_suit", "choose_card", "choose_hero"):
            value = action.get("suit") or action.get("card") or action.get("target")
            buttons.append(_button(str(value), action))
    hand = [card["id"] for card in table["seats"][me]["hand"] or []]
    events = view["events"]
    return {
        "t": table,
        "me": me,
        "decision": decision,
        "leads": leads,
        "buttons": buttons,
        "skill": skill,
        "show_cards": hand if decision == "show" else [],
        "lines": [event_line(e) for e in events[-14:]],
        "over": view["over"],
        "half": state["half"],
        "result": state["result"],
        "seed": game.seed,
        "bots": game.bots,
        "rules": describe_variant(
            {
                **game.options.variant(),
                "minimum_kick": game.options.minimum_kick,
                "effects": game.options.effects.name,
                "policy": game.bots,
            }
        ),
        "rules_raw": ", ".join(f"{k}={v}" for k, v in game.options.variant().items()),
    }


def replay_context(frames: list[dict], step: int) -> dict:
    """Return the replay viewer's context at one step (0: before the first action)."""
    step = max(0, min(step, len(frames) - 1))
    frame = frames[step]
    table = table_model(
        frame["state"], last_trick=frame["last_trick"], shown=frame["state"]["shown"]
    )
    table["play_label"] = play_name(table["play"]) if table["play"] else ""
    return {
        "t": table,
        "me": None,
        "step": step,
        "last": len(frames) - 1,
        "previous": max(step - 1, 0),
        "next": min(step + 1, len(frames) - 1),
        "lines": [event_line(e) for e in frame["events"]],
        "action": frame["action"],
        "half_starts": [
            i for i, f in enumerate(frames) if any(e["type"] == "half_start" for e in f["events"])
        ],
    }
