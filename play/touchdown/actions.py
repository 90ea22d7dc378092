"""The typed actions of Touchdown Heroes; a bot and a human in the browser send the same values.

Each action is a frozen dataclass naming the seat (0..3) that acts. `action_to_dict` and
`action_from_dict` are the JSON form a game log (and the web app) stores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from play.touchdown.cards import CARDS, ORDER, SEATS, SUIT_LETTERS

PLAYS = ("run", "pass", "kick")  # TD-PLAY-1
KICKOFF_KINDS = ("normal", "random")  # TD-KICK-1
SHOWN_CARDS = 3  # TD-SET-3


@dataclass(frozen=True, slots=True)
class ShowCards:
    """TD-SET-3: the three cards a seat shows its partner (kept in card order)."""

    seat: int
    card_ids: tuple[str, ...]

    def __post_init__(self) -> None:
        ids = tuple(self.card_ids)
        if all(card_id in ORDER for card_id in ids):
            ids = tuple(sorted(ids, key=ORDER.__getitem__))
        object.__setattr__(self, "card_ids", ids)


@dataclass(frozen=True, slots=True)
class KickOff:
    """TD-KICK-1: the kicking seat chooses a normal or a random kick-off."""

    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class Lead:
    """TD-PLAY-1: the lead plays a card face up and declares run, pass or kick."""

    seat: int
    card_id: str
    play: str


@dataclass(frozen=True, slots=True)
class Follow:
    """TD-PLAY-2/3: a seat after the lead plays one card."""

    seat: int
    card_id: str


@dataclass(frozen=True, slots=True)
class UseSkill:
    """TD-COMP-2: turn one's hero face down and apply its skill."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChooseSuit:
    """An effect asks for a suit (change the led suit)."""

    seat: int
    suit: str


@dataclass(frozen=True, slots=True)
class ChooseCard:
    """An effect asks for a card played in this trick (cancel it, or set its number)."""

    seat: int
    card_id: str


@dataclass(frozen=True, slots=True)
class ChooseHero:
    """An effect asks for a face-down hero to turn face up (named by its holder's seat)."""

    seat: int
    target: int


Action = Union[ShowCards, KickOff, Lead, Follow, UseSkill, ChooseSuit, ChooseCard, ChooseHero]  # noqa: UP007


def action_to_dict(action: Action) -> dict:
    """Return the action as JSON-ready data."""
    kind = type(action)
    if kind is Follow:
        return {"type": "follow", "seat": action.seat, "card": action.card_id}
    if kind is Lead:
        return {"type": "lead", "seat": action.seat, "card": action.card_id, "play": action.play}
    if kind is KickOff:
        return {"type": "kickoff", "seat": action.seat, "kind": action.kind}
    if kind is ShowCards:
        return {"type": "show", "seat": action.seat, "cards": list(action.card_ids)}
    if kind is UseSkill:
        return {"type": "skill", "seat": action.seat}
    if kind is ChooseSuit:
        return {"type": "choose_suit", "seat": action.seat, "suit": action.suit}
    if kind is ChooseCard:
        return {"type": "choose_card", "seat": action.seat, "card": action.card_id}
    if kind is ChooseHero:
        return {"type": "choose_hero", "seat": action.seat, "target": action.target}
    raise TypeError(f"Not an action: {action!r}")


def _card_id(value: object) -> str:
    if value not in CARDS:
        raise ValueError(f"{value!r} is not a play card id (e.g. 'R7', 'G10').")
    return value  # type: ignore[return-value]


def action_from_dict(data: dict) -> Action:
    """Return the action stored as `data`, or raise ValueError saying what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"An action is a JSON object, not {data!r}.")
    kind = data.get("type")
    seat = data.get("seat")
    if seat not in SEATS or isinstance(seat, bool):
        raise ValueError(f"Action seat must be 0, 1, 2 or 3, not {seat!r}.")
    try:
        if kind == "follow":
            return Follow(seat, _card_id(data["card"]))
        if kind == "lead":
            if data["play"] not in PLAYS:
                raise ValueError(f"A lead declares one of {', '.join(PLAYS)}.")
            return Lead(seat, _card_id(data["card"]), data["play"])
        if kind == "kickoff":
            if data["kind"] not in KICKOFF_KINDS:
                raise ValueError(f"A kick-off is one of {', '.join(KICKOFF_KINDS)}.")
            return KickOff(seat, data["kind"])
        if kind == "show":
            cards = data["cards"]
            if not isinstance(cards, list):
                raise ValueError("'cards' must be a list of card ids.")
            return ShowCards(seat, tuple(_card_id(c) for c in cards))
        if kind == "skill":
            return UseSkill(seat)
        if kind == "choose_suit":
            if data["suit"] not in SUIT_LETTERS:
                raise ValueError(f"A suit is one of {', '.join(SUIT_LETTERS)}.")
            return ChooseSuit(seat, data["suit"])
        if kind == "choose_card":
            return ChooseCard(seat, _card_id(data["card"]))
        if kind == "choose_hero":
            target = data["target"]
            if target not in SEATS or isinstance(target, bool):
                raise ValueError("A hero is named by its holder's seat, 0..3.")
            return ChooseHero(seat, target)
    except KeyError as missing:
        raise ValueError(f"Action {kind!r} lacks the field {missing}.") from None
    raise ValueError(f"Unknown action type {kind!r}.")
