"""One game of Touchdown Heroes as a state machine, in the manner of OpenSpiel.

`Game.new` deals and runs every automatic step until a seat must decide. A decision is a
typed action (`actions.py`); `legal_actions()` lists them, `apply_action()` takes one and runs
on to the next decision. All chance comes from one seeded `Chance`, in a fixed order, so a game
is a pure function of its options, seed and the actions applied. Rules are cited by their IDs
from shared/spec/touchdown-heroes-rules.md; HOUSE marks a decision of ours (options.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from play.touchdown.actions import (
    KICKOFF_KINDS,
    PLAYS,
    SHOWN_CARDS,
    Action,
    ChooseCard,
    ChooseHero,
    ChooseSuit,
    Follow,
    KickOff,
    Lead,
    ShowCards,
    UseSkill,
)
from play.touchdown.cards import (
    CARDS,
    OTHER_TEAM,
    SEATS,
    SUIT_LETTERS,
    TEAM_OF,
    TEAMS,
    Card,
)
from play.touchdown.chance import Chance
from play.touchdown.effects import KICKOFF, TRICK, Hero, Step
from play.touchdown.options import (
    COMBINATION_BONUS,
    DEFAULT_OPTIONS,
    FIELD_SQUARES,
    KICK_POINTS,
    LOG_VERSION,
    LONG_TOUCHDOWN_POINTS,
    SERIES_CARDS,
    TOUCHDOWN_POINTS,
    TURNOVER_SUM,
    Options,
    rules_object,
)

# What the game is waiting for (`game.decision`).
SHOW = "show"
KICKOFF_CHOICE = "kickoff"
LEAD = "lead"
FOLLOW = "follow"
CHOOSE_SUIT = "choose_suit"
CHOOSE_CARD = "choose_card"
CHOOSE_HERO = "choose_hero"

_ACTION_FOR = {
    SHOW: ShowCards,
    KICKOFF_CHOICE: KickOff,
    LEAD: Lead,
    FOLLOW: Follow,
    CHOOSE_SUIT: ChooseSuit,
    CHOOSE_CARD: ChooseCard,
    CHOOSE_HERO: ChooseHero,
}
_SKILL_WHEN = {LEAD: TRICK, FOLLOW: TRICK, KICKOFF_CHOICE: KICKOFF}
ALL_NUMBERS = (1 << 10) - 1  # a suit's ten numbers as bits


class IllegalAction(ValueError):
    """An action the game does not accept now; the message says why."""


@dataclass(slots=True)
class GameStats:
    """Counters for a balance lab, kept whether or not the game writes a log."""

    kickoffs: dict[str, dict[str, int]] = field(
        default_factory=lambda: {team: {"normal": 0, "random": 0} for team in TEAMS}
    )
    onside_attempts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    onside_successes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    random_kickoffs: list[tuple[str, bool]] = field(default_factory=list)  # (kicking team, onside)
    kickoff_sequence: list[tuple[str, str, bool]] = field(default_factory=list)  # + the choice
    drives: list[tuple[str, int, int, str]] = field(default_factory=list)
    touchdowns: dict[str, list[int]] = field(
        default_factory=lambda: {team: [0, 0] for team in TEAMS}
    )  # [2-point, 3-point]
    kick_points: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    kick_plays: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    interceptions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    skills: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    # per kick-off, in order: (half, the kicker's cards in hand, the kicking team's score,
    # the other team's), and each half's final score (eagles, bears)
    kickoff_states: list[tuple[int, int, int, int]] = field(default_factory=list)
    half_scores: list[tuple[int, int]] = field(default_factory=list)
    unfinished_tricks: int = 0  # halves that ended with a started trick thrown away


class Game:
    """The state of one game; see the module docstring."""

    def __init__(
        self,
        *,
        seed: int,
        options: Options = DEFAULT_OPTIONS,
        chance: Chance | None = None,
        record_log: bool = True,
        policies: tuple[str, str, str, str] = ("human",) * 4,
    ) -> None:
        self.options = options
        self.seed = seed
        self.policies = tuple(policies)
        self._chance = chance if chance is not None else Chance(seed)
        self._playbook = options.effects.playbook
        self._events: list[dict] | None = [] if record_log else None
        self.history: list[Action] = []
        self.stats = GameStats()
        self.score = dict.fromkeys(TEAMS, 0)
        self.result: dict | None = None
        self.decision: str | None = None
        self.actor: int | None = None
        self.half = 0
        self.first_offense: str | None = None
        self.offense: str = TEAMS[0]
        self.lead = 0
        self.ball: int | None = None
        self.series = SERIES_CARDS
        self.hands: list[list[Card]] = [[], [], [], []]
        self.pile: list[Card] = []
        self.heroes: list[Hero] = []
        self.heroes_out: list[Hero] = []
        self.hero_up = [True, True, True, True]
        self.shown: list[tuple[str, ...]] = [(), (), (), ()]
        self.played: set[str] = set()  # this half's cards played face up (public)
        # per suit, a bit (1 << number - 1) for each card not yet played this half (public)
        self.unplayed: dict[str, int] = dict.fromkeys(SUIT_LETTERS, ALL_NUMBERS)
        self._bits: list[dict[str, int]] = [dict.fromkeys(SUIT_LETTERS, 0) for _ in SEATS]
        self.voids: list[set[str]] = [set(), set(), set(), set()]
        self.trick_number = 0
        self._drive: tuple[str, int] | None = None
        self._drive_base = 0
        self._kick_minimum = 0
        self._reset_trick()
        self._start_half(1)

    @classmethod
    def new(
        cls,
        *,
        seed: int,
        options: Options = DEFAULT_OPTIONS,
        chance: Chance | None = None,
        record_log: bool = True,
        policies: tuple[str, str, str, str] = ("human",) * 4,
    ) -> Game:
        """Start a game. `chance` replaces the seeded source (tests stack the deal and dice);
        `record_log=False` skips the log for fast batch simulation; `policies` names the
        players in the log."""
        return cls(
            seed=seed, options=options, chance=chance, record_log=record_log, policies=policies
        )

    # ----- reading the state -------------------------------------------------------------

    def current_seat(self) -> int | None:
        """Return the seat that must decide now, or None when the game is over."""
        return self.actor if self.decision is not None else None

    def is_terminal(self) -> bool:
        return self.result is not None

    @property
    def defense(self) -> str:
        return OTHER_TEAM[self.offense]

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self.hands[seat])

    def hand_bits(self, seat: int) -> dict[str, int]:
        """Return the seat's hand per suit as bits (1 << number - 1); do not change it."""
        return self._bits[seat]

    def shown_bits_to(self, seat: int) -> dict[str, int]:
        """Return `shown_to(seat)` per suit as bits (played ones included); do not change it."""
        return self._shown_bits[(seat + 2) & 3]

    def shown_to(self, seat: int) -> tuple[str, ...]:
        """TD-SET-3: the cards `seat`'s partner showed it (for that seat's policy only)."""
        return self.shown[(seat + 2) & 3]

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """Return this trick's (seat, card) plays so far, the led card first."""
        return tuple(zip(self._t_seats, self._t_cards, strict=True))

    @property
    def trick_size(self) -> int:
        """Return how many cards this trick holds so far."""
        return len(self._t_seats)

    @property
    def trick_lead_seat(self) -> int | None:
        """Return the seat that led this trick, or None before the lead."""
        return self._t_seats[0] if self._t_seats else None

    @property
    def led_suit(self) -> str | None:
        return self._led_suit

    @property
    def play(self) -> str | None:
        """Return this trick's declared play ("run" or "pass"), None between tricks."""
        return self._play

    @property
    def pending_step(self) -> Step | None:
        """Return the effect step waiting for a choice (CHOOSE_* decisions), else None."""
        return self._pending[0] if self._targets else None

    @property
    def choice_targets(self) -> tuple:
        """Return what the pending choice may name (card ids, suits or seats)."""
        return SUIT_LETTERS if self.decision == CHOOSE_SUIT else self._targets

    @property
    def win_rule(self) -> str:
        return "highest" if self._highest else "lowest"

    def trick_leader(
        self,
        *,
        values: dict[str, int] | None = None,
        cancelled: set[str] | None = None,
        highest: bool | None = None,
    ) -> tuple[int, int] | None:
        """Return (seat, counted number) of the card taking the trick now, or None.

        `values`, `cancelled` and `highest` replace the trick's own, to ask "what if"."""
        if values is None and cancelled is None and highest is None:
            if self._leader is None and self._t_seats:
                self._leader = self.trick_leader(values=self._values)
            return self._leader
        best_seat = None
        best = 0
        if highest is None:
            highest = self._highest
        if values is None:
            values = self._values
        if cancelled is None:
            cancelled = self._cancelled
        for seat, card, follows in zip(self._t_seats, self._t_cards, self._t_follows, strict=True):
            if not follows or card.id in cancelled:
                continue
            value = values.get(card.id, card.number) if values else card.number
            # TD-JUDGE-1: ties go farther clockwise from the lead, i.e. to the later card
            if best_seat is None or (value >= best if highest else value <= best):
                best_seat, best = seat, value
        return None if best_seat is None else (best_seat, best)

    def snapshot(self, viewer: int | None = None) -> dict:
        """Return a JSON-ready view; a `viewer` seat sees its own hand and its partner's shown
        cards still in hand, and only the counts of the other hands."""
        seats = []
        for seat in SEATS:
            hand = [card.id for card in self.hands[seat]]
            if viewer is None or viewer == seat:
                visible = hand
            elif viewer == (seat + 2) & 3:
                visible = [card_id for card_id in hand if card_id in self.shown[seat]]
            else:
                visible = None
            hero = self.heroes[seat] if self.heroes else None
            seats.append(
                {
                    "team": TEAM_OF[seat],
                    "hand": visible,
                    "hand_count": len(hand),
                    "hero": None if hero is None else hero.jersey,
                    "hero_up": self.hero_up[seat],
                }
            )
        return {
            "half": self.half,
            "offense": self.offense,
            "lead": self.lead,
            "ball": self.ball,
            "series": self.series,
            "score": dict(self.score),
            "trick": [[seat, card.id] for seat, card in self.trick],
            "led_suit": self._led_suit,
            "play": self._play,
            "win_rule": self.win_rule,
            "decision": self.decision,
            "actor": self.current_seat(),
            "seats": seats,
            "result": dict(self.result) if self.result else None,
        }

    # ----- decisions ---------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Return every action the deciding seat may take, in a fixed order."""
        seat = self.actor
        decision = self.decision
        actions: list[Action] = []
        if decision is None:
            return actions
        if decision == FOLLOW:
            actions = [Follow(seat, card.id) for card in self.playable(seat)]
        elif decision == LEAD:
            actions = [Lead(seat, card.id, play) for card in self.hands[seat] for play in PLAYS]
        elif decision == KICKOFF_CHOICE:
            actions = [KickOff(seat, kind) for kind in KICKOFF_KINDS]
        elif decision == SHOW:
            ids = [card.id for card in self.hands[seat]]
            return [ShowCards(seat, chosen) for chosen in combinations(ids, SHOWN_CARDS)]
        elif decision == CHOOSE_SUIT:
            return [ChooseSuit(seat, suit) for suit in SUIT_LETTERS]
        elif decision == CHOOSE_CARD:
            return [ChooseCard(seat, card_id) for card_id in self._targets]
        elif decision == CHOOSE_HERO:
            return [ChooseHero(seat, target) for target in self._targets]
        if self.can_use_skill(seat):
            actions.append(UseSkill(seat))
        return actions

    def playable(self, seat: int) -> list[Card]:
        """Return the cards the seat may follow with (TD-PLAY-2: a run must follow)."""
        hand = self.hands[seat]
        suit = self._led_suit
        if self._play == "run" and self._bits[seat][suit]:
            return [card for card in hand if card.suit == suit]
        return list(hand)

    def can_use_skill(self, seat: int) -> bool:
        """Return whether the seat may use its hero's skill now (TD-COMP-2)."""
        if seat != self.actor or not self.hero_up[seat] or self._play == "kick":
            return False
        skill = self.heroes[seat].skill
        return skill is not None and _SKILL_WHEN.get(self.decision) == skill.when

    def is_legal(self, action: Action) -> bool:
        return self._why_illegal(action) is None

    def apply_action(self, action: Action) -> None:
        """Apply the deciding seat's action and run on to the next decision."""
        kind = type(action)
        if kind is Follow and self.decision == FOLLOW and action.seat == self.actor:
            seat = action.seat  # the common case, checked here without building a message
            card = CARDS.get(action.card_id)
            suit = self._led_suit
            if card in self.hands[seat] and (
                self._play != "run" or card.suit == suit or not self._bits[seat][suit]
            ):
                self.history.append(action)
                return self._follow(seat, card)
        elif kind is Lead and self.decision == LEAD and action.seat == self.actor:
            card = CARDS.get(action.card_id)  # the next most common case, checked here too
            if card in self.hands[action.seat] and action.play in PLAYS:
                self.history.append(action)
                return self._lead(action.seat, card, action.play)
        problem = self._why_illegal(action)
        if problem is not None:
            raise IllegalAction(problem)
        self.history.append(action)
        if kind is Follow:
            self._follow(action.seat, CARDS[action.card_id])
        elif kind is Lead:
            self._lead(action.seat, CARDS[action.card_id], action.play)
        elif kind is UseSkill:
            self._use_skill(action.seat)
        elif kind is KickOff:
            self._kickoff(action.kind)
        elif kind is ShowCards:
            self._show(action.seat, action.card_ids)
        elif kind is ChooseSuit:
            self._chosen(action.suit)
        elif kind is ChooseCard:
            self._chosen(action.card_id)
        else:
            self._chosen(action.target)

    def _why_illegal(self, action: Action) -> str | None:
        decision = self.decision
        if decision is None:
            return "The game is over."
        kind = type(action)
        seat = getattr(action, "seat", None)
        if seat != self.actor:
            return f"It is seat {self.actor}'s decision, not seat {seat}'s."
        if kind is UseSkill:
            return None if self.can_use_skill(seat) else f"Seat {seat} cannot use a skill now."
        expected = _ACTION_FOR[decision]
        if kind is not expected:
            return f"Seat {seat} must now send {expected.__name__}, not {action!r}."
        hand = self.hands[seat]
        if kind is Follow:
            card = CARDS.get(action.card_id)
            if card not in hand:
                return f"{action.card_id} is not in seat {seat}'s hand."
            if self._play == "run" and card.suit != self._led_suit:
                suit = self._led_suit
                if any(held.suit == suit for held in hand):
                    return f"A run must follow: seat {seat} holds a card of the led suit {suit}."
            return None
        if kind is Lead:
            if CARDS.get(action.card_id) not in hand:
                return f"{action.card_id} is not in seat {seat}'s hand."
            return None if action.play in PLAYS else f"A lead declares one of {', '.join(PLAYS)}."
        if kind is KickOff:
            return None if action.kind in KICKOFF_KINDS else "A kick-off is normal or random."
        if kind is ShowCards:
            ids = action.card_ids
            held = {card.id for card in hand}
            if len(ids) != SHOWN_CARDS or len(set(ids)) != SHOWN_CARDS:
                return f"Show exactly {SHOWN_CARDS} different cards (TD-SET-3)."
            if not set(ids) <= held:
                return f"Seat {seat} can show only cards of its hand."
            return None
        if kind is ChooseSuit:
            return None if action.suit in SUIT_LETTERS else "Choose one of the four suits."
        value = action.card_id if kind is ChooseCard else action.target
        return None if value in self._targets else f"{value!r} is not a target this effect allows."

    # ----- the flow of play --------------------------------------------------------------

    def _log(self, event: dict) -> None:
        self._events.append(event)  # type: ignore[union-attr]

    def _start_half(self, half: int) -> None:
        self.half = half
        self.played = set()
        self.unplayed = dict.fromkeys(SUIT_LETTERS, ALL_NUMBERS)
        self.trick_number = 0
        self.ball = None
        self.series = SERIES_CARDS
        heroes, out = self._chance.deal_heroes(self.options.effects.heroes)  # TD-SET-2
        self.heroes = heroes
        self.heroes_out = out
        self.hero_up = [True, True, True, True]
        hands, pile = self._chance.deal_cards()  # TD-SET-2
        self.hands = hands
        self._bits = [dict.fromkeys(SUIT_LETTERS, 0) for _ in SEATS]
        # TD-PLAY-2 (public): the suits each seat showed it has none of, by not following a run
        self.voids = [set(), set(), set(), set()]
        for bits, hand in zip(self._bits, hands, strict=True):
            for card in hand:
                bits[card.suit] |= 1 << (card.number - 1)
        self.pile = pile
        self.shown = [(), (), (), ()]
        self._shown_cards: list[tuple[Card, ...]] = [(), (), (), ()]
        self._shown_bits = [dict.fromkeys(SUIT_LETTERS, 0) for _ in SEATS]
        if self._events is not None:
            self._log(
                {
                    "type": "half_start",
                    "half": half,
                    "heroes": [hero.jersey for hero in heroes],
                    "heroes_out": [hero.jersey for hero in out],
                    "hands": [[card.id for card in hand] for hand in hands],
                    "pile": [card.id for card in pile],
                }
            )
        self._decide(SHOW, 0)  # TD-SET-3

    def _show(self, seat: int, card_ids: tuple[str, ...]) -> None:
        self.shown[seat] = card_ids
        self._shown_cards[seat] = tuple(CARDS[card_id] for card_id in card_ids)
        bits = dict.fromkeys(SUIT_LETTERS, 0)
        for card_id in card_ids:
            card = CARDS[card_id]
            bits[card.suit] |= 1 << (card.number - 1)
        self._shown_bits[seat] = bits
        if self._events is not None:
            self._log({"type": "show", "seat": seat, "to": (seat + 2) & 3, "cards": list(card_ids)})
        if seat < 3:
            return self._decide(SHOW, seat + 1)
        self._place_lead()

    def _place_lead(self) -> None:
        jerseys = [hero.jersey for hero in self.heroes]
        lead = jerseys.index(min(jerseys))  # TD-SET-4
        if self.half == 1:
            self.first_offense = TEAM_OF[lead]
            self.offense = self.first_offense
        else:
            self.offense = OTHER_TEAM[self.first_offense]  # TD-SET-5
            if TEAM_OF[lead] != self.offense:
                lead = (lead + 1) & 3  # TD-SET-5: the marker moves to the left neighbour
        self.lead = lead
        if self._events is not None:
            self._log({"type": "lineup", "half": self.half, "lead": lead, "offense": self.offense})
        self._kickoff_due()

    def _kickoff_due(self) -> None:
        """TD-KICK-1: the defense kicks; HOUSE: the defense seat left of the lead declares."""
        if not any(self.hands):  # HOUSE: nobody could play after it
            return self._end_half(None)
        self._kick_minimum = self.options.kick_floor
        self.ball = None
        kicker = (self.lead + 1) & 3
        if self.options.kickoffs == "normal_only":
            self.actor = kicker
            return self._kickoff("normal")
        self._decide(KICKOFF_CHOICE, kicker)

    def _kickoff(self, kind: str) -> None:
        kicker = self.actor
        team = TEAM_OF[kicker]
        stats = self.stats
        stats.kickoffs[team][kind] += 1
        score = self.score
        stats.kickoff_states.append(
            (self.half, len(self.hands[kicker]), score[team], score[OTHER_TEAM[team]])
        )
        options = self.options
        ability = options.kickoff_kick_ability
        kick = self.heroes[kicker].kick if ability != "none" else 0
        roll = None
        onside = False
        if kind == "normal":
            ball = options.normal_kick_ball  # TD-KICK-1 (8 in the draft)
            if ability == "both":
                ball = min(ball + kick, FIELD_SQUARES)
            else:
                kick = 0
        else:
            roll = self._chance.roll()
            stats.onside_attempts[team] += 1
            if roll <= options.onside_rolls:  # TD-KICK-1: onside (HOUSE: on the roll alone)
                onside = True
                kick = 0
                stats.onside_successes[team] += 1
                self.offense = team
                self.lead = kicker  # the lead moves to its left neighbour, the kicker
                ball = options.onside_ball_after(roll)  # HOUSE: 11 - (3 + 1) = 7 in the draft
            else:
                ball = options.random_kick_base + roll + kick  # TD-KICK-1: 3 + roll
                ball = min(max(ball, self._kick_minimum), FIELD_SQUARES)
            stats.random_kickoffs.append((team, onside))
        stats.kickoff_sequence.append((team, kind, onside))
        self.ball = ball
        self.series = SERIES_CARDS
        if self._events is not None:
            self._log(
                {
                    "type": "kickoff",
                    "half": self.half,
                    "kicker": kicker,
                    "team": team,
                    "choice": kind,
                    "roll": roll,
                    "minimum": self._kick_minimum or None,
                    "kick": kick,
                    "onside": onside,
                    "offense": self.offense,
                    "lead": self.lead,
                    "ball": ball,
                }
            )
        self._begin_drive(self.offense, ball)
        self._next_trick()

    def _decide(self, decision: str, seat: int) -> None:
        self.decision = decision
        self.actor = seat

    def _reset_trick(self) -> None:
        self._t_seats: list[int] = []
        self._t_cards: list[Card] = []
        self._t_follows: list[bool] = []
        self._led_suit: str | None = None
        self._play: str | None = None
        self._suit_override: str | None = None
        self._highest = False
        self._leader: tuple[int, int] | None = None  # trick_leader(), kept up to date
        self._hold = False
        self._force_failure = False
        self._intercept = False
        self._bonus = 0  # squares the effects move the ball, in the offense's favour
        self._values: dict[str, int] = {}
        self._cancelled: set[str] = set()
        self._pending: list[Step] = []
        self._resume: str | None = None
        self._source: Card | None = None
        self._skill_user: int | None = None
        self._targets: tuple = ()

    def _next_trick(self) -> None:
        self._reset_trick()
        lead = self.lead
        if not self.hands[lead]:
            return self._end_half(lead)  # TD-END-1 (HOUSE: the lead has no card)
        self._decide(LEAD, lead)

    def _lead(self, seat: int, card: Card, play: str) -> None:
        self.hands[seat].remove(card)
        self.played.add(card.id)
        bit = ~(1 << (card.number - 1))
        self.unplayed[card.suit] &= bit
        self._bits[seat][card.suit] &= bit
        if self._events is not None:
            self._log(
                {
                    "type": "lead",
                    "seat": seat,
                    "card": card.id,
                    "play": play,
                    "ball": self.ball,
                    "series": self.series,
                }
            )
        if play == "kick" and self.options.kick_play_hand == "lead_only":
            return self._kick_play(seat, card)  # HOUSE: only the lead spends a card
        self._play = play  # TD-PLAY-1
        self._led_suit = self._suit_override or card.suit
        self._t_seats.append(seat)
        self._t_cards.append(card)
        self._t_follows.append(True)  # the led card always takes part (TD-JUDGE-1)
        self._leader = None if self._values else (seat, card.number)
        self._decide(FOLLOW, seat)
        self._next_follower()

    def _next_follower(self) -> None:
        if len(self._t_seats) == 4:
            if self._play == "kick":  # option every_player: each has spent a card
                return self._kick_play(self._t_seats[0], self._t_cards[0])
            return self._judge()
        seat = (self.actor + 1) & 3  # clockwise
        if not self.hands[seat]:
            return self._end_half(seat)  # TD-END-1 (HOUSE: the follower has no card)
        self._decide(FOLLOW, seat)

    def _follow(self, seat: int, card: Card) -> None:
        if self._play == "run" and card.suit != self._led_suit:
            self.voids[seat].add(self._led_suit)  # TD-PLAY-2: it holds none of the led suit
        self.hands[seat].remove(card)
        self.played.add(card.id)
        bit = ~(1 << (card.number - 1))
        self.unplayed[card.suit] &= bit
        self._bits[seat][card.suit] &= bit
        # TD-PLAY-4: against the suit led now; a kick play's other cards never follow
        follows = card.suit == self._led_suit and self._play != "kick"
        self._t_seats.append(seat)
        self._t_cards.append(card)
        self._t_follows.append(follows)
        leader = self._leader
        if follows and leader is not None:
            number = card.number  # TD-JUDGE-1: a tie goes to the later card
            if card.id in self._values:
                self._leader = None  # worked out again when asked
            elif number >= leader[1] if self._highest else number <= leader[1]:
                self._leader = (seat, number)
        if self._events is not None:
            self._log({"type": "follow", "seat": seat, "card": card.id, "follows": follows})
        steps = self._playbook[card.number]
        if follows or not steps or self._play == "kick":
            # TD-PLAY-2/3: a card that does not follow applies its effect (not in a kick play)
            return self._next_follower()
        if self._events is not None:
            self._log(
                {
                    "type": "effect",
                    "seat": seat,
                    "card": card.id,
                    "steps": [step.to_dict() for step in steps],
                }
            )
        self._source = card
        self._resume = "next"
        self._pending = list(steps)
        self._run_steps()

    def _use_skill(self, seat: int) -> None:
        skill = self.heroes[seat].skill
        self.hero_up[seat] = False  # TD-COMP-2: turned face down
        self.stats.skills[TEAM_OF[seat]] += 1
        if self._events is not None:
            self._log(
                {
                    "type": "skill",
                    "seat": seat,
                    "hero": self.heroes[seat].jersey,
                    "steps": [step.to_dict() for step in skill.steps],
                }
            )
        self._source = None
        self._skill_user = seat
        self._resume = self.decision  # back to the same decision afterwards
        self._pending = list(skill.steps)
        self._run_steps()

    def _run_steps(self) -> None:
        """Apply the pending effect steps for the acting seat, stopping at a choice."""
        seat = self.actor
        pending = self._pending
        while pending:
            step = pending.pop(0)
            if _STEP_HANDLERS[step.kind](self, seat, step):
                return None  # the step asks a choice; `_chosen` resumes here
        self._finish_effect()

    # One handler per step kind (effects.STEP_KINDS); each reads its parameters by name and
    # returns True when it stopped to ask the player a choice.

    def _step_advance(self, seat: int, step: Step) -> bool:
        squares = step.get("squares")
        self._bonus += squares if TEAM_OF[seat] == self.offense else -squares
        return False

    def _step_hold(self, seat: int, step: Step) -> bool:
        self._hold = True
        return False

    def _step_win_rule(self, seat: int, step: Step) -> bool:
        self._highest = step.get("rule") == "highest"
        self._leader = None
        return False

    def _step_force_failure(self, seat: int, step: Step) -> bool:
        self._force_failure = True
        return False

    def _step_intercept(self, seat: int, step: Step) -> bool:
        self._intercept = True
        return False

    def _step_kick_minimum(self, seat: int, step: Step) -> bool:
        self._kick_minimum = max(self._kick_minimum, step.get("ball"))
        return False

    def _step_hero_up(self, seat: int, step: Step) -> bool:
        whose = step.get("whose")
        user = self._skill_user  # HOUSE: a skill never turns its own hero face up
        if whose == "choose":
            targets = tuple(s for s in SEATS if not self.hero_up[s] and s != user)
            return bool(targets) and self._ask(CHOOSE_HERO, step, targets)
        target = seat if whose == "own" else (seat + 2) & 3
        if target != user:
            self.hero_up[target] = True
        return False

    def _step_change_suit(self, seat: int, step: Step) -> bool:
        to = step.get("to")
        if to == "choose":
            return self._ask(CHOOSE_SUIT, step, SUIT_LETTERS)
        self._set_suit(self._source.suit if to == "this_card" else to)
        return False

    def _step_card_value(self, seat: int, step: Step) -> bool:
        if step.get("target") == "this_card":
            self._values[self._source.id] = step.get("value")
            self._leader = None
            return False
        if self._t_cards:
            return self._ask(CHOOSE_CARD, step, tuple(c.id for c in self._t_cards))
        return False

    def _step_cancel_card(self, seat: int, step: Step) -> bool:
        targets = tuple(
            card.id
            for card, follows in zip(self._t_cards[1:], self._t_follows[1:], strict=True)
            if follows and card.id not in self._cancelled
        )
        return bool(targets) and self._ask(CHOOSE_CARD, step, targets)

    def _ask(self, decision: str, step: Step, targets: tuple) -> bool:
        self._pending.insert(0, step)
        self._targets = targets
        self.decision = decision
        return True

    def _chosen(self, value: object) -> None:
        seat = self.actor
        step = self._pending.pop(0)
        kind = step.kind
        if kind == "hero_up":
            self.hero_up[value] = True
        elif kind == "change_suit":
            self._set_suit(value)
        elif kind == "card_value":
            self._values[value] = step.get("value")
        else:
            self._cancelled.add(value)
        self._leader = None
        if self._events is not None:
            self._log({"type": "choice", "seat": seat, "kind": kind, "value": value})
        self._targets = ()
        self._run_steps()

    def _set_suit(self, suit: str) -> None:
        if self._t_cards:
            self._led_suit = suit  # TD-PLAY-4
            if self.options.suit_change_judges == "every_card":  # TD-PLAY-4, the other reading
                cards = self._t_cards
                self._t_follows = [True] + [card.suit == suit for card in cards[1:]]
                self._leader = None
        else:
            self._suit_override = suit  # used before the lead: the lead's card will not set it

    def _finish_effect(self) -> None:
        resume = self._resume
        self._resume = None
        self._source = None
        self._skill_user = None
        if resume == "next":
            self.decision = FOLLOW
            return self._next_follower()
        self.decision = resume

    def _kick_play(self, seat: int, card: Card) -> None:
        """TD-KICK-2: roll and advance; HOUSE: only the led card is spent."""
        team = self.offense
        self.stats.kick_plays[team] += 1
        self.trick_number += 1
        roll = self._chance.roll()
        kick = self.heroes[seat].kick  # HOUSE: the hero's kick ability adds to the roll
        before = self.ball
        ball = before - roll - kick
        scored = ball <= 0
        if self._events is not None:
            self._log(
                {
                    "type": "kick_play",
                    "seat": seat,
                    "card": card.id,
                    "roll": roll,
                    "kick": kick,
                    "ball_before": before,
                    "ball": max(ball, 0),
                    "scored": scored,
                }
            )
        self._reset_trick()
        if scored:
            self.stats.kick_points[team] += KICK_POINTS
            self._score(team, KICK_POINTS, "kick")
            return self._turnover("kick_score", kickoff=True)
        self.ball = ball
        self._turnover("kick", kickoff=False)

    def _judge(self) -> None:
        leader = self._t_seats[0]
        taker, value = self.trick_leader()  # TD-JUDGE-1
        offense = self.offense
        success = TEAM_OF[taker] == offense and not self._force_failure
        self.series -= 1  # TD-JUDGE-2/3: one series card turns down
        combo = False
        if success:  # TD-JUDGE-2
            self.lead = taker
            combo = taker == (leader + 2) & 3
            advance = 0 if self._hold else value + (COMBINATION_BONUS if combo else 0) + self._bonus
        else:  # TD-JUDGE-3
            self.lead = (taker + 1) & 3 if TEAM_OF[taker] != offense else taker
            advance = 0 if self._hold else min(0, self._bonus)
        ball = self.ball - advance
        if ball > FIELD_SQUARES:
            ball = FIELD_SQUARES  # HOUSE: the ball stops at the far end
        self.ball = ball
        self.trick_number += 1
        self.stats.tricks[self.half - 1] += 1
        intercepted = not success and self._intercept
        if self._events is not None:
            self._log(
                {
                    "type": "trick",
                    "half": self.half,
                    "number": self.trick_number,
                    "cards": [[s, c.id] for s, c in zip(self._t_seats, self._t_cards, strict=True)],
                    "led_suit": self._led_suit,
                    "play": self._play,
                    "rule": self.win_rule,
                    "taker": taker,
                    "value": value,
                    "outcome": "success" if success else "failure",
                    "combo": combo,
                    "advance": advance,
                    "ball": max(ball, 0),
                    "series": self.series,
                    "lead": self.lead,
                }
            )
        self._reset_trick()
        if ball <= 0:  # TD-SCORE-1
            points = TOUCHDOWN_POINTS if ball == 0 else LONG_TOUCHDOWN_POINTS
            self.stats.touchdowns[offense][points - TOUCHDOWN_POINTS] += 1
            self._score(offense, points, "touchdown")
            return self._turnover("touchdown", kickoff=True)
        if intercepted:
            self.stats.interceptions[OTHER_TEAM[offense]] += 1
            return self._turnover("interception", kickoff=False)
        if self.series == 0:  # TD-SERIES-1
            return self._turnover("series", kickoff=False)
        self._next_trick()

    def _score(self, team: str, points: int, kind: str) -> None:
        self.score[team] += points
        if self._events is not None:
            self._log(
                {
                    "type": "score",
                    "team": team,
                    "points": points,
                    "kind": kind,
                    "score": dict(self.score),
                }
            )

    def _turnover(self, reason: str, *, kickoff: bool) -> None:
        """Possession changes: the lead moves left, the series resets (TD-SERIES-1)."""
        drive = self._drive
        points = self.score[drive[0]]
        self.stats.drives.append((drive[0], drive[1], points - self._drive_base, reason))
        self.offense = OTHER_TEAM[self.offense]
        self.lead = (self.lead + 1) & 3
        self.series = SERIES_CARDS
        if kickoff:  # HOUSE (TD-SCORE-1): after any score, the scoring team kicks off
            self.ball = None
        else:
            self.ball = TURNOVER_SUM - self.ball
        if self._events is not None:
            self._log(
                {
                    "type": "possession",
                    "reason": reason,
                    "offense": self.offense,
                    "lead": self.lead,
                    "ball": self.ball,
                }
            )
        if kickoff:
            self._begin_drive(None)
            return self._kickoff_due()
        self._begin_drive(self.offense, self.ball)
        self._next_trick()

    def _begin_drive(self, team: str | None, ball: int = 0) -> None:
        """Start counting a drive (a possession) and the points its team had before it."""
        self._drive = (team, ball) if team else None
        self._drive_base = self.score[team] if team else 0

    def _end_half(self, seat: int | None) -> None:
        """TD-END-1: a half ends when hands run out; the unfinished trick is void."""
        if self._drive is not None:
            team, start = self._drive
            self.stats.drives.append((team, start, self.score[team] - self._drive_base, "half_end"))
            self._begin_drive(None)
        if self._t_seats:
            self.stats.unfinished_tricks += 1
        self.stats.half_scores.append((self.score[TEAMS[0]], self.score[TEAMS[1]]))
        if self._events is not None:
            self._log(
                {
                    "type": "half_end",
                    "half": self.half,
                    "seat": seat,
                    "unfinished_trick": [[s, c.id] for s, c in self.trick],
                    "score": dict(self.score),
                }
            )
        self._reset_trick()
        if self.half == 1:
            return self._start_half(2)  # TD-END-1: halftime, TD-SET-2..5
        eagles, bears = self.score[TEAMS[0]], self.score[TEAMS[1]]
        winner = None if eagles == bears else TEAMS[0] if eagles > bears else TEAMS[1]
        self.result = {"score": dict(self.score), "winner": winner}  # TD-END-2
        self.decision = None
        self.actor = None
        if self._events is not None:
            self._log({"type": "game_end", **self.result})

    # ----- the log -----------------------------------------------------------------------

    @property
    def events(self) -> list[dict]:
        return list(self._events) if self._events is not None else []

    @property
    def event_count(self) -> int:
        return len(self._events) if self._events is not None else 0

    def to_log(self) -> dict:
        """Return the game log (docs/touchdown.md, "The log"); `result` is None until the end."""
        if self._events is None:
            raise ValueError("This game was started with record_log=False; it has no log.")
        from play.touchdown.actions import action_to_dict

        return {
            "format": "touchdown-heroes-log",
            "version": LOG_VERSION,
            "seed": self.seed,
            "rules": rules_object(self.options),
            "seats": [{"team": TEAM_OF[s], "policy": self.policies[s]} for s in SEATS],
            "actions": [action_to_dict(action) for action in self.history],
            "events": list(self._events),
            "result": dict(self.result) if self.result else None,
        }


_STEP_HANDLERS = {
    "advance": Game._step_advance,
    "hold": Game._step_hold,
    "win_rule": Game._step_win_rule,
    "force_failure": Game._step_force_failure,
    "intercept": Game._step_intercept,
    "kick_minimum": Game._step_kick_minimum,
    "hero_up": Game._step_hero_up,
    "change_suit": Game._step_change_suit,
    "card_value": Game._step_card_value,
    "cancel_card": Game._step_cancel_card,
}
