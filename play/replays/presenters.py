"""The replay viewer's board before kick-off, its narrated lines and the payload replay.js reads."""

from __future__ import annotations

from django.utils.translation import gettext as _

from play.models import MatchLog
from play.presenters import card_table, side_labels, zones
from play.replays import steps


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


def _viewer_tables(log: dict) -> tuple[dict, dict]:
    card_data = dict(log["cards"])
    for side in "AB":  # goalkeepers are in `cards` by the spec; be lenient with uploads
        for key in ("goalkeeper", "pk_goalkeeper"):
            card = log["sides"][side][key]
            card_data.setdefault(card["id"], card)
    cards = card_table(card_data)
    labels = side_labels(log["sides"]["A"]["name"], log["sides"]["B"]["name"])
    return cards, labels


def replay_steps(log: dict, *, position: int = 0) -> dict:
    """Return the window of steps that shows board position `position` (JSON for replay.js)."""
    cards, labels = _viewer_tables(log)
    names = {card_id: card["name"] for card_id, card in cards.items()}
    start = steps.window_start(position, len(log["events"]))
    return steps.steps_window(log, start, cards=cards, labels=labels, names=names, gettext=_)


def replay_context(
    log: dict, *, match_log: MatchLog | None, title: str, steps_url: str, position: int = 0
) -> dict:
    """Return the viewer page's context: the starting board and the first window of steps.

    The page carries one window (steps.REPLAY_WINDOW events, their board and narration) and
    the jump marks of the whole log; replay.js fetches other windows from `steps_url`.
    """
    cards, labels = _viewer_tables(log)
    names = {card_id: card["name"] for card_id, card in cards.items()}
    total = len(log["events"])
    window = steps.steps_window(
        log,
        steps.window_start(position, total),
        cards=cards,
        labels=labels,
        names=names,
        gettext=_,
    )
    payload = {
        "total": total,
        "window_size": steps.REPLAY_WINDOW,
        "keep_hands": steps.keeps_hands(log),
        "window": window,
        "markers": steps.step_markers(log),
        "steps_url": steps_url,
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
            "loading": _("Loading events…"),
            "load_failed": _("These events could not be loaded; try again."),
            "range": _("Events %(from)s–%(to)s of %(total)s"),
        },
    }
    return {
        "match_log": match_log,
        "title": title,
        "log": {"seed": log.get("seed")},
        "labels": labels,
        "board": replay_board(log, cards=cards, labels=labels),
        "payload": payload,
        "result": log.get("result"),
        "event_count": total,
        "window": window,
    }
