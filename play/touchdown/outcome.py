"""A game played out by bots at every seat, and its outcome: the counts a balance lab
aggregates. Policies come in as objects; resolving names (`greedy+adaptive`) is the runner's."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from play.touchdown.cards import SEATS, TEAMS
from play.touchdown.game import Game
from play.touchdown.options import Options
from play.touchdown.policies import LazyPolicyRng, Policy

MAX_DECISIONS = 10_000  # a guard: a game takes a few hundred at most


class GameStalled(RuntimeError):
    """A bot game made more than MAX_DECISIONS decisions (a bug, never a rule)."""


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


def play_out(options: Options, chosen: Sequence[Policy], seed: int, log: bool) -> GameOutcome:
    """Play a whole game with one policy per seat (seats 0..3) and return its outcome."""
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
