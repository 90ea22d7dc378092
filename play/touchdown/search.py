"""The search bot: determinised Monte Carlo rollouts over the seat's information set.

At a decision the bot lists a few candidate actions (greedy's choice first), then plays each
out on the same freshly sampled worlds (common random numbers) and keeps the best mean, by
sequential halving over a fixed budget of rollouts per decision (`SEARCH_ROLLOUTS`).

A world (`determinize`) keeps everything the deciding seat knows: its own hand, the cards its
partner showed it still in hand (TD-SET-3), the table, the hand sizes, the heroes, and the
suits each seat showed it lacks by not following a run (TD-PLAY-2, `Game.voids`). The cards it
cannot see (the other hands and the 4 unused cards, TD-SET-2) are dealt again at random among
those places, respecting those voids; the cards the other seats showed each other are drawn
from their new hands; the later die rolls and the second half's deal come from a new random
source. Nothing the seat cannot see is read, so two games that differ only in hidden cards
give the same decision with the same random source (tests/test_touchdown_search.py).

A rollout applies the candidate and plays greedy at every seat for `SEARCH_HORIZON` more tricks
(kick plays count as tricks), or to the end of the half. Its value, for the deciding seat's
team: the points margin gained; then, if the half goes on, the possession to come weighed as
greedy's measured points margin from that ball (`policies._net_value`, scaled down with fewer
series cards left), or, at the end of the game, `WIN_WORTH` more for a win (less for a loss).
Greedy's choice is always searched to the end and kept unless another action gains more than
`CHANGE_MARGIN` points per rollout over it on the same worlds. Its randomness is the policy's
own, so a game stays a function of its seed. `bench/touchdown_search.py` measures the decision
time and the ladder (docs/touchdown.md, "The search bot").
"""

from __future__ import annotations

import random

from play.touchdown.actions import Action, ChooseCard, ChooseHero, ChooseSuit, Lead
from play.touchdown.cards import ORDER, TEAM_OF, TEAMS, Card
from play.touchdown.chance import Chance
from play.touchdown.game import (
    CHOOSE_CARD,
    CHOOSE_HERO,
    CHOOSE_SUIT,
    FOLLOW,
    KICKOFF_CHOICE,
    LEAD,
    Game,
    GameStats,
)
from play.touchdown.options import SERIES_CARDS
from play.touchdown.policies import GreedyPolicy, _net_value

SEARCH_ROLLOUTS = 24  # rollouts per decision: a median decision well under 20 ms (docs)
SEARCH_HORIZON = 3  # tricks (or kick plays) a rollout plays before it weighs the field
WIN_WORTH = 4.0  # a won game, in points, on top of the margin
CHANGE_MARGIN = 0.1  # points per rollout another action must gain over greedy's choice


def _order(card: Card) -> int:
    return ORDER[card.id]


def determinize(game: Game, seat: int, rng: random.Random) -> Game:
    """Return a copy of `game` with what `seat` cannot see drawn again at random (see above)."""
    hands = game.hands
    played = game.played
    partner = (seat + 2) & 3
    known = [card for card in game._shown_cards[partner] if card.id not in played]
    known_ids = {card.id for card in known}
    seen = {card.id for card in hands[seat]} | known_ids | played
    pool = sorted(
        (card for hand in hands for card in hand if card.id not in seen),
        key=_order,
    )
    pool += sorted(game.pile, key=_order)
    pool.sort(key=_order)  # the unseen cards in card order: nothing of where they are
    # the places they go: (seat or None for the unused cards, how many, suits it cannot hold)
    places: list[tuple[int | None, int, set[str]]] = [
        ((seat + 1) & 3, len(hands[(seat + 1) & 3]), game.voids[(seat + 1) & 3]),
        (partner, len(hands[partner]) - len(known), game.voids[partner]),
        ((seat + 3) & 3, len(hands[(seat + 3) & 3]), game.voids[(seat + 3) & 3]),
        (None, len(game.pile), set()),
    ]
    dealt = _deal(pool, places, rng)
    world = Game.__new__(Game)
    world.__dict__.update(game.__dict__)
    world.seed = 0  # the real seed would tell the deal
    world._chance = Chance(rng=random.Random(rng.getrandbits(64)))
    world._events = None
    world.history = []
    world.stats = GameStats()
    world.score = dict(game.score)
    world.hero_up = list(game.hero_up)
    world.heroes = list(game.heroes)
    world.heroes_out = []
    world.played = set(played)
    world.unplayed = dict(game.unplayed)
    world.voids = [set(v) for v in game.voids]
    new_hands: list[list[Card]] = [[], [], [], []]
    new_hands[seat] = list(hands[seat])
    new_hands[partner] = sorted(known + dealt[1], key=_order)
    new_hands[(seat + 1) & 3] = sorted(dealt[0], key=_order)
    new_hands[(seat + 3) & 3] = sorted(dealt[2], key=_order)
    world.hands = new_hands
    world.pile = dealt[3]
    bits = []
    for hand in new_hands:
        suits = dict.fromkeys(game.unplayed, 0)
        for card in hand:
            suits[card.suit] |= 1 << (card.number - 1)
        bits.append(suits)
    world._bits = bits
    # what the other pair showed each other is unseen: draw it from their new hands
    shown = list(game.shown)
    shown_cards = list(game._shown_cards)
    shown_bits = list(game._shown_bits)
    for other in ((seat + 1) & 3, (seat + 3) & 3):
        if not game.shown[other]:
            continue
        hand = new_hands[other]
        chosen = sorted(rng.sample(hand, min(3, len(hand))), key=_order)
        shown[other] = tuple(card.id for card in chosen)
        shown_cards[other] = tuple(chosen)
        suits = dict.fromkeys(game.unplayed, 0)
        for card in chosen:
            suits[card.suit] |= 1 << (card.number - 1)
        shown_bits[other] = suits
    world.shown = shown
    world._shown_cards = shown_cards
    world._shown_bits = shown_bits
    world._t_seats = list(game._t_seats)
    world._t_cards = list(game._t_cards)
    world._t_follows = list(game._t_follows)
    world._values = dict(game._values)
    world._cancelled = set(game._cancelled)
    world._pending = list(game._pending)
    return world


def _deal(
    pool: list[Card], places: list[tuple[int | None, int, set[str]]], rng: random.Random
) -> list[list[Card]]:
    """Deal the pool to the places, none getting a card of a suit it cannot hold."""
    for _ in range(8):  # plain shuffles first: almost always one fits
        order = list(pool)
        rng.shuffle(order)
        dealt = []
        start = 0
        fits = True
        for _, size, voids in places:
            part = order[start : start + size]
            start += size
            if voids and any(card.suit in voids for card in part):
                fits = False
                break
            dealt.append(part)
        if fits:
            return dealt
    # then the cards with the fewest places first, each to a place with room, by room
    room = [size for _, size, _ in places]
    dealt = [[] for _ in places]
    order = list(pool)
    rng.shuffle(order)
    order.sort(key=lambda card: sum(card.suit not in voids for _, _, voids in places))
    for card in order:
        fits = [i for i, (_, _, voids) in enumerate(places) if room[i] and card.suit not in voids]
        if not fits:  # the voids cannot all hold (an effect changed the suit): ignore them
            fits = [i for i in range(len(places)) if room[i]]
        pick = rng.random() * sum(room[i] for i in fits)
        for i in fits:
            pick -= room[i]
            if pick < 0:
                break
        dealt[i].append(card)
        room[i] -= 1
    return dealt


class SearchPolicy:
    """Determinised rollouts with greedy play, a fixed budget per decision (module docstring)."""

    def __init__(
        self,
        rollouts: int = SEARCH_ROLLOUTS,
        *,
        horizon: int = SEARCH_HORIZON,
        name: str = "search",
    ) -> None:
        self.rollouts = rollouts
        self.horizon = horizon
        self.name = name
        self._greedy = GreedyPolicy()

    def choose(self, game: Game, rng: random.Random) -> Action:
        seat = game.actor
        candidates = self.candidates(game, seat, rng)
        count = len(candidates)
        if count == 1:
            return candidates[0]
        totals = [0.0] * count
        alive = list(range(count))
        seen = 0  # rollouts per surviving candidate so far
        rounds = max(1, (count - 1).bit_length())  # ceil(log2(count))
        left = max(self.rollouts, count)
        for round_ in range(rounds):
            per = max(1, left // (len(alive) * (rounds - round_)))
            seeds = [rng.getrandbits(64) for _ in range(per)]
            for index in alive:
                action = candidates[index]
                for seed in seeds:
                    totals[index] += self._rollout(game, seat, action, random.Random(seed))
            left -= per * len(alive)
            seen += per
            alive.sort(key=lambda i: (-totals[i], i))  # same samples: totals compare as means
            if round_ < rounds - 1:
                alive = sorted({0, *alive[: (len(alive) + 1) // 2]})  # greedy's stays in
        best = alive[0]
        if best != 0 and totals[best] - totals[0] <= CHANGE_MARGIN * seen:
            best = 0  # keep greedy's choice unless the rollouts clearly prefer another
        return candidates[best]

    def candidates(self, game: Game, seat: int, rng: random.Random) -> list[Action]:
        """Return the actions worth searching, greedy's choice first (all of them legal)."""
        first = self._greedy.choose(game, rng)
        decision = game.decision
        found: list[Action] = [first]
        if decision == FOLLOW or decision == KICKOFF_CHOICE:
            found.extend(game.legal_actions())
        elif decision == LEAD:
            hand = game.hands[seat]
            play = first.play if isinstance(first, Lead) and first.play != "kick" else "run"
            found.extend(Lead(seat, card.id, play) for card in hand)
            if isinstance(first, Lead):
                other = "pass" if first.play == "run" else "run"
                found.append(Lead(seat, first.card_id, other))
            if game.series <= 2:  # TD-KICK-2: a kick play spends the least useful card
                spare = max(hand, key=lambda c: (c.number, c.id))
                found.append(Lead(seat, spare.id, "kick"))
            if game.can_use_skill(seat):
                found.extend(a for a in game.legal_actions()[-1:] if not isinstance(a, Lead))
        elif decision == CHOOSE_CARD:
            found.extend(ChooseCard(seat, target) for target in game.choice_targets)
        elif decision == CHOOSE_SUIT:
            found.extend(ChooseSuit(seat, suit) for suit in game.choice_targets)
        elif decision == CHOOSE_HERO:
            found.extend(ChooseHero(seat, target) for target in game.choice_targets)
        # SHOW: greedy's three lowest cards (84 choices would starve the budget)
        unique: list[Action] = []
        for action in found:
            if action not in unique:
                unique.append(action)
        return unique

    def _rollout(self, game: Game, seat: int, action: Action, rng: random.Random) -> float:
        world = determinize(game, seat, rng)
        team = TEAM_OF[seat]
        other = TEAMS[1] if team == TEAMS[0] else TEAMS[0]
        start = world.score[team] - world.score[other]
        half = world.half
        stop = world.trick_number + self.horizon
        world.apply_action(action)
        greedy = self._greedy.choose
        apply = world.apply_action
        while world.decision is not None and world.half == half and world.trick_number < stop:
            apply(greedy(world, rng))
        margin = world.score[team] - world.score[other]
        value = float(margin - start)
        if world.result is not None:
            if margin:
                value += WIN_WORTH if margin > 0 else -WIN_WORTH
        elif world.half == half and world.ball is not None:
            # the possession to come: its expected points margin from this ball (policies.py)
            worth = _net_value(world.ball) * (0.5 + 0.5 * world.series / SERIES_CARDS)
            value += worth if world.offense == team else -worth
        return value


__all__ = ["SEARCH_ROLLOUTS", "SearchPolicy", "determinize"]
