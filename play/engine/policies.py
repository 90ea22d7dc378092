"""Bot policies: `random`, `greedy` and `passive`. A policy is `choose(state, rng) -> Action`.

A policy's randomness comes from its own `random.Random`, derived from the match seed and the
side by `policy_rng`, so a bot-against-bot match is a pure function of its decks, policies,
options and seed. Policies see what a player at the table sees: their own hand, the totals on
the table, the field, the score and the opponent's goalkeeper; never the opponent's hand.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from typing import Protocol

from play.engine.actions import Action, ChooseGoalKick, ChooseShot, HalftimeSwaps, PlayCards
from play.engine.cards import Card, Side, other
from play.engine.effects import compile_effect
from play.engine.match import GOAL_KICK, PLAY, SHOT, Match
from play.engine.options import MAX_PLAYER_CARDS_PER_TURN


class Policy(Protocol):
    name: str

    def choose(self, state: Match, rng: random.Random) -> Action: ...


def policy_rng(seed: int, side: Side) -> random.Random:
    """Return the policy random source for one side of the match with this seed."""
    return random.Random(f"elevenstars-policy:{seed}:{side}")


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, state: Match, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions())


class PassivePolicy:
    """Never uses a card, never shoots (back pass), goal kicks to the middle zone, no swaps."""

    name = "passive"

    def choose(self, state: Match, rng: random.Random) -> Action:
        side = state.actor
        decision = state.decision
        if decision == PLAY:
            return PlayCards(side, ())
        if decision == SHOT:
            return ChooseShot(side, False)
        if decision == GOAL_KICK:
            return ChooseGoalKick(side, "middle_zone")
        return HalftimeSwaps(side, ())


# The contests a card can help in (indexes into its gains).
_KEEP = 0
_SHOOT = 1
_DEFENSE = 2
_AFFORDABLE_KEEP = 9  # the most card value greedy spends to win a keep contest


def _features(card: Card) -> tuple[tuple[int, int, int], int, bool]:
    """Return the card's gains (keep, shoot, defense contests), its value, and draws-only."""
    if card.kind == "player":
        return (card.keep, card.shoot, card.defense), card.shoot + card.keep + card.defense, False
    return _event_features(card.effect)


@lru_cache(maxsize=4096)
def _event_features(text: str) -> tuple[tuple[int, int, int], int, bool]:
    effect = compile_effect(text)
    own, opp = effect.own, effect.opponent
    gains = (own[0] - opp[0], own[1] - opp[2], own[2] - opp[1])
    value = 2 + sum(own) - sum(opp) + 2 * effect.draw
    return gains, value, effect.draw > 0 and not any(own) and not any(opp)


def _gain(card: Card, contest: int) -> int:
    """Return how much the card moves the user's side of the contest."""
    return _features(card)[0][contest]


def _value(card: Card) -> int:
    """Return what the card is worth keeping for later."""
    return _features(card)[1]


def _draws_only(card: Card) -> bool:
    return _features(card)[2]


def _cheapest(
    hand: tuple[Card, ...], budget: int, need: int, contest: int, keep_limit: int | None
) -> tuple[list[Card], int] | None:
    """Return the cheapest cards (at most `budget` players) that gain at least `need`."""
    players = []
    events = []
    for card in hand:
        gains, value, _ = _features(card)
        gain = gains[contest]
        if gain > 0:
            entry = (gain, value, gains[_KEEP], card)
            (players if card.kind == "player" else events).append(entry)
    events.sort(key=lambda e: (-e[0] / max(e[1], 1), e[3].id))
    players.sort(key=lambda e: (-e[0], e[1], e[3].id))
    players = players[:4]  # a heuristic: only the four strongest, to keep the search small
    best = None
    best_cost = 0
    for size in range(min(budget, len(players)) + 1):
        for chosen in combinations(players, size):
            gained = cost = keep = 0
            for gain, value, keep_gain, _ in chosen:
                gained += gain
                cost += value
                keep += keep_gain
            picked = list(chosen)
            for entry in events:
                if gained >= need:
                    break
                picked.append(entry)
                gained += entry[0]
                cost += entry[1]
                keep += entry[2]
            if gained < need:
                continue
            if keep_limit is not None and keep > keep_limit:
                cost += 3  # it would let the other side answer
            if best is None or cost < best_cost:
                best, best_cost = ([entry[3] for entry in picked], gained), cost
    return best


class GreedyPolicy:
    """A one-turn heuristic: shoots to score, defends shots it can stop, wins affordable keep
    contests, cycles draw events when it holds the ball anyway, and saves its best cards."""

    name = "greedy"

    def choose(self, state: Match, rng: random.Random) -> Action:
        side = state.actor
        decision = state.decision
        if decision == PLAY:
            return PlayCards(side, tuple(c.id for c in self._cards(state, side)))
        if decision == SHOT:
            return ChooseShot(side, self._shoots(state, side))
        if decision == GOAL_KICK:
            return ChooseGoalKick(side, self._goal_kick_zone(state, side))
        return HalftimeSwaps(side, ())

    @staticmethod
    def _goal_kick_zone(state: Match, side: Side) -> str:
        if state.deck_count(side) > 0:
            return "penalty_zone"  # a free card: holding the ball is safe if we play nothing
        # Drawing now would end the half: do it only when ahead.
        return "penalty_zone" if state.score[side] > state.score[other(side)] else "middle_zone"

    @staticmethod
    def _shoots(state: Match, side: Side) -> bool:
        hand = list(state.hand(side))
        shots = sorted((c.shoot for c in hand if c.kind == "player"), reverse=True)
        potential = sum(shots[:MAX_PLAYER_CARDS_PER_TURN]) + sum(
            max(0, _gain(c, _SHOOT)) for c in hand if c.kind == "event"
        )
        if potential > state.goalkeeper(other(side)).defense + 2:
            return True
        cycles = any(c.kind == "event" and _draws_only(c) for c in hand)
        return not (cycles and state.deck_count(side) >= 4)

    def _cards(self, state: Match, side: Side) -> list[Card]:
        hand = state.hand(side)
        attacking = side == state.offense
        if attacking and state.timing == 1 and not state.shot:
            # Playing nothing (or only 0-keep draws) ends the phase with the ball held.
            if state.deck_count(side) < 3:
                return []
            return [c for c in hand if c.kind == "event" and _draws_only(c)]
        opponent = other(side)
        mine = state.totals(side)
        theirs = state.totals(opponent)
        budget = MAX_PLAYER_CARDS_PER_TURN - state.player_cards_used(side)
        if state.shot:
            if attacking:
                if state.timing == 1:
                    return self._all_in(hand, budget)
                stopping = theirs.defense + state.goalkeeper(opponent).defense
                need = stopping - mine.shoot + 1
                if need <= 0:
                    return []
                found = _cheapest(hand, budget, need, _SHOOT, None)
                return found[0] if found else []
            stopping = mine.defense + state.goalkeeper(side).defense
            need = theirs.shoot - stopping + 1
            if need <= 0:
                return []
            for wanted in (need, need - 1):  # stop it, else force a corner kick
                if wanted <= 0:
                    break
                found = _cheapest(hand, budget, wanted, _DEFENSE, theirs.keep - mine.keep)
                if found:
                    return found[0]
            return []
        need = theirs.keep - mine.keep + 1
        found = _cheapest(hand, budget, need, _KEEP, None)
        if found and sum(_value(c) for c in found[0]) <= _AFFORDABLE_KEEP:
            return found[0]
        return []

    @staticmethod
    def _all_in(hand: tuple[Card, ...], budget: int) -> list[Card]:
        """Return the best shooters and every card that helps the shot or refills the hand."""
        shooters = sorted(
            (c for c in hand if c.kind == "player" and c.shoot > 0),
            key=lambda c: (-c.shoot, c.keep, c.id),
        )[:budget]
        helpers = [
            c for c in hand if c.kind == "event" and (_gain(c, _SHOOT) > 0 or _draws_only(c))
        ]
        return shooters + helpers


POLICIES: dict[str, Policy] = {
    policy.name: policy for policy in (RandomPolicy(), GreedyPolicy(), PassivePolicy())
}


def get_policy(name: str) -> Policy:
    """Return the policy with this name."""
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"Unknown policy {name!r}; choose one of {', '.join(POLICIES)}.") from None
