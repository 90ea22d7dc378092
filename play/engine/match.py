"""One Eleven Stars match as a state machine, in the manner of OpenSpiel.

`Match.new` shuffles, tosses the coin and runs every automatic step (draws, kicks that need
no choice, judgments, discards, the PK shootout) until a side must decide. A decision is a
typed action (`actions.py`); `legal_actions()` lists them, `apply_action()` takes one and runs
on to the next decision. All chance comes from one seeded `Chance`, in a fixed order, so a
match is a pure function of its decks, options, seed and the actions applied.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice, product
from typing import NamedTuple

from play.engine.actions import (
    GOAL_KICK_ZONES,
    Action,
    ChooseGoalKick,
    ChooseShot,
    HalftimeSwaps,
    PlayCards,
)
from play.engine.cards import OTHER, SIDES, Card, Side, other
from play.engine.chance import Chance
from play.engine.effects import compile_effect
from play.engine.events import NO_LOG, EventLog, ids, top_first
from play.engine.judgment import keep_outcome, play_end_reason, shot_outcome
from play.engine.legality import Problem, deck_problems
from play.engine.options import (
    DEFAULT_OPTIONS,
    GOAL_KICK_DRAW,
    HAND_SIZE,
    MAX_PLAYER_CARDS_PER_TURN,
    SHOT_DRAW,
    TIMINGS_PER_SIDE,
    Options,
    rules_object,
)
from play.engine.pk import pk_shootout

# R-FIELD-1: zones 0..4 from A's goal to B's goal.
PENALTY_ZONE = {"A": 0, "B": 4}
MIDDLE_ZONE = {"A": 1, "B": 3}
CENTER_ZONE = 2
TOWARD = {"A": -1, "B": 1}  # one zone in the direction of an arrow naming this side's goal
LAST_TIMING = 2 * TIMINGS_PER_SIDE

# What the match is waiting for.
HALFTIME = "halftime_swaps"
GOAL_KICK = "goal_kick"
SHOT = "shot"
PLAY = "play_cards"


class IllegalDeck(ValueError):
    """A side's deck breaks a construction rule; `problems` lists every broken rule."""

    def __init__(self, side: Side, problems: list[Problem]) -> None:
        self.side = side
        self.problems = problems
        super().__init__(
            f"Side {side}'s deck is not legal: " + " ".join(p.message for p in problems)
        )


class IllegalAction(ValueError):
    """An action the match does not accept now; the message says why."""


@dataclass(frozen=True, slots=True)
class SideDeck:
    """What one side brings to a match: its 60 deck cards (one entry per copy) and the rest."""

    name: str
    cards: tuple[Card, ...]
    goalkeeper: Card
    pk_goalkeeper: Card | None = None
    bench: tuple[Card, ...] = ()
    policy: str = "human"

    def problems(self) -> list[Problem]:
        """Return the deck's construction problems (R-DECK-1..5, R-PK-1)."""
        return deck_problems(
            deck=[(card, 1) for card in self.cards],
            bench=[(card, 1) for card in self.bench],
            goalkeeper=self.goalkeeper,
            pk_goalkeeper=self.pk_goalkeeper,
        )

    @property
    def shootout_goalkeeper(self) -> Card:
        """Return the goalkeeper for a shootout."""
        return self.pk_goalkeeper or self.goalkeeper  # R-PK-1


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended."""

    goals: dict[str, int]
    pk: dict[str, int] | None
    winner: Side
    decided_by: str  # "goals", "pk" or "coin_toss"

    def to_dict(self) -> dict:
        """Return the log's `result` object."""
        return {
            "goals": dict(self.goals),
            "pk": dict(self.pk) if self.pk is not None else None,
            "winner": self.winner,
            "decided_by": self.decided_by,
        }


class Ball(NamedTuple):
    zone: int
    arrow: Side  # the side whose goal the ball is heading to (R-FIELD-2)


class Totals(NamedTuple):
    keep: int
    shoot: int
    defense: int


@dataclass(slots=True)
class MatchStats:
    """Counters for batch simulations, kept whether or not the match writes a log."""

    goals_by_half: dict[str, list[int]] = field(default_factory=lambda: {"A": [0, 0], "B": [0, 0]})
    shots: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    corner_kicks: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    back_passes: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    turns_by_half: list[int] = field(default_factory=lambda: [0, 0])
    deck_out: list[Side | None] = field(default_factory=lambda: [None, None])


class _SideState:
    """The mutable cards of one side. `deck` keeps its top card last, for cheap draws."""

    __slots__ = (
        "side",
        "owned",
        "deck",
        "hand",
        "discard",
        "in_play",
        "bench",
        "goalkeeper",
        "pk_goalkeeper",
        "player_cards",
        "keep",
        "shoot",
        "defense",
        "swaps",
        "opponent",
    )

    def __init__(self, side: Side, deck: SideDeck, owned: list, bench: list) -> None:
        """`owned` and `bench` hold `deck`'s cards as the match's own objects (`_canonical`)."""
        self.side = side
        self.opponent: _SideState = self  # linked to the other side's state by Match
        self.owned = owned  # the 60 cards, wherever they are
        self.deck: list[Card] = []
        self.hand: list[Card] = []
        self.discard: list[Card] = []
        self.in_play: list[Card] = []
        self.bench = bench
        self.goalkeeper = deck.goalkeeper
        self.pk_goalkeeper = deck.shootout_goalkeeper
        self.player_cards = 0
        self.keep = self.shoot = self.defense = 0
        self.swaps: tuple[tuple[str, str], ...] = ()

    def copy(self) -> _SideState:
        """Return a copy with its own card lists (`opponent` still to be linked)."""
        new = _SideState.__new__(_SideState)
        new.side = self.side
        new.opponent = self.opponent
        new.owned = list(self.owned)
        new.deck = list(self.deck)
        new.hand = list(self.hand)
        new.discard = list(self.discard)
        new.in_play = list(self.in_play)
        new.bench = list(self.bench)
        new.goalkeeper = self.goalkeeper
        new.pk_goalkeeper = self.pk_goalkeeper
        new.player_cards = self.player_cards
        new.keep = self.keep
        new.shoot = self.shoot
        new.defense = self.defense
        new.swaps = self.swaps
        return new


def _deck_parts(deck: SideDeck) -> tuple:
    """Return what a deck's legality and card table depend on (all immutable values)."""
    return (deck.cards, deck.bench, deck.goalkeeper, deck.pk_goalkeeper)


def _card_table(*decks: SideDeck) -> dict[str, Card]:
    """Return every card of the decks by id, in id order; refuse two definitions of one id."""
    table: dict[str, Card] = {}
    for deck in decks:
        pk = (deck.pk_goalkeeper,) if deck.pk_goalkeeper else ()
        for card in (*deck.cards, *deck.bench, deck.goalkeeper, *pk):
            known = table.setdefault(card.id, card)
            if known is not card and known != card:
                raise ValueError(f"Card id {card.id} is given two different definitions.")
    return dict(sorted(table.items()))


class DeckPair:
    """Two decks checked and laid out once, for every match played between them.

    Building one refuses an illegal deck (IllegalDeck) or two definitions of one card id
    (ValueError), and works out what each match of the pair reads: the card table by id, the
    play phase's facts of each card, each deck and bench as the table's card objects, and,
    when first asked, each side's legal halftime swaps. A caller that plays many matches of
    one pair (a simulation chunk, a ladder deal, a benchmark) builds it once and passes it to
    each match; `Match.new` builds one itself when given none. Cards are immutable, so
    nothing in it goes stale.
    """

    __slots__ = ("parts", "cards", "facts", "canonical", "swap_options")

    def __init__(self, side_a: SideDeck, side_b: SideDeck) -> None:
        for side, deck in zip(SIDES, (side_a, side_b), strict=True):
            problems = deck.problems()
            if problems:
                raise IllegalDeck(side, problems)
        table = _card_table(side_a, side_b)
        self.parts = (_deck_parts(side_a), _deck_parts(side_b))
        self.cards = table
        self.facts = _card_facts(table)
        # A's deck, A's bench, B's deck, B's bench, as the table's objects (_canonical).
        self.canonical = tuple(
            _canonical(table, cards)
            for cards in (side_a.cards, side_a.bench, side_b.cards, side_b.bench)
        )
        # Each side's legal halftime swaps, filled in by the first match that asks
        # (Match._swap_options): {side: (the 60 cards, the bench, the options)}.
        self.swap_options: dict[str, tuple] = {}

    def fits(self, side_a: SideDeck, side_b: SideDeck) -> bool:
        """Return whether the pair was built from these decks' cards (equal cards fit)."""
        return self.parts == (_deck_parts(side_a), _deck_parts(side_b))


# What the play phase reads of a card, by id: (0 the card, 1 whether it is a player, 2 whether
# it is an event, 3 keep, 4 shoot, 5 defense, 6 its compiled effect or None), worked out once
# per card table instead of reading the card's fields at every timing.


def _card_facts(table: dict[str, Card]) -> dict[str, tuple]:
    return {
        card_id: (
            card,
            card.kind == "player",
            card.kind == "event",
            card.keep,
            card.shoot,
            card.defense,
            compile_effect(card.effect) if card.kind == "event" else None,
        )
        for card_id, card in table.items()
    }


def _canonical(table: dict[str, Card], cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Return the cards as the table's objects: every card of an id in a match is one object
    (they are all equal, see _card_table), so the play phase finds a card by identity."""
    return tuple([table[card.id] for card in cards])


def _id_counts(cards: list) -> dict[str, int]:
    """Return how many of each id the cards hold."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.id] = counts.get(card.id, 0) + 1
    return counts


def _same_objects(kept: list, now: list) -> bool:
    """Return whether two lists hold the very same objects in the same order."""
    return len(kept) == len(now) and all(map(operator.is_, kept, now))


def _sub_multisets(counts: list[tuple[str, int]], limit: int) -> list[tuple[str, ...]]:
    """Return every sub-multiset of the counted ids with at most `limit` members."""
    result: list[tuple[str, ...]] = [()]
    for card_id, count in counts:
        result = [
            chosen + (card_id,) * n
            for chosen in result
            for n in range(min(count, limit - len(chosen)) + 1)
        ]
    return result


def _iter_sub_multisets(counts: list[tuple[str, int]]) -> Iterator[tuple[str, ...]]:
    """Yield every sub-multiset of the counted ids, the empty one first, without a list."""
    if not counts:
        yield ()
        return
    (card_id, count), rest = counts[0], counts[1:]
    for tail in _iter_sub_multisets(rest):
        for n in range(count + 1):
            yield (card_id,) * n + tail


class Match:
    """The state of one match; see the module docstring."""

    def __init__(
        self,
        side_a: SideDeck,
        side_b: SideDeck,
        *,
        seed: int,
        options: Options = DEFAULT_OPTIONS,
        chance: Chance | None = None,
        record_log: bool = True,
        first_edition_log: bool = False,
        decks: DeckPair | None = None,
    ) -> None:
        if decks is None:
            decks = DeckPair(side_a, side_b)
        elif not decks.fits(side_a, side_b):
            raise ValueError("The deck pair was built from other decks.")
        canonical = decks.canonical
        self.options = options
        self.seed = seed
        self.side_decks: dict[str, SideDeck] = {"A": side_a, "B": side_b}
        self.cards = dict(decks.cards)
        self._facts = decks.facts  # shared by the matches of the pair, never changed
        self._swap_memo = decks.swap_options  # shared too: filled once, then only read
        self._chance = chance if chance is not None else Chance(seed)
        # The two sides' states, held directly for the hot path and by side for the rest.
        a = self._a = _SideState("A", side_a, list(canonical[0]), list(canonical[1]))
        b = self._b = _SideState("B", side_b, list(canonical[2]), list(canonical[3]))
        a.opponent = b
        b.opponent = a
        self._s = {"A": a, "B": b}
        self._log = EventLog(forced_field=not first_edition_log) if record_log else NO_LOG
        self._events: list[dict] | None = self._log.events  # None without a log
        self._first_edition_log = first_edition_log
        self._empty_timing_passes = options.empty_timing == "passes"  # R-PLAY-4
        self._draw_phase_deck_out = options.deck_out == "draw_phase"  # R-DRAW-2
        self.history: list[Action] = []
        self.stats = MatchStats()
        self.result: MatchResult | None = None
        self.half = 1
        self.turn = 0
        self.offense: Side = "A"
        self.pending: str | None = "kickoff"
        self.ball_zone: int | None = None
        self.ball_arrow: Side | None = None
        self.score = {"A": 0, "B": 0}
        self.timing = 0
        self.shot = False
        self.decision: str | None = None
        self.actor: Side | None = None
        self._back_passes = 0
        self._deck_out_side: Side | None = None
        for state in (a, b):  # chance 1 and 2: A's deck, then B's
            state.deck = self._chance.shuffle(state.owned)[::-1]
        # Only `to_log` reads the first decks (it needs a log), so a batch match skips them.
        self._initial_decks = (
            {"A": top_first(a.deck), "B": top_first(b.deck)} if record_log else None
        )
        self._first_kickoff = self._chance.coin_toss()  # chance 3, R-MATCH-4
        self._start_half(1, self._first_kickoff)

    @classmethod
    def new(
        cls,
        side_a: SideDeck,
        side_b: SideDeck,
        *,
        seed: int,
        options: Options = DEFAULT_OPTIONS,
        chance: Chance | None = None,
        record_log: bool = True,
        first_edition_log: bool = False,
        decks: DeckPair | None = None,
    ) -> Match:
        """Start a match; raise IllegalDeck if either deck breaks a construction rule.

        `chance` replaces the seeded source of shuffles and coin tosses (tests stack decks
        with it); `record_log=False` skips the log for fast batch simulation.
        `first_edition_log=True` writes the log as the first edition did (no `forced` on kick
        events, the first edition's `rules.house`); `replay` uses it for first-edition logs.
        `decks` is the pair's `DeckPair`, built once by a caller that plays many matches of
        these decks (ValueError if it was built from other decks).
        """
        if first_edition_log and options.edition != 1:
            raise ValueError("A first-edition log needs the first edition's rules.")
        return cls(
            side_a,
            side_b,
            seed=seed,
            options=options,
            chance=chance,
            record_log=record_log,
            first_edition_log=first_edition_log,
            decks=decks,
        )

    # ----- reading the state -------------------------------------------------------------

    def current_side(self) -> Side | None:
        """Return the side that must decide now, or None when the match is over."""
        return self.actor if self.decision is not None else None

    def is_terminal(self) -> bool:
        """Return whether the match is over."""
        return self.result is not None

    @property
    def defense(self) -> Side:
        return OTHER[self.offense]

    @property
    def ball(self) -> Ball | None:
        """Return the ball's zone and arrow, or None before a half's kick-off."""
        if self.ball_zone is None:
            return None
        return Ball(self.ball_zone, self.ball_arrow)

    def hand(self, side: Side) -> tuple[Card, ...]:
        return tuple(self._s[side].hand)

    def in_play(self, side: Side) -> tuple[Card, ...]:
        """Return the cards the side has used this turn."""
        return tuple(self._s[side].in_play)

    def deck_count(self, side: Side) -> int:
        return len(self._s[side].deck)

    def discard_count(self, side: Side) -> int:
        return len(self._s[side].discard)

    def discard(self, side: Side) -> tuple[Card, ...]:
        return tuple(self._s[side].discard)

    def bench(self, side: Side) -> tuple[Card, ...]:
        return tuple(self._s[side].bench)

    def owned_cards(self, side: Side) -> tuple[Card, ...]:
        """Return the side's 60 deck cards, wherever they are now."""
        return tuple(self._s[side].owned)

    def goalkeeper(self, side: Side) -> Card:
        return self._s[side].goalkeeper

    def totals(self, side: Side) -> Totals:
        """Return the side's keep, shoot and defense totals in this play phase."""
        state = self._s[side]
        return Totals(state.keep, state.shoot, state.defense)

    def player_cards_used(self, side: Side) -> int:
        """Return how many player cards the side has used this turn (R-PLAY-2)."""
        return self._s[side].player_cards

    def back_passes_in_a_row(self) -> int:
        return self._back_passes

    def snapshot(self, viewer: Side | None = None) -> dict:
        """Return a JSON-ready view of the state; `viewer` sees only its own hand's cards."""
        sides = {}
        for side in SIDES:
            state = self._s[side]
            shown = viewer is None or viewer == side
            sides[side] = {
                "hand": ids(state.hand) if shown else None,
                "hand_count": len(state.hand),
                "deck_count": len(state.deck),
                "discard_count": len(state.discard),
                "in_play": ids(state.in_play),
                "player_cards_used": state.player_cards,
                "totals": {"keep": state.keep, "shoot": state.shoot, "defense": state.defense},
                "goalkeeper": state.goalkeeper.id,
                "pk_goalkeeper": state.pk_goalkeeper.id,
            }
        ball = self.ball
        return {
            "half": self.half,
            "turn": self.turn,
            "offense": self.offense,
            "pending": self.pending,
            "ball": None if ball is None else {"zone": ball.zone, "arrow": ball.arrow},
            "shot": self.shot,
            "timing": self.timing,
            "score": dict(self.score),
            "decision": self.decision,
            "actor": self.current_side(),
            "sides": sides,
            "result": self.result.to_dict() if self.result else None,
        }

    def determinized(self, viewer: Side, rng) -> Match:
        """Return a copy without a log, with what `viewer` cannot see dealt at random.

        For bots that search: the viewer knows its own hand, every card on the table, both
        discard piles and how many cards each deck and hand holds, not the order of the decks
        or the other hand. The copy deals the other side's hand and deck from the pool of its
        unseen cards and shuffles the viewer's deck; later shuffles use a new seeded chance.
        """
        # Every field written out (a compiled Match has no __dict__ to copy); a test checks
        # on the plain path that the copy has exactly the fields of the match.
        copy = Match.__new__(Match)
        copy.options = self.options
        copy.seed = self.seed
        copy.side_decks = self.side_decks
        copy.cards = self.cards
        copy._facts = self._facts
        copy._swap_memo = self._swap_memo
        copy._chance = Chance(rng.getrandbits(32))
        copy._log = NO_LOG
        copy._events = None
        copy._first_edition_log = self._first_edition_log
        copy._empty_timing_passes = self._empty_timing_passes
        copy._draw_phase_deck_out = self._draw_phase_deck_out
        copy.history = []
        copy.stats = MatchStats()
        copy.result = self.result
        copy.half = self.half
        copy.turn = self.turn
        copy.offense = self.offense
        copy.pending = self.pending
        copy.ball_zone = self.ball_zone
        copy.ball_arrow = self.ball_arrow
        copy.score = dict(self.score)
        copy.timing = self.timing
        copy.shot = self.shot
        copy.decision = self.decision
        copy.actor = self.actor
        copy._back_passes = self._back_passes
        copy._deck_out_side = self._deck_out_side
        copy._initial_decks = self._initial_decks
        copy._first_kickoff = self._first_kickoff
        a = copy._a = self._a.copy()
        b = copy._b = self._b.copy()
        a.opponent = b
        b.opponent = a
        copy._s = {"A": a, "B": b}
        mine = copy._s[viewer]
        rng.shuffle(mine.deck)
        theirs = mine.opponent
        unseen = theirs.deck + theirs.hand
        rng.shuffle(unseen)
        held = len(theirs.hand)
        theirs.hand = unseen[:held]
        theirs.deck = unseen[held:]
        return copy

    # ----- decisions ---------------------------------------------------------------------

    def legal_actions(self, limit: int | None = None) -> list[Action]:
        """Return the actions the deciding side may take, in a fixed order.

        A big hand has very many plays (a 30-card hand with 9 distinct events has over a
        million), so `limit` returns only the first `limit` of them; `iter_legal_actions`
        streams them and `legal_action_count` counts them without listing.
        """
        if limit is None:
            return list(self.iter_legal_actions())
        return list(islice(self.iter_legal_actions(), limit))

    def iter_legal_actions(self) -> Iterator[Action]:
        """Yield the legal actions one by one, in the order of `legal_actions`."""
        side = self.actor
        if self.decision == PLAY:
            yield from self._play_options(side)
        elif self.decision == SHOT:
            yield ChooseShot(side, True)
            yield ChooseShot(side, False)
        elif self.decision == GOAL_KICK:
            for zone in GOAL_KICK_ZONES:
                yield ChooseGoalKick(side, zone)
        elif self.decision == HALFTIME:
            yield from self._swap_options(side)

    def legal_action_count(self) -> int:
        """Return how many legal actions there are (without listing the plays)."""
        if self.decision == PLAY:
            players, events, budget = self._play_parts(self.actor)
            count = len(_sub_multisets(players, budget))
            for _, copies in events:
                count *= copies + 1
            return count
        if self.decision is None:
            return 0
        return len(self.legal_actions())

    def random_legal_action(self, rng) -> Action:
        """Return a legal action drawn uniformly, without listing every play.

        R-PLAY-2: a play is a set of at most `budget` player cards (few: listed) and any
        sub-multiset of the event cards (each distinct event's copies chosen independently,
        which is uniform over the event sub-multisets).
        """
        if self.decision != PLAY:
            return rng.choice(self.legal_actions())
        side = self.actor
        players, events, budget = self._play_parts(side)
        chosen = list(rng.choice(_sub_multisets(players, budget)))
        for card_id, copies in events:
            chosen += [card_id] * rng.randint(0, copies)
        return PlayCards(side, tuple(chosen))

    def is_legal(self, action: Action) -> bool:
        """Return whether `action` may be applied now."""
        return self._why_illegal(action) is None

    def apply_action(self, action: Action) -> None:
        """Apply the deciding side's action and run on to the next decision."""
        if type(action) is PlayCards and self.decision == PLAY:
            side = action.side
            if side == self.actor:
                # The common case, checked as `_why_illegal` checks it, without its dispatch.
                card_ids = action.card_ids
                if card_ids:
                    problem = self._play_problem(side, card_ids)
                    if problem is not None:
                        raise IllegalAction(problem)
                self.history.append(action)
                return self._play_timing(side, card_ids)
        problem = self._why_illegal(action)
        if problem is not None:
            raise IllegalAction(problem)
        self.history.append(action)
        kind = type(action)
        if kind is PlayCards:
            self._play_timing(action.side, action.card_ids)
        elif kind is ChooseShot:
            if action.shoot:
                self._shoot()
            else:
                self._back_pass()
        elif kind is ChooseGoalKick:
            self._goal_kick(action.zone)
        else:
            self._halftime_choice(action.side, action.swaps)

    def _why_illegal(self, action: Action) -> str | None:
        decision = self.decision
        if decision is None:
            return "The match is over."
        expected = _ACTION_FOR[decision]
        if type(action) is not expected:
            return f"Side {self.actor} must now send {expected.__name__}, not {action!r}."
        if action.side != self.actor:
            return f"It is side {self.actor}'s decision, not side {action.side}'s."
        if expected is PlayCards:
            return self._play_problem(action.side, action.card_ids) if action.card_ids else None
        if expected is ChooseGoalKick:
            if action.zone not in GOAL_KICK_ZONES:
                return f"A goal kick goes to one of {', '.join(GOAL_KICK_ZONES)}."
            return None
        if expected is ChooseShot:
            return None if isinstance(action.shoot, bool) else "'shoot' must be True or False."
        return self._swaps_problem(action.side, action.swaps)

    def _play_problem(self, side: Side, card_ids: tuple[str, ...]) -> str | None:
        state = self._a if side == "A" else self._b
        hand = state.hand
        table = self._facts
        players = 0
        # As if each id in turn were taken out of the hand's ids (the first one it lacks is
        # the problem), counted without building the list: the hand holds the table's card
        # objects (_canonical), so a card of an id is counted by identity.
        for i in range(len(card_ids)):
            card_id = card_ids[i]
            fact = table.get(card_id) if isinstance(card_id, str) else None
            if fact is None:  # no card of the match has this id
                return f"{card_id} is not in side {side}'s hand (or not that many copies)."
            card = fact[0]
            wanted = 1  # the copies of this id used up to here
            for j in range(i):
                if card_ids[j] == card_id:
                    wanted += 1
            held = 0
            for held_card in hand:
                if held_card is card:
                    held += 1
            if held < wanted:
                return f"{card_id} is not in side {side}'s hand (or not that many copies)."
            if fact[1]:
                players += 1
        if state.player_cards + players > MAX_PLAYER_CARDS_PER_TURN:  # R-PLAY-2
            return (
                f"Side {side} would use {state.player_cards + players} player cards this turn; "
                f"at most {MAX_PLAYER_CARDS_PER_TURN} are allowed."
            )
        return None

    def _play_parts(self, side: Side) -> tuple[list, list, int]:
        """Return the hand's (player id, copies), (event id, copies), and the player budget."""
        state = self._s[side]
        players: dict[str, int] = {}
        events: dict[str, int] = {}
        for card in state.hand:
            counts = players if card.kind == "player" else events
            counts[card.id] = counts.get(card.id, 0) + 1
        budget = MAX_PLAYER_CARDS_PER_TURN - state.player_cards  # R-PLAY-2
        return sorted(players.items()), sorted(events.items()), budget

    def _play_options(self, side: Side) -> Iterator[Action]:
        players, events, budget = self._play_parts(side)
        player_sets = _sub_multisets(players, budget)
        for e in _iter_sub_multisets(events):
            for p in player_sets:
                yield PlayCards(side, p + e)

    def _swap_pool(self, state: _SideState) -> list[Card]:
        """Return the cards a side may swap out at halftime."""
        if self.options.halftime_keep_hands:
            return state.deck + state.discard + state.in_play
        return list(state.owned)

    def _swap_counts(self, state: _SideState) -> tuple[dict, dict, dict]:
        """Return the id counts a swap check starts from: the swap pool, the bench, the 60 cards
        (without kept hands the pool is the 60 cards: one count serves both)."""
        owned = _id_counts(state.owned)
        pool = _id_counts(self._swap_pool(state)) if self.options.halftime_keep_hands else owned
        return pool, _id_counts(state.bench), owned

    def _swaps_problem(
        self, side: Side, swaps: tuple[tuple[str, str], ...], counts: tuple | None = None
    ) -> str | None:
        """Return why the side may not make these swaps, or None. `counts` are the side's
        `_swap_counts` (worked out here unless given; never changed)."""
        if not swaps:
            return None
        state = self._s[side]
        pool_counts, bench_counts, owned_counts = (
            counts if counts is not None else self._swap_counts(state)
        )
        pool = dict(pool_counts)
        bench = dict(bench_counts)
        for out, into in swaps:
            if pool.get(out, 0) < 1:
                where = "outside the kept hand" if self.options.halftime_keep_hands else ""
                return f"{out} is not in side {side}'s deck {where}(or not that many copies)."
            if bench.get(into, 0) < 1:
                return f"{into} is not on side {side}'s bench (or not that many copies)."
            pool[out] -= 1
            bench[into] -= 1
        # The 60 cards and the bench after the swaps, as (card, copies) by id: the same problems
        # as the card lists `_after_swaps` makes (deck_problems counts by id and sorts what it
        # names), a third of the entries to count.
        deck = dict(owned_counts)
        bench_after = dict(bench_counts)
        for out, into in swaps:
            deck[out] -= 1
            deck[into] = deck.get(into, 0) + 1
            bench_after[into] -= 1
            bench_after[out] = bench_after.get(out, 0) + 1
        table = self.cards
        problems = deck_problems(
            deck=[(table[card_id], copies) for card_id, copies in deck.items()],
            bench=[(table[card_id], copies) for card_id, copies in bench_after.items()],
            goalkeeper=state.goalkeeper,
            pk_goalkeeper=self.side_decks[side].pk_goalkeeper,
        )
        if problems:  # R-MATCH-5: the deck must stay legal
            return "After these swaps: " + " ".join(p.message for p in problems)
        return None

    def _swap_options(self, side: Side) -> list[Action]:
        """Return "no swap" and every legal single swap (R-MATCH-5), in (out, into) order.

        Each candidate costs a whole deck check, so without kept hands (the pool is the 60
        cards the side came with: they change only after this choice) the list is worked out
        once per deck pair and side and kept in its `DeckPair`, for as long as the side's
        cards and bench are those very objects.
        """
        state = self._s[side]
        memo = None if self.options.halftime_keep_hands else self._swap_memo.get(side)
        if memo is not None and _same_objects(memo[0], state.owned):
            if _same_objects(memo[1], state.bench):
                return list(memo[2])
        outs = sorted({card.id for card in self._swap_pool(state)})
        ins = sorted({card.id for card in state.bench if card.kind != "goalkeeper"})
        options: list[Action] = [HalftimeSwaps(side, ())]
        counts = self._swap_counts(state)
        for out, into in product(outs, ins):
            if out != into and self._swaps_problem(side, ((out, into),), counts) is None:
                options.append(HalftimeSwaps(side, ((out, into),)))
        if not self.options.halftime_keep_hands:
            self._swap_memo[side] = (list(state.owned), list(state.bench), tuple(options))
        return options

    def _after_swaps(
        self, state: _SideState, swaps: tuple[tuple[str, str], ...]
    ) -> tuple[list[Card], list[Card]]:
        """Return the side's 60 cards and bench after one-for-one swaps."""
        deck = list(state.owned)
        bench = list(state.bench)
        for out, into in swaps:
            out_card = self.cards[out]
            in_card = self.cards[into]
            deck.remove(out_card)
            deck.append(in_card)
            bench.remove(in_card)
            bench.append(out_card)
        return deck, bench

    # ----- the flow of play --------------------------------------------------------------

    def _decide(self, decision: str, side: Side) -> None:
        self.decision = decision
        self.actor = side

    def _start_half(self, half: int, kickoff: Side) -> None:
        self.half = half
        self.turn = 0
        self.offense = kickoff  # R-MATCH-4
        self.pending = "kickoff"
        self.ball_zone = self.ball_arrow = None
        self._back_passes = 0
        self._log.half_start(half, kickoff, self._a, self._b)
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.turn += 1
        self.stats.turns_by_half[self.half - 1] += 1
        offense = self._a if self.offense == "A" else self._b
        defense = offense.opponent
        offense.player_cards = offense.keep = offense.shoot = offense.defense = 0
        defense.player_cards = defense.keep = defense.shoot = defense.defense = 0
        self.timing = 0
        self.shot = False
        a, b = self._a, self._b
        self._log.turn_start(
            self.offense,
            self.pending,
            self.ball_zone,
            self.ball_arrow,
            self.score,
            a.hand,
            b.hand,
            len(a.deck),
            len(b.deck),
            self.half,
            self.turn,
        )
        if self._draw_phase_deck_out:
            # R-MATCH-3, R-DRAW-2 (deck_out: draw_phase): an empty deck ends the half in the
            # draw phase, before anyone draws (the offense's deck is looked at first).
            for state in (offense, defense):
                if not state.deck:
                    self._deck_out_side = state.side
                    return self._end_half()
        for state in (offense, defense):  # R-DRAW-1, offense first (house)
            need = HAND_SIZE - len(state.hand)
            if need > 0 and not self._draw(state, need, "draw_phase"):
                return self._end_half()  # R-DRAW-2: a draw-phase draw met an empty deck
        self._kick_phase()

    def _draw(self, state: _SideState, count: int, reason: str) -> bool:
        """Draw `count` cards into the hand; return False if that ends the half (R-DRAW-2).

        A draw-phase draw that finds too few cards ends the half under both readings. An extra
        draw (kick phase, effects) ends it only under `deck_out: any_draw`; under `draw_phase`
        it takes what is left and the turn goes on.
        """
        deck = state.deck
        got = count if count <= len(deck) else len(deck)
        if got:
            hand = state.hand
            start = len(hand)
            for _ in range(got):  # the top card (kept last) first
                hand.append(deck.pop())
            self._log.draw(state.side, hand[start:], reason, len(deck), self.half, self.turn)
        if got < count and (reason == "draw_phase" or not self._draw_phase_deck_out):
            self._deck_out_side = state.side  # R-DRAW-2, R-MATCH-3
            return False
        return True

    def _kick_phase(self) -> None:
        offense = self.offense
        defense = OTHER[offense]
        pending = self.pending
        if pending == "kickoff":  # R-KICK-1
            self.ball_arrow = defense
            self.ball_zone = CENTER_ZONE + TOWARD[defense]
            self._log.kick(
                "kickoff", None, self.ball_zone, self.ball_arrow, self.shot, self.half, self.turn
            )
            self._begin_play()
        elif pending == "goal_kick":  # R-KICK-2
            self._decide(GOAL_KICK, offense)
        elif pending == "corner_kick":  # R-KICK-3: a forced shot
            self.shot = True
            self.stats.shots[offense] += 1
            self.stats.corner_kicks[offense] += 1
            self._log.kick(
                "corner_kick",
                None,
                self.ball_zone,
                self.ball_arrow,
                self.shot,
                self.half,
                self.turn,
                True,
            )
            if self._draw(self._a if offense == "A" else self._b, SHOT_DRAW, "corner_kick"):
                self._begin_play()
            else:
                self._end_half()
        elif self.ball_zone == PENALTY_ZONE[defense]:  # R-KICK-4
            limit = self.options.max_back_passes
            if limit is not None and self._back_passes >= limit:
                self._shoot(forced=True)  # house: the back-pass limit forces the shot
            else:
                self._decide(SHOT, offense)
        else:  # R-KICK-5
            self.ball_zone += TOWARD[self.ball_arrow]
            self._log.kick(
                "advance", None, self.ball_zone, self.ball_arrow, self.shot, self.half, self.turn
            )
            self._begin_play()

    def _goal_kick(self, zone: str) -> None:
        offense = self.offense
        self.ball_arrow = OTHER[offense]  # R-KICK-2
        if zone == "penalty_zone":
            self.ball_zone = PENALTY_ZONE[offense]
            self._log.kick(
                "goal_kick", zone, self.ball_zone, self.ball_arrow, self.shot, self.half, self.turn
            )
            if not self._draw(self._a if offense == "A" else self._b, GOAL_KICK_DRAW, "goal_kick"):
                return self._end_half()
        else:
            self.ball_zone = MIDDLE_ZONE[offense]
            self._log.kick(
                "goal_kick", zone, self.ball_zone, self.ball_arrow, self.shot, self.half, self.turn
            )
        self._begin_play()

    def _shoot(self, forced: bool = False) -> None:
        self.shot = True  # R-KICK-4
        self._back_passes = 0
        self.stats.shots[self.offense] += 1
        self._log.kick(
            "shot_chance",
            "shoot",
            self.ball_zone,
            self.ball_arrow,
            self.shot,
            self.half,
            self.turn,
            forced,
        )
        if self._draw(self._a if self.offense == "A" else self._b, SHOT_DRAW, "shoot"):
            self._begin_play()
        else:
            self._end_half()

    def _back_pass(self) -> None:
        self._back_passes += 1  # R-KICK-4
        self.stats.back_passes[self.offense] += 1
        self.ball_zone = MIDDLE_ZONE[OTHER[self.offense]]
        self._log.kick(
            "shot_chance",
            "back_pass",
            self.ball_zone,
            self.ball_arrow,
            self.shot,
            self.half,
            self.turn,
        )
        self._begin_play()

    def _begin_play(self) -> None:
        self.timing = 1  # R-PLAY-1: the offense acts first
        self._decide(PLAY, self.offense)

    def _play_timing(self, side: Side, card_ids: tuple[str, ...]) -> None:
        user = self._a if side == "A" else self._b
        opponent = user.opponent
        log = self._log
        events = self._events
        logging = events is not None
        at = len(events) if logging else -1  # the `play` event goes here, before its effects
        deck_out = False
        if card_ids:
            hand = user.hand
            table = self._facts
            facts = [table[card_id] for card_id in card_ids]
            cards = []
            has_events = False
            for fact in facts:
                card = fact[0]
                # The first card of the hand with this id: every card of an id in a match is
                # this very object (Match.__init__, _canonical), so it is found by identity.
                for i in range(len(hand)):
                    if hand[i] is card:
                        del hand[i]
                        break
                else:
                    raise ValueError(f"{card.id} is not in side {side}'s hand.")
                cards.append(card)
                if fact[1]:
                    keep, shoot, defense = fact[3], fact[4], fact[5]
                    user.player_cards += 1
                    user.keep += keep
                    user.shoot += shoot
                    user.defense += defense
                elif fact[2]:
                    has_events = True
            user.in_play.extend(cards)
            if has_events:
                for fact in facts:  # R-PLAY-3, in the order used (id order)
                    if not fact[2]:
                        continue
                    card = fact[0]
                    effect = fact[6]
                    own = effect.own
                    opp = effect.opponent
                    user.keep += own[0]
                    user.shoot += own[1]
                    user.defense += own[2]
                    opponent.keep += opp[0]
                    opponent.shoot += opp[1]
                    opponent.defense += opp[2]
                    log.effect(side, opponent.side, card, own, opp, self.half, self.turn)
                    if effect.draw and not self._draw(user, effect.draw, "effect"):
                        # R-DRAW-2 (any_draw): later cards' effects never resolve
                        deck_out = True
                        break
        if logging:
            a, b = self._a, self._b
            log.play(
                at,
                side,
                self.timing,
                card_ids,
                user.player_cards,
                a.keep,
                a.shoot,
                a.defense,
                b.keep,
                b.shoot,
                b.defense,
                self.half,
                self.turn,
            )
        if deck_out:
            return self._end_half()
        reason = play_end_reason(  # R-PLAY-4 (used_cards, actor_keep, opponent_keep, ...)
            bool(card_ids),
            user.keep,
            opponent.keep,
            self.timing,
            LAST_TIMING,
            self._empty_timing_passes,
        )
        if reason is not None:
            self._end_play(reason)
        else:
            self.timing += 1  # R-PLAY-1, R-MATCH-2: both sides act in every turn
            self.decision = PLAY
            self.actor = opponent.side

    def _end_play(self, reason: str) -> None:
        self._log.play_end(reason, self.timing, self.half, self.turn)
        self._judge()

    def _judge(self) -> None:
        offense_side = self.offense
        offense = self._a if offense_side == "A" else self._b
        defense = offense.opponent
        defense_side = defense.side
        log = self._log
        if self.shot:  # R-JUDGE-1
            keeper = defense.goalkeeper.defense
            outcome = shot_outcome(offense.shoot, defense.defense, keeper)
            if outcome == "goal":  # R-JUDGE-2
                self.offense = defense_side
                self.pending = "kickoff"
            elif outcome == "corner_kick":  # R-JUDGE-3
                self.pending = "corner_kick"
            else:  # R-JUDGE-4
                self.offense = defense_side
                self.pending = "goal_kick"
            log.judge_shot(offense.shoot, defense.defense, keeper, outcome, self.half, self.turn)
            if outcome == "goal":
                self.score[offense_side] += 1
                self.stats.goals_by_half[offense_side][self.half - 1] += 1
                log.goal(offense_side, self.score, self.half, self.turn)
        else:  # R-JUDGE-5
            outcome = keep_outcome(offense.keep, defense.keep)
            if outcome == "swap":
                self.offense = defense_side
                self.ball_arrow = offense_side
            self.pending = None
            log.judge_keep(offense.keep, defense.keep, outcome, self.half, self.turn)
        if self.offense != offense_side:
            self._back_passes = 0
        for state in (offense, defense):  # R-END-1: every card used this turn is instant
            if state.in_play:
                state.discard.extend(state.in_play)
                log.discard(state.side, state.in_play, self.half, self.turn)
                state.in_play = []
        self._begin_turn()

    def _end_half(self) -> None:
        side = self._deck_out_side
        self.timing = 0
        self.stats.deck_out[self.half - 1] = side
        self._log.half_end(side, self.half, self.score)
        if self.half == 1:
            self._decide(HALFTIME, "A")  # R-MATCH-5: A chooses swaps, then B
        elif self.score["A"] != self.score["B"]:  # R-MATCH-1: more goals win
            winner = "A" if self.score["A"] > self.score["B"] else "B"
            self._finish(winner, "goals", None)
        else:
            self._shootout()  # R-MATCH-1: level after the second half

    def _halftime_choice(self, side: Side, swaps: tuple[tuple[str, str], ...]) -> None:
        self._s[side].swaps = swaps
        if side == "A":
            return self._decide(HALFTIME, "B")
        self._log.halftime(self._a.swaps, self._b.swaps)
        for state in (self._a, self._b):  # chance 4 and 5: A's deck, then B's
            self._regather(state)
        self._start_half(2, other(self._first_kickoff))  # R-MATCH-4

    def _regather(self, state: _SideState) -> None:
        """R-MATCH-5: swap, then shuffle every card (but a kept hand) into a new deck."""
        state.owned, state.bench = self._after_swaps(state, state.swaps)
        if self.options.halftime_keep_hands:
            pool = list(state.owned)
            for card in state.hand:
                pool.remove(card)
        else:
            pool = state.owned
            state.hand = []
        state.deck = self._chance.shuffle(pool)[::-1]
        state.discard = []
        state.in_play = []

    def _shootout(self) -> None:
        a = self._a
        b = self._b
        outcome = pk_shootout(  # R-PK-1, R-PK-2: full decks, chance 6 onwards
            a.owned, a.pk_goalkeeper, b.owned, b.pk_goalkeeper, self._chance, events=self._events
        )
        self._finish(outcome.winner, outcome.decided_by, outcome.score)

    def _finish(self, winner: Side, decided_by: str, pk: dict[str, int] | None) -> None:
        self.result = MatchResult(dict(self.score), pk, winner, decided_by)
        self.decision = None
        self.actor = None
        self._log.match_end(self.result.to_dict())

    # ----- the log -----------------------------------------------------------------------

    @property
    def events(self) -> list[dict]:
        """Return the log events so far (empty when the match records no log)."""
        return list(self._events) if self._events is not None else []

    def events_since(self, index: int) -> list[dict]:
        """Return the log events from `index` on (a new list; the rest is not copied)."""
        return self._events[index:] if self._events is not None else []

    @property
    def event_count(self) -> int:
        """Return how many log events have been written (without copying them)."""
        return len(self._events) if self._events is not None else 0

    def to_log(self) -> dict:
        """Return the match log (shared/spec/match-log.md); `result` is None until the end."""
        if self._events is None:
            raise ValueError("This match was started with record_log=False; it has no log.")
        sides = {}
        for side in SIDES:
            deck = self.side_decks[side]
            sides[side] = {
                "name": deck.name,
                "policy": deck.policy,
                "goalkeeper": deck.goalkeeper.to_log(),
                "pk_goalkeeper": deck.shootout_goalkeeper.to_log(),
                "deck": list(self._initial_decks[side]),
                "bench": sorted(card.id for card in deck.bench),
            }
        return {
            "format": "elevenstars-match-log",
            "version": 1,
            "seed": self.seed,
            "rules": rules_object(self.options, first_edition_log=self._first_edition_log),
            "sides": sides,
            "cards": {card_id: card.to_log() for card_id, card in self.cards.items()},
            "events": list(self._events),
            "result": self.result.to_dict() if self.result else None,
        }


_ACTION_FOR = {
    PLAY: PlayCards,
    SHOT: ChooseShot,
    GOAL_KICK: ChooseGoalKick,
    HALFTIME: HalftimeSwaps,
}
