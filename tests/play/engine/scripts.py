"""Small helpers for scripting matches in tests."""

from __future__ import annotations

from play.engine.actions import ChooseGoalKick, ChooseShot, HalftimeSwaps, PlayCards
from play.engine.match import GOAL_KICK, HALFTIME, PLAY, SHOT, Match


def play(match: Match, *card_ids: str) -> None:
    """Apply the deciding side's PlayCards with these cards."""
    match.apply_action(PlayCards(match.actor, card_ids))


def shoot(match: Match, yes: bool = True) -> None:
    match.apply_action(ChooseShot(match.actor, yes))


def goal_kick(match: Match, zone: str) -> None:
    match.apply_action(ChooseGoalKick(match.actor, zone))


def no_swaps(match: Match) -> None:
    match.apply_action(HalftimeSwaps(match.actor, ()))


def pass_turn(match: Match) -> None:
    """Play no card at every timing until the turn (or the half) ends."""
    turn, half = match.turn, match.half
    while match.decision == PLAY and (match.turn, match.half) == (turn, half):
        play(match)


def pass_until(match: Match, decision: str) -> None:
    """Pass (no cards, back passes, middle-zone goal kicks) until `decision` is awaited."""
    for _ in range(1000):
        if match.decision == decision:
            return
        if match.decision == PLAY:
            play(match)
        elif match.decision == SHOT:
            shoot(match, False)
        elif match.decision == GOAL_KICK:
            goal_kick(match, "middle_zone")
        elif match.decision == HALFTIME:
            no_swaps(match)
        else:
            raise AssertionError(f"the match ended while waiting for {decision}")
    raise AssertionError(f"no {decision} decision came")


def events(match: Match, kind: str | None = None, *, turn: int | None = None) -> list[dict]:
    """Return the match's events of this type (in this turn of the current half)."""
    return [
        e
        for e in match.events
        if (kind is None or e["type"] == kind)
        and (turn is None or (e.get("turn") == turn and e.get("half") == match.half))
    ]


def last(match: Match, kind: str) -> dict:
    return events(match, kind)[-1]


def types_since(match: Match, kind: str) -> list[str]:
    """Return the event types from the last event of type `kind` on."""
    all_events = match.events
    start = max(i for i, e in enumerate(all_events) if e["type"] == kind)
    return [e["type"] for e in all_events[start:]]
