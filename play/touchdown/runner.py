"""Playing whole games (bots at every seat) and replaying a log.

`play_game` is what a balance lab calls; with `log=False` it skips the log for speed and still
returns every count in `GameOutcome`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass

from play.touchdown.actions import action_from_dict
from play.touchdown.cards import SEATS, TEAMS
from play.touchdown.game import Game
from play.touchdown.options import DEFAULT_OPTIONS, Options
from play.touchdown.policies import LazyPolicyRng, Policy, get_policy

MAX_DECISIONS = 10_000  # a guard: a game takes a few hundred at most


class GameStalled(RuntimeError):
    """A bot game made more than MAX_DECISIONS decisions (a bug, never a rule)."""


class ReplayMismatch(ValueError):
    """Replaying a log's seed and actions did not give back the same log."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """A finished game: its result plus the counts a balance lab aggregates (keys: teams)."""

    score: dict[str, int]  # TD-END-2
    winner: str | None  # "eagles", "bears", or None for a draw
    draw: bool
    kickoffs: dict[str, dict[str, int]]  # kicking team -> {"normal": n, "random": n}
    onside_attempts: dict[str, int]  # random kick-offs, by kicking team
    onside_successes: dict[str, int]
    random_kickoffs: tuple[tuple[str, bool], ...]  # (kicking team, onside?) in game order
    onside_kicking_teams: tuple[str, ...]  # the kicking team of each successful onside kick
    kickoff_sequence: tuple[tuple[str, str, bool], ...]  # (kicking team, choice, onside?)
    drives: tuple[tuple[str, int, int, str], ...]  # (team, start ball, points, how it ended)
    points_per_drive: dict[str, float]  # a team's points / its drives (0.0 with no drive)
    touchdowns: dict[str, dict[str, int]]  # team -> {"2": n, "3": n}
    kick_points: dict[str, int]
    kick_plays: dict[str, int]
    interceptions: dict[str, int]  # by the intercepting team
    skills_used: dict[str, int]
    tricks: int
    tricks_by_half: tuple[int, int]
    seed: int
    unfinished_tricks: int = 0  # halves that ended with a started trick thrown away
    # per kick-off (as kickoff_sequence): (half, kicker's cards in hand, kicking team's score,
    # the other team's score) when it was taken
    kickoff_states: tuple[tuple[int, int, int, int], ...] = ()
    half_scores: tuple[tuple[int, int], ...] = ()  # (eagles, bears) at the end of each half
    log: dict | None = None

    def to_dict(self) -> dict:
        """Return the outcome as JSON-ready data (without the log)."""
        data = dataclasses.asdict(self)
        data.pop("log")
        for key in (
            "random_kickoffs",
            "onside_kicking_teams",
            "kickoff_sequence",
            "drives",
            "tricks_by_half",
            "kickoff_states",
            "half_scores",
        ):
            data[key] = [list(item) if isinstance(item, tuple) else item for item in data[key]]
        return data


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
    game = Game.new(
        seed=seed,
        options=options,
        record_log=log,
        policies=tuple(p.name for p in chosen),
    )
    rngs = [LazyPolicyRng(seed, seat) for seat in SEATS]  # seeded on a policy's first draw
    choose = [p.choose for p in chosen]
    apply = game.apply_action
    decisions = 0
    while game.decision is not None:
        seat = game.actor
        apply(choose[seat](game, rngs[seat]))
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise GameStalled(f"Seed {seed}: no end after {MAX_DECISIONS} decisions.")
    return outcome_of(game)


def outcome_of(game: Game) -> GameOutcome:
    """Return the outcome of a finished game."""
    result = game.result
    if result is None:
        raise ValueError("The game is not over yet.")
    stats = game.stats
    drives = tuple(stats.drives)
    per_drive = {}
    for team in TEAMS:
        mine = [points for who, _, points, _ in drives if who == team]
        per_drive[team] = sum(mine) / len(mine) if mine else 0.0
    return GameOutcome(
        score=dict(result["score"]),
        winner=result["winner"],
        draw=result["winner"] is None,
        kickoffs={team: dict(kinds) for team, kinds in stats.kickoffs.items()},
        onside_attempts=dict(stats.onside_attempts),
        onside_successes=dict(stats.onside_successes),
        random_kickoffs=tuple(stats.random_kickoffs),
        onside_kicking_teams=tuple(team for team, onside in stats.random_kickoffs if onside),
        kickoff_sequence=tuple(stats.kickoff_sequence),
        drives=drives,
        points_per_drive=per_drive,
        touchdowns={t: {"2": two, "3": three} for t, (two, three) in stats.touchdowns.items()},
        kick_points=dict(stats.kick_points),
        kick_plays=dict(stats.kick_plays),
        interceptions=dict(stats.interceptions),
        skills_used=dict(stats.skills),
        tricks=sum(stats.tricks),
        tricks_by_half=(stats.tricks[0], stats.tricks[1]),
        seed=game.seed,
        unfinished_tricks=stats.unfinished_tricks,
        kickoff_states=tuple(stats.kickoff_states),
        half_scores=tuple(stats.half_scores),
        log=game.to_log() if game.event_count else None,
    )


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
