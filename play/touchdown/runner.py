"""Playing whole games (bots at every seat, named or given) and replaying a log.

`play_game` is what a balance lab calls; with `log=False` it skips the log for speed and still
returns every count in `GameOutcome` (outcome.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from play.touchdown.actions import action_from_dict
from play.touchdown.game import Game
from play.touchdown.options import DEFAULT_OPTIONS, Options
from play.touchdown.outcome import GameOutcome, play_out
from play.touchdown.policies import Policy
from play.touchdown.strategies import get_policy


class ReplayMismatch(ValueError):
    """Replaying a log's seed and actions did not give back the same log."""


def _policy(policy: str | Policy) -> Policy:
    return get_policy(policy) if isinstance(policy, str) else policy


def play_game(
    options: Options = DEFAULT_OPTIONS,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    seed: int = 0,
    log: bool = True,
) -> GameOutcome:
    """Play a whole game, one policy per seat (or one for all four), and return its outcome."""
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        policies = [policies] * 4
    chosen = [_policy(p) for p in policies]
    if len(chosen) != 4:
        raise ValueError("Give one policy, or four (seats 0..3).")
    return play_out(options, chosen, seed, log)


def replay(log: dict, *, verify: bool = True) -> Game:
    """Rebuild a game from a log's seed, rules and actions.

    With `verify`, raise ReplayMismatch unless the rebuilt game writes the very same log.
    """
    if log.get("format") != "touchdown-heroes-log":
        raise ReplayMismatch("Not a Touchdown Heroes log.")
    options = Options.from_rules(log["rules"])
    policies = tuple(seat["policy"] for seat in log["seats"])
    game = Game.new(seed=log["seed"], options=options, policies=policies)
    for index, data in enumerate(log["actions"]):
        if game.decision is None:
            raise ReplayMismatch(f"The game is over before action {index}.")
        try:
            game.apply_action(action_from_dict(data))
        except ValueError as error:
            raise ReplayMismatch(f"Action {index} ({data!r}) cannot be replayed: {error}") from None
    if verify:
        mine = game.to_log()
        if json.dumps(mine, ensure_ascii=False) != json.dumps(log, ensure_ascii=False):
            raise ReplayMismatch(_first_difference(mine, log))
    return game


def _first_difference(mine: dict, theirs: dict) -> str:
    for key in ("format", "version", "seed", "rules", "seats", "actions", "result"):
        if mine.get(key) != theirs.get(key):
            return f"The replayed log differs in {key!r}."
    for index, (a, b) in enumerate(zip(mine["events"], theirs["events"], strict=False)):
        if a != b:
            return f"The replayed log differs at event {index}: {a!r} != {b!r}."
    return "The replayed log has a different number of events."
