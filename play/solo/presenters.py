"""The board of a solo game as the user (side A) sees it, and the decision panel."""

from __future__ import annotations

from django.utils.translation import gettext as _

from play.engine.match import HALFTIME, PLAY
from play.engine.options import MAX_PLAYER_CARDS_PER_TURN, rules_object
from play.narrate import group_by_turn
from play.presenters import card_table, narrate_for_page, side_labels, zones
from play.solo import services as solo

RECENT_TURNS = 8


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


def game_context(position: solo.Position, *, full_log: bool = False) -> dict:
    """Return the solo page's context: board, decision panel, recent lines and turn log."""
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
        "can_undo": not game.is_finished and any(a["side"] == "A" for a in game.actions),
        "bot_delay_ms": 700,
        "js_strings": {
            "limit": _(
                "{name} can't be added: at most {limit} player cards per turn (R-PLAY-2), and "
                "you have already used {used} this turn and selected {selected}."
            )
        },
    }
