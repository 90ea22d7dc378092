"""Kick-off strategies as team policies: a card-playing bot plus a rule for TD-KICK-1's choice.

A team policy is named `<bot>+<strategy>` (e.g. `greedy+adaptive`); the plain bot name is the
bot's own choice. The strategies:

- `own`: the bot's own kick-off rule (`random`: a coin; `greedy`: its field-value formula with the
  variant's kick-off parameters);
- `normal`: always a normal kick; `random`: always a random kick (a kick-off skill that raises
  the floor is used first);
- `adaptive`: decides from a table re-measured for the variant, the effect set and the bot in
  play: `kickoff_table(options, bot)` plays `ADAPTIVE_GAMES` seeded calibration games in which
  every kick-off is a coin flip, and records, per stage of the half, the kicking team's points
  margin from the kick-off to the end of the half after each choice. It kicks random where that
  margin is higher.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from play.touchdown.actions import Action, KickOff, UseSkill
from play.touchdown.cards import TEAMS
from play.touchdown.game import KICKOFF_CHOICE, Game
from play.touchdown.options import Options
from play.touchdown.outcome import play_out
from play.touchdown.policies import POLICIES, Policy
from play.touchdown.search import SearchPolicy

# The search bot sits beside random and greedy; it is built on greedy, so policies.py cannot
# list it itself (search.py imports it).
POLICIES.setdefault("search", SearchPolicy())
# The bot whose games measure a bot's adaptive table: the search bot rolls out with greedy, and
# 1,500 calibration games of search at every seat would take minutes.
CALIBRATED_WITH = {"search": "greedy"}

KICKOFF_STRATEGIES = ("own", "normal", "random", "adaptive")
ADAPTIVE_GAMES = 1500  # calibration games per (variant, effect set, bot)
CALIBRATION_SEED = 1_000_000_000  # calibration seeds start here, apart from any lab sample
STAGES = ("early", "middle", "late")  # the kicker's cards in hand: 7-9, 4-6, 0-3


def stage_of(cards_in_hand: int) -> int:
    """Return the index in STAGES of a kick-off taken with this many cards in the kicker's hand."""
    return 0 if cards_in_hand >= 7 else 1 if cards_in_hand >= 4 else 2


@dataclass(frozen=True, slots=True)
class KickoffTable:
    """Measured kick-off values: per stage, (kicking team's mean margin to the end of the
    half, kick-offs measured) for a normal and for a random kick."""

    normal: tuple[tuple[float, int], ...]
    random: tuple[tuple[float, int], ...]
    games: int

    def gain(self, stage: int) -> float:
        """Return how much more a random kick than a normal one gives the kicking team."""
        (normal, n), (chance, r) = self.normal[stage], self.random[stage]
        if n < 50 or r < 50:  # too few at this stage: use every stage together
            return _pooled(self.random) - _pooled(self.normal)
        return chance - normal

    def to_dict(self) -> dict:
        return {
            "games": self.games,
            "stages": [
                {
                    "stage": name,
                    "normal": {"margin": self.normal[i][0], "kickoffs": self.normal[i][1]},
                    "random": {"margin": self.random[i][0], "kickoffs": self.random[i][1]},
                    "gain": self.gain(i),
                }
                for i, name in enumerate(STAGES)
            ],
        }


def _pooled(rows: tuple[tuple[float, int], ...]) -> float:
    total = sum(n for _, n in rows)
    return sum(mean * n for mean, n in rows) / total if total else 0.0


class _Explorer:
    """The bot, with every kick-off decided by a coin from the policy's own random source."""

    def __init__(self, bot: Policy) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, game: Game, rng: random.Random) -> Action:
        if game.decision == KICKOFF_CHOICE:
            return KickOff(game.actor, "random" if rng.random() < 0.5 else "normal")
        return self.bot.choose(game, rng)


_TABLES: dict[tuple[Options, str, int], KickoffTable] = {}


def kickoff_table(options: Options, bot: str = "greedy", games: int | None = None) -> KickoffTable:
    """Return the adaptive strategy's table for this variant and bot (measured once, cached),
    from `games` calibration games (ADAPTIVE_GAMES unless given)."""
    games = ADAPTIVE_GAMES if games is None else games
    key = (options, bot, games)
    table = _TABLES.get(key)
    if table is None:
        table = _measure(options, POLICIES[bot], games)
        if len(_TABLES) > 256:
            _TABLES.clear()
        _TABLES[key] = table
    return table


def _measure(options: Options, bot: Policy, games: int) -> KickoffTable:
    if options.kickoffs != "choice":
        options = options.replace(kickoffs="choice")
    explorer = _Explorer(bot)
    sums = {"normal": [0.0] * 3, "random": [0.0] * 3}
    counts = {"normal": [0] * 3, "random": [0] * 3}
    for number in range(games):
        outcome = play_out(options, [explorer] * 4, CALIBRATION_SEED + number, log=False)
        for (team, kind, _), (half, cards, mine, theirs) in zip(
            outcome.kickoff_sequence, outcome.kickoff_states, strict=True
        ):
            final = outcome.half_scores[half - 1]
            index = TEAMS.index(team)
            margin = (final[index] - mine) - (final[1 - index] - theirs)
            stage = stage_of(cards)
            sums[kind][stage] += margin
            counts[kind][stage] += 1

    def rows(kind: str) -> tuple[tuple[float, int], ...]:
        return tuple(
            (sums[kind][s] / counts[kind][s] if counts[kind][s] else 0.0, counts[kind][s])
            for s in range(3)
        )

    return KickoffTable(normal=rows("normal"), random=rows("random"), games=games)


def _floor_skill(game: Game, seat: int) -> bool:
    """Return whether the kicker's kick-off skill would raise this random kick's floor."""
    if not game.can_use_skill(seat):
        return False
    return any(
        step.kind == "kick_minimum" and step.get("ball") > game._kick_minimum
        for step in game.heroes[seat].skill.steps
    )


class TeamPolicy:
    """A bot that plays the cards and a kick-off strategy that decides TD-KICK-1's choice."""

    def __init__(self, bot: Policy, strategy: str) -> None:
        if strategy not in KICKOFF_STRATEGIES:
            raise ValueError(
                f"Unknown kick-off strategy {strategy!r}; choose one of "
                f"{', '.join(KICKOFF_STRATEGIES)}."
            )
        self.bot = bot
        self.strategy = strategy
        self.name = bot.name if strategy == "own" else f"{bot.name}+{strategy}"
        self._last: tuple[Options, KickoffTable] | None = None

    def choose(self, game: Game, rng: random.Random) -> Action:
        if game.decision != KICKOFF_CHOICE or self.strategy == "own":
            return self.bot.choose(game, rng)
        seat = game.actor
        kind = self.kickoff_kind(game, seat)
        if kind == "random" and _floor_skill(game, seat):
            return UseSkill(seat)
        return KickOff(seat, kind)

    def kickoff_kind(self, game: Game, seat: int) -> str:
        """Return "normal" or "random" for this kick-off."""
        if self.strategy != "adaptive":
            return self.strategy
        table = self.table(game.options)
        return "random" if table.gain(stage_of(len(game.hands[seat]))) > 0 else "normal"

    def table(self, options: Options) -> KickoffTable:
        last = self._last
        if last is not None and last[0] is options:  # the same variant as the last game
            return last[1]
        table = kickoff_table(options, CALIBRATED_WITH.get(self.bot.name, self.bot.name))
        self._last = (options, table)
        return table


_TEAM_POLICIES: dict[str, TeamPolicy] = {}


def team_policy(name: str) -> TeamPolicy:
    """Return the team policy `<bot>` or `<bot>+<strategy>` (ValueError naming the choices)."""
    policy = _TEAM_POLICIES.get(name)
    if policy is None:
        bot, _, strategy = name.partition("+")
        if bot not in POLICIES:
            raise ValueError(f"Unknown policy {bot!r}; choose one of {', '.join(POLICIES)}.")
        policy = TeamPolicy(POLICIES[bot], strategy or "own")
        _TEAM_POLICIES[name] = policy
    return policy


def team_policy_names(bots: tuple[str, ...] = ("greedy", "random")) -> list[str]:
    """Return every team policy name for these bots."""
    return [
        bot if strategy == "own" else f"{bot}+{strategy}"
        for bot in bots
        for strategy in KICKOFF_STRATEGIES
    ]


def get_policy(name: str) -> Policy:
    """Return the policy with this name: a bot, or `<bot>+<kick-off strategy>`."""
    if "+" in name:
        return team_policy(name)
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"Unknown policy {name!r}; choose one of {', '.join(POLICIES)}.") from None
