"""Helpers for tests and benchmarks: stacked deals and dice, and a way to set the field.

Nothing here is used by a real game. `StackedChance` replaces the seeded deal and die so a
test can give each seat the cards and hero it wants and script every roll;
`stacked_game(...)` builds such a game, and `play_shows` gets it past TD-SET-3.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from play.touchdown.actions import ShowCards
from play.touchdown.cards import CARDS, DECK, ORDER, Card
from play.touchdown.chance import Chance
from play.touchdown.effects import Hero
from play.touchdown.game import SHOW, Game
from play.touchdown.options import DEFAULT_OPTIONS, HAND_SIZE, Options


class StackedChance(Chance):
    """Chance for tests: deals and rolls are scripted, one entry per half / per roll.

    `hands` gives, per half, each seat's cards (ids); a hand shorter than 9 is padded from
    the cards nobody was given, in id order, and what is left forms the unused pile.
    `heroes` gives, per half, each seat's hero jersey. `rolls` are the die rolls in order;
    a roll beyond the script raises, so a test states every roll it causes.
    """

    def __init__(
        self,
        *,
        hands: Sequence[Sequence[Sequence[str]]] = (),
        heroes: Sequence[Sequence[int]] = (),
        rolls: Iterable[int] = (),
    ) -> None:
        super().__init__(0)
        self._hands = [list(half) for half in hands]
        self._heroes = [list(half) for half in heroes]
        self._rolls = list(rolls)
        self.rolled: list[int] = []

    def deal_heroes(self, heroes: Sequence[Hero]) -> tuple[list[Hero], list[Hero]]:
        if not self._heroes:
            return list(heroes[:4]), list(heroes[4:])
        jerseys = self._heroes.pop(0)
        by_jersey = {hero.jersey: hero for hero in heroes}
        seated = [by_jersey[jersey] for jersey in jerseys]
        return seated, [hero for hero in heroes if hero not in seated]

    def deal_cards(self) -> tuple[list[list[Card]], list[Card]]:
        wanted = self._hands.pop(0) if self._hands else [[], [], [], []]
        given = {card_id for hand in wanted for card_id in hand}
        spare = [card for card in DECK if card.id not in given]
        hands = []
        for seat in range(4):
            hand = [CARDS[card_id] for card_id in wanted[seat]]
            while len(hand) < HAND_SIZE:
                hand.append(spare.pop(0))
            hands.append(sorted(hand, key=lambda card: ORDER[card.id]))
        return hands, spare

    def roll(self) -> int:
        if not self._rolls:
            raise AssertionError("The test did not script this die roll.")
        value = self._rolls.pop(0)
        self.rolled.append(value)
        return value


def stacked_game(
    hands: Sequence[Sequence[str]] = ((), (), (), ()),
    *,
    heroes: Sequence[int] = (1, 2, 3, 4),
    rolls: Iterable[int] = (),
    options: Options = DEFAULT_OPTIONS,
    second_half: tuple[Sequence[Sequence[str]], Sequence[int]] | None = None,
    record_log: bool = True,
) -> Game:
    """Return a game whose first half deals these cards and heroes (jerseys) to seats 0..3."""
    all_hands = [hands] + ([second_half[0]] if second_half else [])
    all_heroes = [heroes] + ([second_half[1]] if second_half else [])
    chance = StackedChance(hands=all_hands, heroes=all_heroes, rolls=rolls)
    return Game.new(seed=0, options=options, chance=chance, record_log=record_log)


def play_shows(game: Game) -> None:
    """TD-SET-3: every seat shows the first three cards of its hand."""
    while game.decision == SHOW:
        seat = game.actor
        game.apply_action(ShowCards(seat, tuple(card.id for card in game.hands[seat][:3])))


def set_field(
    game: Game,
    *,
    ball: int | None = None,
    series: int | None = None,
    lead: int | None = None,
    offense: str | None = None,
) -> None:
    """Put the ball, the series count, the lead or the offense where a test wants them.

    Only between tricks (a lead decision); the drive counters start again from here."""
    if game.decision != "lead":
        raise ValueError("set_field works only when the lead must play.")
    if offense is not None:
        game.offense = offense
    if lead is not None:
        game.lead = lead
        game.actor = lead
    if ball is not None:
        game.ball = ball
    if series is not None:
        game.series = series
    game._begin_drive(game.offense, game.ball)
