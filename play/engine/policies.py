"""Bot policies: `random`, `greedy` and `passive`. A policy is `choose(state, rng) -> Action`.

A policy's randomness comes from its own `random.Random`, derived from the match seed and the
side by `policy_rng`, so a bot-against-bot match is a pure function of its decks, policies,
options and seed. Policies see what a player at the table sees: their own hand, the totals on
the table, the field, the score and the opponent's goalkeeper; never the opponent's hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple, Protocol

from play.engine.actions import Action, ChooseGoalKick, ChooseShot, HalftimeSwaps, PlayCards
from play.engine.cards import OTHER, SIDES, Card, Side
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
    """Uniform over the legal actions, drawn without listing every play."""

    name = "random"

    def choose(self, state: Match, rng: random.Random) -> Action:
        return state.random_legal_action(rng)


# Actions are frozen values, so the common ones are built once and shared.
_PLAY_NOTHING = {side: PlayCards(side, ()) for side in SIDES}
_SHOT_CHOICE = {(side, shoot): ChooseShot(side, shoot) for side in SIDES for shoot in (True, False)}
_GOAL_KICK_TO = {
    (side, zone): ChooseGoalKick(side, zone)
    for side in SIDES
    for zone in ("penalty_zone", "middle_zone")
}
_NO_SWAPS = {side: HalftimeSwaps(side, ()) for side in SIDES}
_PLAYS: dict[tuple[str, tuple[str, ...]], PlayCards] = {}  # (side, ids as chosen) -> action


def _play(side: Side, card_ids: tuple[str, ...]) -> PlayCards:
    """Return PlayCards(side, card_ids), built once per distinct play (actions are values)."""
    key = (side, card_ids)
    action = _PLAYS.get(key)
    if action is None:
        if len(_PLAYS) >= 50_000:
            _PLAYS.clear()
        action = _PLAYS[key] = PlayCards(side, card_ids)
    return action


class PassivePolicy:
    """Never uses a card, never shoots (back pass), goal kicks to the middle zone, no swaps."""

    name = "passive"

    def choose(self, state: Match, rng: random.Random) -> Action:
        side = state.actor
        decision = state.decision
        if decision == PLAY:
            return _PLAY_NOTHING[side]
        if decision == SHOT:
            return _SHOT_CHOICE[side, False]
        if decision == GOAL_KICK:
            return _GOAL_KICK_TO[side, "middle_zone"]
        return _NO_SWAPS[side]


# The contests a card can help in (indexes into its gains).
_KEEP = 0
_SHOOT = 1
_DEFENSE = 2
_AFFORDABLE_KEEP = 9  # the most card value greedy spends to win a keep contest (first edition)
_CONTEST_WORTH = 20  # the base card value greedy spends on the ball (second edition)


class _Features(NamedTuple):
    gains: tuple[int, int, int]  # how far the card moves the keep, shoot and defense contests
    value: int  # what the card is worth keeping for later
    draws_only: bool  # an event that only draws cards


def _features(card: Card) -> _Features:
    """Return the card's gains (keep, shoot, defense contests), its value, and draws-only."""
    if card.kind == "player":
        return _player_features(card.keep, card.shoot, card.defense)
    return _event_features(card.effect)


@lru_cache(maxsize=4096)
def _player_features(keep: int, shoot: int, defense: int) -> _Features:
    return _Features((keep, shoot, defense), shoot + keep + defense, False)


@lru_cache(maxsize=4096)
def _event_features(text: str) -> _Features:
    effect = compile_effect(text)
    own, opp = effect.own, effect.opponent
    gains = (own[0] - opp[0], own[1] - opp[2], own[2] - opp[1])
    value = 2 + sum(own) - sum(opp) + 2 * effect.draw
    return _Features(gains, value, effect.draw > 0 and not any(own) and not any(opp))


# The per-card facts greedy reads at every decision, computed once per card object: the card,
# its features, its `_Entry` for each contest (None where it gains nothing there), and whether
# it is a player card. Keyed by id and checked by identity, so two different cards that share an
# id (possible across matches) never share facts; cards are immutable, so facts never go stale.
_CARD_FACTS: dict[str, tuple[Card, _Features, tuple, bool]] = {}
_CARD_FACTS_MAX = 20_000


def _card_facts(card: Card) -> tuple[Card, _Features, tuple, bool]:
    """Return (card, features, entries by contest, is a player) for the card, cached."""
    facts = _CARD_FACTS.get(card.id)
    if facts is not None and facts[0] is card:
        return facts
    features = _features(card)
    gains, value, _ = features
    entries = tuple((gain, value, gains[_KEEP], card) if gain > 0 else None for gain in gains)
    facts = (card, features, entries, card.kind == "player")
    if len(_CARD_FACTS) >= _CARD_FACTS_MAX:
        _CARD_FACTS.clear()
    _CARD_FACTS[card.id] = facts
    return facts


def _draws_only(card: Card) -> bool:
    """Return whether the card is an event that only draws (it cycles the hand for free)."""
    return card.kind == "event" and _event_features(card.effect).draws_only


def _value(card: Card) -> int:
    """Return what the card is worth keeping for later."""
    return _features(card).value


_Entry = tuple[int, int, int, Card]  # (gain in the contest, value, keep gain, card)


def _event_order(entry: _Entry) -> tuple[float, str]:
    return (-entry[0] / max(entry[1], 1), entry[3].id)


def _player_order(entry: _Entry) -> tuple[int, int, str]:
    return (-entry[0], entry[1], entry[3].id)


def _candidates(hand: Sequence[Card], contest: int) -> tuple[list[_Entry], list[_Entry]]:
    """Return the hand's cards that help in the contest: players strongest first, at most
    four of them, and events best gain per value first."""
    players = []
    events = []
    facts_of = _CARD_FACTS.get
    for card in hand:
        facts = facts_of(card.id)
        if facts is None or facts[0] is not card:
            facts = _card_facts(card)
        entry = facts[2][contest]
        if entry is not None:
            (players if facts[3] else events).append(entry)
    if len(events) > 1:
        events.sort(key=_event_order)
    if len(players) > 1:
        players.sort(key=_player_order)
        del players[4:]  # a heuristic: only the four strongest, to keep the search small
    return players, events


def _cheapest(
    hand: Sequence[Card], budget: int, need: int, contest: int, keep_limit: int | None
) -> tuple[list[Card], int] | None:
    """Return the cheapest cards (at most `budget` players) that gain at least `need`."""
    players, events = _candidates(hand, contest)
    return _cheapest_of(players, events, budget, need, keep_limit)


def _cheapest_of(
    players: list[_Entry], events: list[_Entry], budget: int, need: int, keep_limit: int | None
) -> tuple[list[Card], int] | None:
    """Return the cheapest of `_candidates` (at most `budget` players) gaining `need`."""
    reach = 0
    for entry in players[:budget]:
        reach += entry[0]
    for entry in events:
        reach += entry[0]
    if reach < need:
        return None  # not even the strongest choice gains enough
    best = None
    best_cost = 0
    for size in range(min(budget, len(players)) + 1):
        # The player sets of this size in `combinations` order, with their summed
        # (gain, value, keep gain); sizes 0-2 (R-PLAY-2 allows 2) are summed without a loop.
        if size == 0:
            sums: list = [(0, 0, 0, ())]
        elif size == 1:
            sums = [(e[0], e[1], e[2], (e,)) for e in players]
        elif size == 2:
            sums = [
                (a[0] + b[0], a[1] + b[1], a[2] + b[2], (a, b)) for a, b in combinations(players, 2)
            ]
        else:
            sums = [
                (sum(e[0] for e in c), sum(e[1] for e in c), sum(e[2] for e in c), c)
                for c in combinations(players, size)
            ]
        for gained, cost, keep, chosen in sums:
            if best is not None and cost >= best_cost:
                continue  # events (worth at least 2 each) and the penalty only add cost
            helpers = 0  # events added, best ratio first, until the need is met
            for entry in events:
                if gained >= need:
                    break
                helpers += 1
                gained += entry[0]
                cost += entry[1]
                keep += entry[2]
            if gained < need:
                continue
            if keep_limit is not None and keep > keep_limit:
                cost += 3  # it would let the other side answer
            if best is None or cost < best_cost:
                picked = [entry[3] for entry in (*chosen, *events[:helpers])]
                best, best_cost = (picked, gained), cost
    return best


class GreedyPolicy:
    """A one-turn heuristic: shoots to score, defends shots it can stop, wins affordable keep
    contests, cycles draw events when it holds the ball anyway, and saves its best cards."""

    name = "greedy"

    def choose(self, state: Match, rng: random.Random) -> Action:
        side = state.actor
        decision = state.decision
        if decision == PLAY:
            cards = self._cards(state, side)
            return _play(side, tuple([c.id for c in cards])) if cards else _PLAY_NOTHING[side]
        if decision == SHOT:
            return _SHOT_CHOICE[side, self._shoots(state, side)]
        if decision == GOAL_KICK:
            return _GOAL_KICK_TO[side, self._goal_kick_zone(state, side)]
        return _NO_SWAPS[side]

    @staticmethod
    def _goal_kick_zone(state: Match, side: Side) -> str:
        if state.deck_count(side) > 0:
            return "penalty_zone"  # a free card: holding the ball is safe if we play nothing
        # Drawing now would end the half: do it only when ahead.
        return "penalty_zone" if state.score[side] > state.score[OTHER[side]] else "middle_zone"

    @staticmethod
    def _shoots(state: Match, side: Side) -> bool:
        shots = []
        helped = 0
        cycles = False  # holds an event that only draws
        for card in state.hand(side):
            if card.kind == "player":
                shots.append(card.shoot)
            elif card.kind == "event":
                features = _event_features(card.effect)
                helped += max(0, features.gains[_SHOOT])
                cycles = cycles or features.draws_only
        shots.sort(reverse=True)
        potential = sum(shots[:MAX_PLAYER_CARDS_PER_TURN]) + helped
        if potential > state.goalkeeper(OTHER[side]).defense + 2:
            return True
        return not (cycles and state.deck_count(side) >= 4)

    def _cards(self, state: Match, side: Side) -> list[Card]:
        # Reads the sides' live state (engine-internal, read only) instead of the public
        # copies (`hand()`, `totals()`): the same values without building tuples.
        mine = state._s[side]
        theirs = mine.opponent
        hand = mine.hand
        attacking = side == state.offense
        budget = MAX_PLAYER_CARDS_PER_TURN - mine.player_cards
        if state.shot:
            return self._shot_cards(state, side, hand, attacking, mine, theirs, budget)
        # A keep contest (R-PLAY-4 with empty_timing "passes", R-JUDGE-5).
        passes = state._empty_timing_passes
        if attacking and (not passes or mine.keep == theirs.keep):
            # A card that adds no keep, used while the totals are level, ends the phase at
            # once with the ball held (R-PLAY-4: not ahead). Draw-only events do it for free.
            free = self._keep_free(hand, budget, len(mine.deck))
            if free or not passes:
                return free
            if state.timing == 1:
                return []  # pass: the defense must show its hand first
        need = theirs.keep - mine.keep + 1
        if need <= 0:
            return []
        found = _cheapest(hand, budget, need, _KEEP, None)
        if found and sum(_value(c) for c in found[0]) <= self._keep_worth(state, side):
            return found[0]
        return []

    @staticmethod
    def _keep_free(hand: Sequence[Card], budget: int, deck_count: int) -> list[Card]:
        """Return the cheapest card that adds no keep (to end the phase holding the ball)."""
        best = None
        best_value = 0
        for card in hand:
            if card.kind == "player":
                if card.keep or not budget:
                    continue
                value = card.shoot + card.defense + 1
            else:
                features = _event_features(card.effect)
                if features.gains[_KEEP] > 0:
                    continue
                value = 0 if features.draws_only and deck_count >= 3 else features.value
            if best is None or value < best_value:
                best, best_value = card, value
        return [best] if best is not None and best_value <= 4 else []

    @staticmethod
    def _keep_worth(state: Match, side: Side) -> int:
        """Return how much card value the ball is worth to `side` now."""
        zone = state.ball_zone if state.ball_zone is not None else 2
        target = 4 if side == "A" else 0  # the goal `side` attacks (R-FIELD-1)
        distance = abs(target - zone)
        worth = _CONTEST_WORTH + (4 - distance) * 2
        if side != state.offense and distance >= 3:
            worth += 4  # the other side is close to a shot chance
        return worth

    def _shot_cards(self, state, side, hand, attacking, mine, theirs, budget) -> list[Card]:
        opponent = OTHER[side]
        if attacking:
            stopping = theirs.defense + state.goalkeeper(opponent).defense
            need = stopping - mine.shoot + 1
            if need <= 0:
                return []
            if mine.keep == theirs.keep:
                # Cards that add no keep end the phase at once (R-PLAY-4): the defense cannot
                # answer, so a keep-free shot that beats the goalkeeper is a goal.
                found = _cheapest(
                    [c for c in hand if _card_facts(c)[1].gains[_KEEP] <= 0],
                    budget,
                    need,
                    _SHOOT,
                    None,
                )
                if found:
                    return found[0]
            if state.timing == 1:
                return self._all_in(hand, budget)
            found = _cheapest(hand, budget, need, _SHOOT, None)
            return found[0] if found else []
        stopping = mine.defense + state.goalkeeper(side).defense
        need = theirs.shoot - stopping + 1
        if need <= 0:
            return []
        players, events = _candidates(hand, _DEFENSE)
        for wanted in (need, need - 1):  # stop it, else force a corner kick
            if wanted <= 0:
                break
            found = _cheapest_of(players, events, budget, wanted, theirs.keep - mine.keep)
            if found:
                return found[0]
        return []

    @staticmethod
    def _all_in(hand: Sequence[Card], budget: int) -> list[Card]:
        """Return the best shooters and every card that helps the shot or refills the hand."""
        shooters = [c for c in hand if c.kind == "player" and c.shoot > 0]
        shooters.sort(key=lambda c: (-c.shoot, c.keep, c.id))
        helpers = []
        for c in hand:
            if c.kind == "event":
                features = _event_features(c.effect)
                if features.gains[_SHOOT] > 0 or features.draws_only:
                    helpers.append(c)
        return shooters[:budget] + helpers


class SearchPolicy:
    """Determinised Monte Carlo search over a widening set of candidate actions.

    Candidates (PLAY): greedy's choice, playing nothing, the cheapest keep-free card, the
    cheapest cards that take (or widen) the keep lead, and at a shot the keep-free shot, the
    all-in shot, the cheapest stop, the corner-forcing block and every defense card; then
    uniformly drawn plays, more of them the bigger the budget (progressive widening: one per
    eight rollouts, at least two). Shot chances and goal kicks: both choices.

    The budget (`rollouts` per decision) is spent by sequential halving: in each round every
    surviving candidate is played out on the same fresh determinisations (common random
    numbers: `Match.determinized` from the same seed, so candidates are compared on the same
    hidden cards and deck order), then the worse half is dropped. A rollout applies the
    candidate, plays on with greedy on both sides for `horizon` turns (or to the end of the
    half) and scores the goal difference gained plus a small bonus for holding the ball near
    the other goal. The best mean wins; ties go to the earlier candidate (greedy's choice
    first). Its randomness is the policy's own, so a match stays a function of its seed.
    """

    def __init__(self, rollouts: int, *, horizon: int = 6, name: str | None = None) -> None:
        self.rollouts = rollouts
        self.horizon = horizon
        self.name = name or f"search-{rollouts}"
        self._greedy = GreedyPolicy()

    def choose(self, state: Match, rng: random.Random) -> Action:
        side = state.actor
        candidates = self._candidates(state, side, rng)
        if len(candidates) == 1:
            return candidates[0]
        count = len(candidates)
        totals = [0.0] * count
        samples = 0
        alive = list(range(count))
        rounds = max(1, (count - 1).bit_length())  # ceil(log2(count))
        left = max(self.rollouts, count)
        for round_ in range(rounds):
            per = max(1, left // (len(alive) * (rounds - round_)))
            seeds = [rng.getrandbits(64) for _ in range(per)]
            for index in alive:
                action = candidates[index]
                for seed in seeds:
                    totals[index] += self._rollout(state, side, action, random.Random(seed))
            left -= per * len(alive)
            samples += per
            alive.sort(key=lambda i: (-totals[i], i))  # same samples: totals compare as means
            if round_ < rounds - 1:
                alive = sorted(alive[: (len(alive) + 1) // 2])
        return candidates[alive[0]]

    def _widening(self) -> int:
        """Return how many uniformly drawn plays join the candidates for this budget."""
        return max(2, self.rollouts // 8)

    def _candidates(self, state: Match, side: Side, rng: random.Random) -> list[Action]:
        first = self._greedy.choose(state, rng)
        decision = state.decision
        if decision == SHOT:
            return [first, _SHOT_CHOICE[side, not first.shoot]]
        if decision == GOAL_KICK:
            other_zone = "middle_zone" if first.zone == "penalty_zone" else "penalty_zone"
            return [first, _GOAL_KICK_TO[side, other_zone]]
        if decision != PLAY:
            return [first]
        hand = state.hand(side)
        budget = MAX_PLAYER_CARDS_PER_TURN - state.player_cards_used(side)
        plays: list[list[Card]] = [[]]
        free = GreedyPolicy._keep_free(hand, budget, state.deck_count(side))
        if free:
            plays.append(free)
        mine = state.totals(side)
        theirs = state.totals(OTHER[side])
        need = theirs.keep - mine.keep + 1
        for wanted in (need, need + 2):
            if wanted > 0:
                found = _cheapest(hand, budget, wanted, _KEEP, None)
                if found:
                    plays.append(found[0])
        if state.shot:
            opponent = OTHER[side]
            if side == state.offense:
                stopping = theirs.defense + state.goalkeeper(opponent).defense
                wanted = stopping - mine.shoot + 1
                if wanted > 0:
                    keep_free = tuple(c for c in hand if _features(c).gains[_KEEP] <= 0)
                    for pool in (keep_free, hand):
                        found = _cheapest(pool, budget, wanted, _SHOOT, None)
                        if found:
                            plays.append(found[0])
                plays.append(GreedyPolicy._all_in(hand, budget))
            else:
                stopping = mine.defense + state.goalkeeper(side).defense
                wanted = theirs.shoot - stopping + 1
                for goal in (wanted, wanted - 1, wanted + 2):
                    if goal > 0:
                        found = _cheapest(hand, budget, goal, _DEFENSE, None)
                        if found:
                            plays.append(found[0])
                players, events = _candidates(hand, _DEFENSE)
                plays.append([e[3] for e in players[:budget]] + [e[3] for e in events])
        found = [first]
        found.extend(PlayCards(side, tuple([c.id for c in cards])) for cards in plays)
        found.extend(state.random_legal_action(rng) for _ in range(self._widening()))
        unique: list[Action] = []
        for action in found:
            if action not in unique:
                unique.append(action)
        return unique

    def _rollout(self, state: Match, side: Side, action: Action, rng: random.Random) -> float:
        world = state.determinized(side, rng)
        opponent = OTHER[side]
        start = world.score[side] - world.score[opponent]
        half = world.half
        world.apply_action(action)
        stop = world.turn + self.horizon
        greedy = self._greedy.choose
        while world.decision is not None and world.half == half and world.turn < stop:
            world.apply_action(greedy(world, rng))
        value = float(world.score[side] - world.score[opponent] - start)
        if world.decision is not None and world.half == half and world.ball_zone is not None:
            target = 4 if side == "A" else 0
            closeness = (4 - abs(target - world.ball_zone)) / 4
            held = 1.0 if world.offense == side else -1.0
            value += 0.15 * held * (0.5 + closeness)
        return value


SEARCH_BUDGETS = {"search": 16, "search-strong": 128}  # rollouts per decision

POLICIES: dict[str, Policy] = {
    policy.name: policy
    for policy in (
        RandomPolicy(),
        GreedyPolicy(),
        PassivePolicy(),
        *(SearchPolicy(budget, name=name) for name, budget in SEARCH_BUDGETS.items()),
    )
}

# The bots by strength, weakest first (bench/engine.py ladder measures it; docs/engine.md).
LADDER: tuple[str, ...] = ("passive", "random", "greedy", "search", "search-strong")


def get_policy(name: str) -> Policy:
    """Return the policy with this name."""
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"Unknown policy {name!r}; choose one of {', '.join(POLICIES)}.") from None
