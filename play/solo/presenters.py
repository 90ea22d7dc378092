"""The board of a solo game as the user (side A) sees it, and the decision panel."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from play.engine.match import HALFTIME, PLAY
from play.engine.options import MAX_PLAYER_CARDS_PER_TURN, rules_object
from play.narrate import group_by_turn
from play.presenters import card_table, narrate_for_page, side_labels, zones
from play.simulations.forms import POLICY_LABELS
from play.solo import services as solo

RECENT_TURNS = 8
# The pause before the opponent's next decision is applied by itself: short for the goldfish,
# whose decisions are never worth reading (it uses no card), long enough to follow a bot's.
BOT_DELAY_MS = {"goldfish": 250, "bot": 700}
LOG_FILTERS = ("all", "goals", "shots", "mine")


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


def _keep_contest(match) -> dict:
    """Return the keep totals of this play phase, as the user reads them (R-PLAY-4, R-JUDGE-5)."""
    totals = match.snapshot(solo.USER)["sides"]
    return {
        "mine": totals[solo.USER]["totals"]["keep"],
        "theirs": totals[solo.BOT]["totals"]["keep"],
    }


def decision_panel(position: solo.Position, cards) -> dict:
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
        info["keep"] = _keep_contest(match)
        info["passes"] = match.options.empty_timing == "passes"
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


def _line_tags(events, user_marks: set[int]) -> dict[int, set[str]]:
    """Return, for each event index worth a filter, the log filters it belongs to."""
    tags: dict[int, set[str]] = {}
    for index, event in enumerate(events):
        kind = event["type"]
        found = set()
        if kind == "goal" or (kind == "pk_kick" and event.get("scored")):
            found.add("goals")
        if (
            (kind == "judge" and event.get("kind") == "shot")
            or (kind == "kick" and event.get("case") == "corner_kick")
            or (kind == "kick" and event.get("choice") == "shoot")
            or kind in ("goal", "pk_kick")
        ):
            found.add("shots")
        if index in user_marks:
            found.add("mine")
        if found:
            tags[index] = found
    return tags


def log_filter(value: str | None) -> str:
    """Return a known log filter (an unknown one shows everything)."""
    return value if value in LOG_FILTERS else "all"


def _user_marks(position: solo.Position) -> set[int]:
    """Return the index of the event each of the user's decisions produced."""
    actions = position.game.actions
    count = position.match.event_count
    marks = position.marks
    found = set()
    for index, data in enumerate(actions):
        end = marks[index + 1] if index + 1 < len(marks) else count
        if data["side"] == solo.USER and marks[index] < end:
            found.add(marks[index])
    return found


def game_context(position: solo.Position, *, full_log: bool = False, log: str = "all") -> dict:
    """Return the solo page's context: board, decision panel, recent lines and turn log.

    `log` filters the turn log (goals, shots, the user's decisions); a filtered log covers the
    whole game, not only the last turns.
    """
    game = position.game
    match = position.match
    cards = card_table({card_id: card.to_log() for card_id, card in match.cards.items()})
    labels = side_labels(match.side_decks["A"].name, match.side_decks["B"].name)
    rules = rules_object(match.options)
    lines = narrate_for_page(
        match.events, cards=cards, labels=labels, viewer=solo.USER, rules=rules
    )
    log = log_filter(log)
    if log != "all":
        tags = _line_tags(match.events, _user_marks(position))
        turns = group_by_turn(line for line in lines if log in tags.get(line.index, ()))
        shown = turns
    else:
        turns = group_by_turn(lines)
        shown = turns if full_log else turns[-RECENT_TURNS:]
    decision = decision_panel(position, cards)
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
        "can_undo": any(a["side"] == solo.USER for a in game.actions),
        "bot_delay_ms": BOT_DELAY_MS.get(game.mode, BOT_DELAY_MS["bot"]),
        "policy_label": POLICY_LABELS.get(game.opponent_policy, game.opponent_policy),
        "log_filter": log,
        "log_filters": [
            ("all", pgettext("log filter", "Everything")),
            ("goals", pgettext("log filter", "Goals")),
            ("shots", pgettext("log filter", "Shots")),
            ("mine", pgettext("log filter", "My decisions")),
        ],
        "js_strings": {
            "limit": _(
                "{name} can't be added: at most {limit} player cards per turn (R-PLAY-2), and "
                "you have already used {used} this turn and selected {selected}."
            )
        },
    }
