"""Touchdown Heroes by hand: one person at one seat with three bots, kept in the session.

A game is stored as plain data (seed, rules, seat, bots, actions) under one session key and
rebuilt by the engine on every request (`play.touchdown.session.HumanGame`), so nothing but the
actions is trusted from storage. Writes are `td_game_<verb>`; `td_game_of` reads.
"""

from __future__ import annotations

import random

from cardsite.web.json_limits import JSONLimitError, loads_bounded
from play.touchdown import Options
from play.touchdown.actions import ShowCards
from play.touchdown.session import HumanGame

SESSION_KEY = "touchdown_game"
BOTS = ("greedy", "random", "search")
MAX_ACTION_BYTES = 10_000  # one action of a game by hand: a kind and a few cards


class TdPlayError(ValueError):
    """A request the game cannot take; the message names the problem."""


def td_game_start(*, session, seat: int, bots: str, options: Options, seed: int | None = None):
    """Start a game at `seat` against three `bots` and keep it in the session."""
    if bots not in BOTS:
        raise TdPlayError(f"bots: use one of {', '.join(BOTS)}.")
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    game = HumanGame(seed=seed, options=options, seat=seat, bots=bots)
    session[SESSION_KEY] = game.to_dict()
    return game


def td_game_of(session) -> HumanGame | None:
    """Return the session's game rebuilt, or None (also when the stored data no longer plays)."""
    data = session.get(SESSION_KEY)
    if not data:
        return None
    try:
        return HumanGame.from_dict(data)
    except (KeyError, TypeError, ValueError):
        session.pop(SESSION_KEY, None)
        return None


def td_game_act(*, session, action: str = "", cards: list[str] | None = None) -> HumanGame:
    """Apply the person's action (its JSON form, or the three cards to show) and save."""
    game = td_game_of(session)
    if game is None:
        raise TdPlayError("There is no game to play; start one.")
    try:
        if cards is not None:
            game.play(ShowCards(game.seat, tuple(sorted(cards))))
        else:
            game.play_dict(loads_bounded(action, max_bytes=MAX_ACTION_BYTES))
    except JSONLimitError as error:
        raise TdPlayError(f"action: not valid JSON ({error}).") from None
    except ValueError as error:
        raise TdPlayError(str(error)) from None
    session[SESSION_KEY] = game.to_dict()
    return game


def td_game_log(session) -> dict | None:
    """Return the session game's log so far (for the replay viewer), or None."""
    game = td_game_of(session)
    return None if game is None else game.game.to_log()
