"""One person at one seat with three bots, and a finished log as replay frames.

Both are plain data for the web app: a `HumanGame` is saved as seed + options + seat + bots +
actions and rebuilt by replaying them (the bots choose again and must choose the same); a
replay is a list of frames, one per action, each with the whole table after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from play.touchdown.actions import Action, action_from_dict, action_to_dict
from play.touchdown.cards import CARDS, SEATS, SUITS
from play.touchdown.game import Game, IllegalAction
from play.touchdown.options import SERIES_CARDS, TURNOVER_SUM, Options
from play.touchdown.outcome import MAX_DECISIONS
from play.touchdown.policies import policy_rng
from play.touchdown.runner import ReplayMismatch
from play.touchdown.strategies import get_policy

HUMAN = "human"


@dataclass
class HumanGame:
    """A game where `seat` is a person and every other seat runs the bot `bots`."""

    seed: int
    options: Options
    seat: int
    bots: str = "greedy"
    game: Game = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.seat not in SEATS:
            raise ValueError("seat must be 0, 1, 2 or 3.")
        names = tuple(HUMAN if s == self.seat else self.bots for s in SEATS)
        self._policies = {s: get_policy(self.bots) for s in SEATS if s != self.seat}
        self._rngs = {s: policy_rng(self.seed, s) for s in SEATS}
        self.game = Game.new(seed=self.seed, options=self.options, policies=names)
        self._run_bots()

    # ----- playing ----------------------------------------------------------------------

    def _run_bots(self) -> None:
        game = self.game
        for _ in range(MAX_DECISIONS):
            seat = game.current_seat()
            if seat is None or seat == self.seat:
                return
            game.apply_action(self._policies[seat].choose(game, self._rngs[seat]))
        raise RuntimeError("The bots made too many decisions in a row.")

    def play(self, action: Action) -> None:
        """Apply the person's action (IllegalAction if it is not theirs or not legal)."""
        if self.game.current_seat() != self.seat or getattr(action, "seat", None) != self.seat:
            raise IllegalAction(f"It is not seat {self.seat}'s decision now.")
        self.game.apply_action(action)
        self._run_bots()

    def play_dict(self, data: dict) -> None:
        """Apply an action given as its JSON form (ValueError naming the problem)."""
        self.play(action_from_dict(data))

    # ----- what the person sees -----------------------------------------------------------

    def view(self) -> dict:
        """Return the table as the person sees it, their legal actions and the log so far."""
        game = self.game
        mine = game.current_seat() == self.seat
        return {
            "seat": self.seat,
            "state": game.snapshot(self.seat),
            "shown_to_me": list(game.shown_to(self.seat)),
            "legal": [action_to_dict(a) for a in game.legal_actions()] if mine else [],
            "events": game.events,
            "over": game.is_terminal(),
        }

    # ----- saving -------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "seed": self.seed,
            "seat": self.seat,
            "bots": self.bots,
            "rules": self.game.to_log()["rules"],
            "actions": [action_to_dict(a) for a in self.game.history],
        }

    @classmethod
    def from_dict(cls, data: dict) -> HumanGame:
        """Rebuild a saved game; ReplayMismatch if the bots would now choose differently."""
        options = Options.from_rules(data["rules"])
        started = cls(seed=data["seed"], options=options, seat=data["seat"], bots=data["bots"])
        game = started.game
        actions = data["actions"]
        index = len(game.history)
        if [action_to_dict(a) for a in game.history] != actions[:index]:
            raise ReplayMismatch("The saved game's bot moves differ from this engine's.")
        while index < len(actions):
            try:
                started.play(action_from_dict(actions[index]))
            except ValueError as error:
                raise ReplayMismatch(f"Action {index} cannot be replayed: {error}") from None
            index = len(game.history)
            if [action_to_dict(a) for a in game.history] != actions[:index]:
                raise ReplayMismatch(f"The bots answer differently after action {index}.")
        return started


def replay_frames(log: dict) -> list[dict]:
    """Return one frame per action of a log: the action, the events it caused and the whole
    table after it (every hand, the trick, the field, the series cards, the score).

    Frame 0 is the table before the first action. A trick that was judged shows in the
    frame's `last_trick` (the `trick` event), since the table's trick is then empty."""
    if log.get("format") != "touchdown-heroes-log":
        raise ReplayMismatch("Not a Touchdown Heroes log.")
    options = Options.from_rules(log["rules"])
    policies = tuple(seat["policy"] for seat in log["seats"])
    game = Game.new(seed=log["seed"], options=options, policies=policies)
    seen = game.event_count
    last_trick = None
    frames = [_frame(game, None, game.events, last_trick)]
    for index, data in enumerate(log["actions"]):
        try:
            game.apply_action(action_from_dict(data))
        except ValueError as error:
            raise ReplayMismatch(f"Action {index} ({data!r}) cannot be replayed: {error}") from None
        events = game.events[seen:]
        seen = game.event_count
        for event in events:
            if event["type"] in ("trick", "kick_play"):
                last_trick = event
            elif event["type"] == "half_start":
                last_trick = None
        frames.append(_frame(game, data, events, last_trick))
    return frames


def _frame(game: Game, action: dict | None, events: list[dict], last_trick: dict | None) -> dict:
    state = game.snapshot(None)
    state["shown"] = [list(game.shown[s]) for s in SEATS]
    return {"action": action, "events": events, "state": state, "last_trick": last_trick}


def _card(card_id: str) -> dict:
    card = CARDS[card_id]
    return {"id": card_id, "suit": card.suit, "number": card.number, "colour": SUITS[card.suit][2]}


def table_model(state: dict, *, last_trick: dict | None = None, shown: list | None = None) -> dict:
    """Return a snapshot as what a page draws: per seat its hand (cards, or a count), hero and
    team; the trick on the table (or the last judged one); the field with the ball; the series
    cards; the score.

    The field is drawn one way for the whole game, as the draft's field card: the Eagles attack
    to the right, the Bears to the left, and each square carries both teams' numbers (a
    square is 11 - v for one team when it is v for the other: TURNOVER_SUM), so the ball keeps
    its square when possession changes. Its ends are the two goal lines (0 for the team that
    scores there)."""
    seats = []
    for seat, data in enumerate(state["seats"]):
        hand = data["hand"]
        shown_cards = set(shown[seat]) if shown else set()
        seats.append(
            {
                "seat": seat,
                "team": data["team"],
                "hero": data["hero"],
                "hero_up": data["hero_up"],
                "hand": None
                if hand is None
                else [dict(_card(c), shown=c in shown_cards) for c in hand],
                "hand_count": data["hand_count"],
                "lead": state["lead"] == seat,
                "actor": state["actor"] == seat,
            }
        )
    trick = [{"seat": s, **_card(c)} for s, c in state["trick"]]
    judged = None
    if not trick and last_trick is not None:
        if last_trick["type"] == "trick":
            cards = [{"seat": s, **_card(c)} for s, c in last_trick["cards"]]
            judged = {
                "cards": cards,
                "taker": last_trick["taker"],
                "outcome": last_trick["outcome"],
            }
        else:  # a kick play
            cards = [{"seat": last_trick["seat"], **_card(last_trick["card"])}]
            judged = {"cards": cards, "kick": last_trick}
    ball = state["ball"]
    at = None  # the ball's Eagles number (11 - its Bears number)
    if ball is not None and state["offense"] in ("eagles", "bears"):
        eagles = ball if state["offense"] == "eagles" else TURNOVER_SUM - ball
        at = min(max(eagles, 0), TURNOVER_SUM)
    field_squares = [
        {"eagles": e, "bears": TURNOVER_SUM - e, "ball": at == e, "goal": e in (0, TURNOVER_SUM)}
        for e in range(TURNOVER_SUM, -1, -1)
    ]
    return {
        "half": state["half"],
        "offense": state["offense"],
        "ball": ball,
        "field": field_squares,
        "series": [index < state["series"] for index in range(SERIES_CARDS)],
        "score": state["score"],
        "trick": trick,
        "led_suit": state["led_suit"],
        "play": state["play"],
        "judged": judged,
        "seats": seats,
        "decision": state["decision"],
        "actor": state["actor"],
        "result": state["result"],
    }
