"""The typed actions a side can take; a bot and a human in the browser send the same values.

Each action is a frozen dataclass. `PlayCards` and `HalftimeSwaps` sort their contents, so two
actions that use the same cards are equal. `action_to_dict`/`action_from_dict` are the JSON form
the web app stores (a solo game is saved as its seed plus these).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from play.engine.cards import SIDES, Side

GOAL_KICK_ZONES = ("penalty_zone", "middle_zone")


@dataclass(frozen=True, slots=True)
class ChooseGoalKick:
    """R-KICK-2: the offense places the ball in its own penalty zone or middle zone."""

    side: Side
    zone: str


@dataclass(frozen=True, slots=True)
class ChooseShot:
    """R-KICK-4: the offense shoots (True) or passes back (False)."""

    side: Side
    shoot: bool


@dataclass(frozen=True, slots=True)
class PlayCards:
    """R-PLAY-2: the cards a side uses at one timing (possibly none), as a sorted multiset."""

    side: Side
    card_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        ids = self.card_ids
        if len(ids) > 1 or type(ids) is not tuple:
            object.__setattr__(self, "card_ids", tuple(sorted(ids)))


@dataclass(frozen=True, slots=True)
class HalftimeSwaps:
    """R-MATCH-5: (out of the deck, in from the bench) pairs, one for one."""

    side: Side
    swaps: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "swaps", tuple(sorted((str(out), str(into)) for out, into in self.swaps))
        )


Action = Union[ChooseGoalKick, ChooseShot, PlayCards, HalftimeSwaps]  # noqa: UP007


def action_to_dict(action: Action) -> dict:
    """Return the action as JSON-ready data."""
    if isinstance(action, ChooseGoalKick):
        return {"type": "goal_kick", "side": action.side, "zone": action.zone}
    if isinstance(action, ChooseShot):
        return {"type": "shot", "side": action.side, "shoot": action.shoot}
    if isinstance(action, PlayCards):
        return {"type": "play_cards", "side": action.side, "card_ids": list(action.card_ids)}
    if isinstance(action, HalftimeSwaps):
        return {
            "type": "halftime_swaps",
            "side": action.side,
            "swaps": [list(pair) for pair in action.swaps],
        }
    raise TypeError(f"Not an action: {action!r}")


def action_from_dict(data: dict) -> Action:
    """Return the action stored as `data`, or raise ValueError saying what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"An action is a JSON object, not {data!r}.")
    kind = data.get("type")
    side = data.get("side")
    if side not in SIDES:
        raise ValueError(f"Action side must be 'A' or 'B', not {side!r}.")
    try:
        if kind == "goal_kick":
            if data["zone"] not in GOAL_KICK_ZONES:
                raise ValueError(f"Goal kick zone must be one of {GOAL_KICK_ZONES}.")
            return ChooseGoalKick(side, data["zone"])
        if kind == "shot":
            if not isinstance(data["shoot"], bool):
                raise ValueError("Shot choice 'shoot' must be true or false.")
            return ChooseShot(side, data["shoot"])
        if kind == "play_cards":
            ids = data["card_ids"]
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise ValueError("'card_ids' must be a list of card ids.")
            return PlayCards(side, tuple(ids))
        if kind == "halftime_swaps":
            swaps = data["swaps"]
            if not isinstance(swaps, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(i, str) for i in p)
                for p in swaps
            ):
                raise ValueError("'swaps' must be a list of [out_id, in_id] pairs.")
            return HalftimeSwaps(side, tuple((out, into) for out, into in swaps))
    except KeyError as missing:
        raise ValueError(f"Action {kind!r} lacks the field {missing}.") from None
    raise ValueError(f"Unknown action type {kind!r}.")
