"""Playing whole matches: bot against bot, goldfish runs, and replaying a log.

`play_match` is what simulation batches call; with `log=False` it skips the log for speed and
still returns the summary counts a batch aggregates.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from play.engine.actions import Action, ChooseGoalKick, ChooseShot, HalftimeSwaps, PlayCards
from play.engine.cards import SIDES, Card, Side
from play.engine.match import (
    GOAL_KICK,
    HALFTIME,
    PLAY,
    SHOT,
    DeckPair,
    Match,
    MatchResult,
    SideDeck,
)
from play.engine.options import DEFAULT_OPTIONS, Options, is_first_edition_house
from play.engine.policies import Policy, get_policy, policy_rng

MAX_TURNS = 20_000  # a guard: with a back-pass limit no match comes near it


class MatchStalled(RuntimeError):
    """A bot-against-bot match ran past MAX_TURNS (possible only with max_back_passes=None)."""


class ReplayMismatch(ValueError):
    """Replaying a log's seed and choices did not give back the same log."""


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A finished match: its result plus the counts a batch simulation aggregates."""

    result: MatchResult
    goals_by_half: dict[str, tuple[int, int]]
    shots: dict[str, int]
    goals: dict[str, int]
    corner_kicks: dict[str, int]
    back_passes: dict[str, int]
    turns_by_half: tuple[int, int]
    deck_out_by_half: tuple[Side, Side]  # whose deck ran out to end each half
    pk: bool
    pk_score: dict[str, int] | None
    winner: Side
    decided_by: str
    log: dict | None = None

    def to_dict(self) -> dict:
        """Return the outcome as JSON-ready data (without the log)."""
        data = dataclasses.asdict(self)
        data.pop("log")
        data["result"] = self.result.to_dict()
        return data


def _policy(policy: str | Policy) -> Policy:
    return get_policy(policy) if isinstance(policy, str) else policy


def play_match(
    side_a: SideDeck,
    side_b: SideDeck,
    *,
    policy_a: str | Policy,
    policy_b: str | Policy,
    seed: int,
    options: Options = DEFAULT_OPTIONS,
    log: bool = True,
    first_edition_log: bool = False,
    decks: DeckPair | None = None,
) -> MatchOutcome:
    """Play a whole match between two policies and return its outcome.

    `first_edition_log` writes the log as the first edition did (tests of old logs only).
    `decks`: the pair's DeckPair, when the caller plays many matches of these decks.
    """
    policies = {"A": _policy(policy_a), "B": _policy(policy_b)}
    match = Match.new(
        dataclasses.replace(side_a, policy=policies["A"].name),
        dataclasses.replace(side_b, policy=policies["B"].name),
        seed=seed,
        options=options,
        record_log=log,
        first_edition_log=first_edition_log,
        decks=decks,
    )
    # A policy that never draws (`uses_rng = False`: greedy, passive) gets None instead of a
    # seeded rng: seeding one from its string costs a hash. Any other policy gets its own.
    rngs = {
        side: policy_rng(seed, side) if getattr(policies[side], "uses_rng", True) else None
        for side in SIDES
    }
    choose = {side: policies[side].choose for side in SIDES}
    _play_out(match, choose, rngs, seed)
    return outcome_of(match)


def _play_out(match: Match, choose: dict, rngs: dict, seed: int) -> None:
    """Apply the policies' choices until the match is over (a C loop on the compiled path)."""
    while match.decision is not None:
        side = match.actor
        match.apply_action(choose[side](match, rngs[side]))
        if match.turn > MAX_TURNS:
            raise MatchStalled(f"Seed {seed}: no end after {MAX_TURNS} turns in one half.")


def goldfish(
    side_a: SideDeck,
    side_b: SideDeck,
    *,
    policy_a: str | Policy = "greedy",
    seed: int,
    options: Options = DEFAULT_OPTIONS,
    log: bool = True,
) -> MatchOutcome:
    """Play a match against a `passive` side B (a goldfish run)."""
    return play_match(
        side_a, side_b, policy_a=policy_a, policy_b="passive", seed=seed, options=options, log=log
    )


def outcome_of(match: Match) -> MatchOutcome:
    """Return the outcome of a finished match."""
    result = match.result
    if result is None:
        raise ValueError("The match is not over yet.")
    stats = match.stats
    return MatchOutcome(
        result=result,
        goals_by_half={side: tuple(stats.goals_by_half[side]) for side in SIDES},
        shots=dict(stats.shots),
        goals=dict(result.goals),
        corner_kicks=dict(stats.corner_kicks),
        back_passes=dict(stats.back_passes),
        turns_by_half=tuple(stats.turns_by_half),
        deck_out_by_half=tuple(stats.deck_out),
        pk=result.pk is not None,
        pk_score=result.pk,
        winner=result.winner,
        decided_by=result.decided_by,
        log=match.to_log() if match.event_count else None,
    )


def side_decks_from_log(log: dict) -> tuple[SideDeck, SideDeck]:
    """Return the two decks a log describes (its `bench` lists, where present, too)."""
    cards = {card_id: Card.from_log(data) for card_id, data in log["cards"].items()}
    decks = []
    for side in SIDES:
        entry = log["sides"][side]
        goalkeeper = Card.from_log(entry["goalkeeper"])
        pk_goalkeeper = Card.from_log(entry["pk_goalkeeper"])
        decks.append(
            SideDeck(
                name=entry["name"],
                cards=tuple(cards[card_id] for card_id in entry["deck"]),
                goalkeeper=goalkeeper,
                pk_goalkeeper=None if pk_goalkeeper == goalkeeper else pk_goalkeeper,
                bench=tuple(cards[card_id] for card_id in entry.get("bench", ())),
                policy=entry["policy"],
            )
        )
    return decks[0], decks[1]


def _choice_from(event: dict, decision: str, side: Side) -> Action:
    """Return the action the event written after a decision records."""
    kind = event.get("type")
    if decision == PLAY and kind == "play":
        return PlayCards(side, tuple(event["cards"]))
    if decision == SHOT and kind == "kick" and event["choice"] in ("shoot", "back_pass"):
        return ChooseShot(side, event["choice"] == "shoot")
    if decision == GOAL_KICK and kind == "kick" and event["case"] == "goal_kick":
        return ChooseGoalKick(side, event["choice"])
    if decision == HALFTIME and kind == "halftime":
        return HalftimeSwaps(side, tuple(tuple(pair) for pair in event["swaps"][side]))
    raise ReplayMismatch(f"The match awaits {decision} by side {side}; the log has {event!r}.")


def replay(log: dict, *, verify: bool = True) -> Match:
    """Rebuild a match from a log's seed, decks, house rules and recorded choices.

    With `verify`, raise ReplayMismatch unless the rebuilt match writes the very same log.
    """
    side_a, side_b = side_decks_from_log(log)
    house = log["rules"]["house"]
    options = Options.from_house(house)  # a first-edition log: ends_phase, any_draw
    match = Match.new(
        side_a,
        side_b,
        seed=log["seed"],
        options=options,
        first_edition_log=is_first_edition_house(house),
    )
    events = log["events"]
    while match.decision is not None:
        at = match.event_count
        if at >= len(events):
            raise ReplayMismatch(f"The log ends while the match awaits {match.decision}.")
        match.apply_action(_choice_from(events[at], match.decision, match.actor))
    if verify:
        mine = match.to_log()
        if json.dumps(mine, sort_keys=False) != json.dumps(log, sort_keys=False):
            raise ReplayMismatch(_first_difference(mine, log))
    return match


def _first_difference(mine: dict, theirs: dict) -> str:
    for key in ("format", "version", "seed", "rules", "sides", "cards", "result"):
        if mine.get(key) != theirs.get(key):
            return f"The replayed log differs in {key!r}."
    for index, (a, b) in enumerate(zip(mine["events"], theirs["events"], strict=False)):
        if a != b:
            return f"The replayed log differs at event {index}: {a!r} != {b!r}."
    return "The replayed log has a different number of events."
