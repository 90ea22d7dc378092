"""The replay viewer's steps, a window at a time: board state, events and narration.

A step is one event of the log (match-log.md). A response carries at most REPLAY_WINDOW steps:
the board before the window's first event, the window's events and their narrated lines.
Reaching the window's start costs one cheap pass over the earlier events (`board_apply` and
`Narrator.advance`: a few assignments per event, no text), so a response costs time in
proportion to the steps it shows, not to the whole log times the work of narrating it; the
browser asks for the next window when the viewer steps past the one it has (replay.js).
Plain Python, no Django.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping

from play.narrate import Narrator

REPLAY_WINDOW = 200
SIDES = ("A", "B")


def _zero() -> dict:
    return {"keep": 0, "shoot": 0, "defense": 0}


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def board_start(log: Mapping) -> dict:
    """Return the board before the first event, in the shape replay.js renders."""
    return {
        "half": 1,
        "turn": 0,
        "offense": "A",
        "ball": None,
        "shot": False,
        "score": {"A": 0, "B": 0},
        "pk": None,
        "result": None,
        "sides": {
            side: {
                "hand": [],
                "deck": len(log["sides"][side]["deck"]),
                "discard": 0,
                "inPlay": [],
                "totals": _zero(),
                "keeper": log["sides"][side]["goalkeeper"]["id"],
            }
            for side in SIDES
        },
    }


def board_apply(state: dict, e: Mapping, keep_hands: bool) -> None:
    """Move the board by one event, in place (the same rules as replay.js's `apply`)."""
    s = state["sides"]
    kind = e.get("type")
    if kind == "half_start":
        state.update(half=e["half"], turn=0, offense=e["kickoff"], ball=None, shot=False)
        for side in SIDES:
            s[side].update(deck=len(e["decks"][side]), discard=0, inPlay=[], totals=_zero())
            if not keep_hands:
                s[side]["hand"] = []
    elif kind == "turn_start":
        state.update(
            turn=e["turn"],
            offense=e["offense"],
            ball=dict(e["ball"]) if e.get("ball") else None,
            score=dict(e["score"]),
            shot=False,
        )
        for side in SIDES:
            s[side].update(
                hand=list(e["hands"][side]),
                deck=e["deck_counts"][side],
                totals=_zero(),
                inPlay=[],
            )
    elif kind == "draw":
        s[e["side"]]["hand"].extend(e["cards"])
        s[e["side"]]["deck"] = e["deck_count"]
    elif kind == "kick":
        state.update(ball=dict(e["ball"]), shot=e["shot"])
    elif kind == "play":
        for card in e["cards"]:
            hand = s[e["side"]]["hand"]
            if card in hand:
                hand.remove(card)
            s[e["side"]]["inPlay"].append(card)
        for side in SIDES:
            s[side]["totals"] = dict(e["totals"][side])
    elif kind == "judge":
        if e["kind"] == "shot" and e["outcome"] != "corner_kick":
            state["offense"] = _other(state["offense"])
        elif e["kind"] == "keep" and e["outcome"] == "swap":
            old = state["offense"]
            state["offense"] = _other(old)
            if state["ball"]:
                state["ball"]["arrow"] = old
    elif kind in ("goal", "half_end"):
        state["score"] = dict(e["score"])
    elif kind == "discard":
        s[e["side"]]["discard"] += len(e["cards"])
        s[e["side"]]["inPlay"] = []
    elif kind == "pk_start":
        state.update(pk={"A": 0, "B": 0}, ball=None, shot=False, turn=0)
        for side in SIDES:
            s[side].update(
                keeper=e["goalkeepers"][side],
                deck=len(e["decks"][side]),
                hand=[],
                inPlay=[],
                totals=_zero(),
            )
    elif kind == "pk_reshuffle":
        s[e["side"]]["deck"] = len(e["deck"])
    elif kind == "pk_kick":
        s[e["side"]]["deck"] = max(0, s[e["side"]]["deck"] - 1)
        s[e["side"]]["inPlay"] = [e["card"]]
        if e["scored"]:
            state["pk"][e["side"]] += 1
    elif kind == "match_end":
        state["result"] = dict(e)


def keeps_hands(log: Mapping) -> bool:
    return bool(((log.get("rules") or {}).get("house") or {}).get("halftime_keep_hands"))


def window_start(position: int, total: int) -> int:
    """Return the first event of the window that shows board position `position` (0..total).

    Position p is the board after p events; it is shown with its event p - 1, so the window
    of p > 0 is the one holding event p - 1.
    """
    position = max(0, min(total, position))
    return 0 if position == 0 else (position - 1) // REPLAY_WINDOW * REPLAY_WINDOW


def steps_window(
    log: Mapping,
    start: int,
    *,
    cards: Mapping[str, Mapping],
    labels: Mapping[str, str],
    names: Mapping[str, str],
    gettext: Callable[[str], str],
) -> dict:
    """Return the window of steps from event `start`: {start, end, total, state, events, lines}.

    `state` is the board before event `start`; `lines` narrate events start..end - 1 only.
    """
    events = log["events"]
    total = len(events)
    start = max(0, min(start, max(0, total - 1)))
    end = min(total, start + REPLAY_WINDOW)
    keep = keeps_hands(log)
    state = board_start(log)
    narrator = Narrator(
        cards=cards, labels=labels, names=names, rules=log.get("rules"), gettext=gettext
    )
    for event in events[:start]:  # no text: the narrator and the board only keep count
        board_apply(state, event, keep)
        narrator.advance(event)
    window = events[start:end]
    lines = [narrator.line(start + offset, event).to_dict() for offset, event in enumerate(window)]
    return {
        "start": start,
        "end": end,
        "total": total,
        "state": copy.deepcopy(state),
        "events": list(window),
        "lines": lines,
    }


def step_markers(log: Mapping) -> dict:
    """Return where the viewer's jumps land, for the whole log: ints, no text.

    `turns`: events that start a turn or the shootout; `halves`: half and shootout starts;
    `goals`: [event, side, score A, score B] of every goal.
    """
    turns, halves, goals = [], [], []
    for index, event in enumerate(log["events"]):
        kind = event.get("type")
        if kind in ("turn_start", "pk_start"):
            turns.append(index)
        if kind in ("half_start", "pk_start"):
            halves.append([index, kind, event.get("half")])
        if kind == "goal":
            goals.append([index, event["side"], event["score"]["A"], event["score"]["B"]])
    return {"turns": turns, "halves": halves, "goals": goals}
