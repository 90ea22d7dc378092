"""Write paths of solo play: start, act, bot steps, take back, restart, rematch, autoplay.

A solo game is saved as its seed, both sides' engine snapshots and the list of actions applied
(the user's and the bot's, in order). `solo_match` rebuilds the engine match from exactly that,
so a reload or another device resumes the same position; there is no other state. Every write
locks the row (`select_for_update`) and checks the revision the page was showing, so two tabs
cannot interleave their actions.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from catalog.models import Card as CatalogCard
from decks.legality import engine_card
from decks.models import Deck
from play.engine import (
    Action,
    HalftimeSwaps,
    IllegalAction,
    IllegalDeck,
    Match,
    Options,
    action_from_dict,
    action_to_dict,
    get_policy,
)
from play.engine.match import HALFTIME
from play.engine.policies import LADDER
from play.errors import FieldErrors
from play.models import MatchLog, SoloGame, match_log_title
from play.simulations.core import side_deck
from play.simulations.sides import goldfish_deck, latest_snapshot, prebuilt_decks

USER = "A"  # the user always plays side A; the bot side B
BOT = "B"
BOT_POLICIES = LADDER  # a bot game can be played against any rung, weakest first
DEFAULT_BOT_POLICY = "greedy"
AUTOPLAY_POLICY = "greedy"
MAX_AUTOPLAY_ACTIONS = 20_000  # a guard; a half with the back-pass limit is far shorter
GOLDFISH_NAME = "Goldfish"


class SoloError(ValueError):
    """A request the game refuses; the message is meant for the player."""


class SoloInvalid(FieldErrors, SoloError):
    """Bad start parameters: `errors` maps each form field to its messages."""


class StaleGame(SoloError):
    """The page acted on an older position (another tab or device moved on)."""


class GameBroken(SoloError):
    """The saved actions no longer replay (the engine's rules changed since they were saved)."""


@dataclass
class Position:
    """A game and its rebuilt match; `marks[i]` is the event count before action i."""

    game: SoloGame
    match: Match
    marks: list[int]
    changed: bool = False  # a write that must bump the revision though no action was added

    @property
    def last_user_event(self) -> int:
        """Return the index of the first event of the user's last decision (0 if none)."""
        for index in range(len(self.game.actions) - 1, -1, -1):
            if self.game.actions[index]["side"] == USER:
                return self.marks[index]
        return 0

    @property
    def waiting_for_bot(self) -> bool:
        return self.match.current_side() == BOT


# ----- rebuilding ---------------------------------------------------------------------------


def _event_count(match: Match) -> int:
    return match.event_count  # without copying the events


def solo_match(game: SoloGame) -> Position:
    """Rebuild the game's match from its seed, sides and saved actions."""
    side_a = dataclasses.replace(side_deck(game.sides[0]), policy="human")
    side_b = dataclasses.replace(side_deck(game.sides[1]), policy=game.opponent_policy)
    try:
        match = Match.new(side_a, side_b, seed=game.seed, options=Options(**game.options))
        marks = []
        for data in game.actions:
            marks.append(_event_count(match))
            match.apply_action(action_from_dict(data))
    except (IllegalAction, IllegalDeck, ValueError) as exc:
        raise GameBroken(
            f"This game's saved moves no longer replay with the current rules engine ({exc}). "
            "Restart it to play on."
        ) from exc
    return Position(game, match, marks)


def bot_action(game: SoloGame, match: Match) -> Action:
    """Return the bot's choice now; its randomness depends on the seed and the ply only."""
    rng = random.Random(f"elevenstars-solo:{game.seed}:{match.actor}:{len(match.history)}")
    policy = game.opponent_policy if match.actor == BOT else AUTOPLAY_POLICY
    return get_policy(policy).choose(match, rng)


# ----- starting -----------------------------------------------------------------------------


def _snapshot(deck: Deck, field: str, errors: dict) -> tuple:
    return latest_snapshot(deck, field, errors, verb="played")


def _with_goalkeeper(snapshot: dict, card: CatalogCard) -> dict:
    """Return the snapshot with this goalkeeper (also in the shootout, R-PK-1)."""
    data = engine_card(card).to_log()
    return {
        **snapshot,
        "name": GOLDFISH_NAME,
        "goalkeeper": card.id,
        "pk_goalkeeper": None,
        "card_data": {**snapshot["card_data"], card.id: data},
    }


def bot_default_deck(*, avoid: Deck | None = None) -> Deck | None:
    """Return the prebuilt deck a bot plays when none is chosen (another one than `avoid`)."""
    decks = list(prebuilt_decks()[:2])
    others = [deck for deck in decks if avoid is None or deck.pk != avoid.pk]
    return (others or decks or [None])[0]


def solo_start(
    *,
    owner,
    deck: Deck,
    mode: str,
    opponent_deck: Deck | None = None,
    policy: str = DEFAULT_BOT_POLICY,
    goalkeeper: CatalogCard | None = None,
    seed: int | None = None,
    options: dict | None = None,
) -> Position:
    """Start a game of the deck's latest version against a goldfish or a bot."""
    errors: dict[str, list[str]] = {}
    version, snapshot_a = _snapshot(deck, "deck", errors)
    opponent_version = None
    snapshot_b: dict = {}
    if mode == SoloGame.Mode.GOLDFISH:
        policy = "passive"
        opponent_deck = goldfish_deck()
        if opponent_deck is None:
            errors.setdefault("deck", []).append("No sample deck is loaded for the goldfish.")
        else:
            opponent_version, snapshot_b = _snapshot(opponent_deck, "goalkeeper", errors)
        if goalkeeper is not None and goalkeeper.kind != CatalogCard.Kind.GOALKEEPER:
            errors.setdefault("goalkeeper", []).append(f"{goalkeeper.id} is not a goalkeeper.")
        if snapshot_b and goalkeeper is not None and "goalkeeper" not in errors:
            snapshot_b = _with_goalkeeper(snapshot_b, goalkeeper)
        elif snapshot_b:
            snapshot_b = {**snapshot_b, "name": GOLDFISH_NAME}
    elif mode == SoloGame.Mode.BOT:
        if policy not in BOT_POLICIES:
            errors["policy"] = [f"Choose one of {', '.join(BOT_POLICIES)}."]
        if opponent_deck is None:
            opponent_deck = bot_default_deck(avoid=deck)
        if opponent_deck is None:
            errors.setdefault("opponent", []).append(
                "No prebuilt deck is loaded for the bot; choose the bot's deck."
            )
        else:
            opponent_version, snapshot_b = _snapshot(opponent_deck, "opponent", errors)
        goalkeeper = None
    else:
        errors["mode"] = ["Choose goldfish or a bot."]
    if seed is not None and not 0 <= seed < 2**63:
        errors["seed"] = ["The seed must be a whole number from 0 to 2^63 - 1."]
    try:
        Options(**(options or {}))
    except (TypeError, ValueError) as exc:
        errors["options"] = [str(exc)]
    if errors:
        raise SoloInvalid(errors)
    game = SoloGame.objects.create(
        owner=owner,
        mode=mode,
        deck_version=version,
        opponent_version=opponent_version,
        opponent_policy=policy,
        goalkeeper=goalkeeper,
        seed=seed if seed is not None else random.SystemRandom().getrandbits(62),
        options=options or {},
        sides=[snapshot_a, snapshot_b],
    )
    return solo_match(game)


# ----- writing ------------------------------------------------------------------------------


def _write(game: SoloGame, revision: int | None, change: Callable[[SoloGame], Position]):
    """Lock the game, check the revision, apply `change` and save; return the new position.

    `change` gets the locked row and returns the new position (usually by rebuilding the
    match and applying actions to it); a write that changes nothing saves nothing.
    """
    with transaction.atomic():
        locked = SoloGame.objects.select_for_update().get(pk=game.pk)
        if revision is not None and locked.revision != revision:
            raise StaleGame(
                "This game moved on in another tab or device; here is the current position."
            )
        before = list(locked.actions)
        position = change(locked)
        game = position.game
        if game.actions == before and not position.changed:
            return position
        game.revision += 1
        if position.match.is_terminal() and game.status != SoloGame.Status.FINISHED:
            game.status = SoloGame.Status.FINISHED
            game.log = _save_log(game, position.match)
        game.save()
    return position


def _save_log(game: SoloGame, match: Match) -> MatchLog:
    log = match.to_log()
    return MatchLog.objects.create(
        owner=game.owner,
        source=MatchLog.Source.SOLO,
        title=match_log_title(log),
        deck_version=game.deck_version,
        log=log,
    )


def _apply(position: Position, action: Action) -> None:
    position.marks.append(_event_count(position.match))
    position.match.apply_action(action)
    position.game.actions = [*position.game.actions, action_to_dict(action)]


def _playing(position: Position) -> None:
    if position.game.is_finished or position.match.is_terminal():
        raise SoloError("This game is over; restart it to play again.")


def solo_act(*, game: SoloGame, revision: int | None, action: Action) -> Position:
    """Apply the user's decision; raise SoloError (with the engine's reason) if illegal."""

    def change(locked: SoloGame) -> Position:
        position = solo_match(locked)
        _playing(position)
        if position.match.current_side() != USER or action.side != USER:
            raise SoloError("It is not your decision now; wait for the opponent.")
        try:
            _apply(position, action)
        except IllegalAction as exc:
            raise SoloError(str(exc)) from exc
        return position

    return _write(game, revision, change)


def solo_bot_step(*, game: SoloGame, revision: int | None, all_steps: bool = False) -> Position:
    """Apply the bot's next decision (or all of them until the user's turn); else nothing."""

    def change(locked: SoloGame) -> Position:
        position = solo_match(locked)
        match = position.match
        while match.current_side() == BOT:
            _apply(position, bot_action(position.game, match))
            if not all_steps:
                break
        return position

    return _write(game, revision, change)


def solo_undo(*, game: SoloGame, revision: int | None) -> Position:
    """Take back the user's last decision and every bot action after it."""

    def change(locked: SoloGame) -> Position:
        actions = locked.actions
        users = [i for i, data in enumerate(actions) if data["side"] == USER]
        if not users:
            raise SoloError("There is no decision of yours to take back.")
        locked.actions = actions[: users[-1]]
        # After full time too: the game plays on from that decision. Its saved log stays in
        # the user's replays (a finished game worth keeping); a new finish saves a new one.
        locked.status = SoloGame.Status.PLAYING
        locked.log = None
        return solo_match(locked)

    return _write(game, revision, change)


def solo_restart(*, game: SoloGame, revision: int | None, new_shuffle: bool) -> Position:
    """Start the game again from the first decision, with the same or a new shuffle."""

    def change(restarted: SoloGame) -> Position:
        restarted.actions = []
        restarted.status = SoloGame.Status.PLAYING
        restarted.log = None
        if new_shuffle:
            restarted.seed = random.SystemRandom().getrandbits(62)
        position = solo_match(restarted)
        position.changed = True  # a restart at ply 0 still moves the revision on
        return position

    return _write(game, revision, change)


def solo_rematch(*, game: SoloGame) -> Position:
    """Start a new game with this one's shuffle, decks, opponent and options."""
    again = SoloGame.objects.create(
        owner=game.owner,
        mode=game.mode,
        deck_version=game.deck_version,
        opponent_version=game.opponent_version,
        opponent_policy=game.opponent_policy,
        goalkeeper=game.goalkeeper,
        seed=game.seed,
        options=dict(game.options),
        sides=list(game.sides),
    )
    return solo_match(again)


def solo_autoplay_half(*, game: SoloGame, revision: int | None) -> Position:
    """Play both sides (the user's with the greedy policy) to the end of this half."""

    def change(locked: SoloGame) -> Position:
        position = solo_match(locked)
        _playing(position)
        match = position.match
        half = match.half
        if match.decision == HALFTIME:
            raise SoloError("The half is over; choose your halftime swaps.")
        for _ in range(MAX_AUTOPLAY_ACTIONS):
            if match.decision is None or match.decision == HALFTIME or match.half != half:
                break
            _apply(position, bot_action(position.game, match))
        return position

    return _write(game, revision, change)


def halftime_options(match: Match) -> list[HalftimeSwaps]:
    """Return the user's legal halftime choices (no swap first, then single swaps)."""
    if match.decision != HALFTIME or match.actor != USER:
        return []
    return [a for a in match.legal_actions() if isinstance(a, HalftimeSwaps)]
