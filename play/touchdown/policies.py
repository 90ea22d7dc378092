"""Bot policies: `random` and `greedy`. A policy is `choose(game, rng) -> Action`.

A policy acting for a seat reads only what that player knows: its own hand, the cards its
partner showed it (`game.shown_to(seat)`, TD-SET-3), and the table (cards played, heroes, ball,
series, score, hand sizes). Its randomness comes from its own `random.Random` (`policy_rng`),
so a bot game is a pure function of its options, policies and seed.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Protocol

from play.touchdown.actions import (
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
from play.touchdown.cards import DECK, SUIT_LETTERS, TEAM_OF, Card
from play.touchdown.effects import EffectSet, Step
from play.touchdown.game import (
    CHOOSE_CARD,
    CHOOSE_HERO,
    CHOOSE_SUIT,
    FOLLOW,
    KICKOFF_CHOICE,
    LEAD,
    SHOW,
    Game,
)
from play.touchdown.options import (
    COMBINATION_BONUS,
    KICK_POINTS,
    LONG_TOUCHDOWN_POINTS,
    NORMAL_KICK_BALL,
    TOUCHDOWN_POINTS,
    TURNOVER_SUM,
)


class Policy(Protocol):
    name: str

    def choose(self, game: Game, rng: random.Random) -> Action: ...


def policy_rng(seed: int, seat: int) -> random.Random:
    """Return the policy random source for one seat of the game with this seed."""
    return random.Random(f"touchdown-policy:{seed}:{seat}")


class LazyPolicyRng:
    """`policy_rng(seed, seat)`, seeded only when a policy first draws from it.

    Seeding a Random from a string hashes it (about a tenth of a millisecond), and the greedy
    bot never draws: a game of four greedy seats now seeds none of the four. The draws are
    the very ones `policy_rng` gives, in the same order."""

    def __init__(self, seed: int, seat: int) -> None:
        self._key = f"touchdown-policy:{seed}:{seat}"

    def __getattr__(self, name: str):  # only for names not yet found: the first use of each
        rng = self.__dict__.get("_rng")
        if rng is None:
            rng = self.__dict__["_rng"] = random.Random(self._key)
        value = getattr(rng, name)
        if callable(value):
            self.__dict__[name] = value  # a bound method: later lookups are plain
        return value


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, game: Game, rng: random.Random) -> Action:
        if game.decision == SHOW:  # the same as a choice among all 84 sets, without listing them
            chosen = rng.sample(game.hands[game.actor], 3)
            return ShowCards(game.actor, tuple(card.id for card in chosen))
        return rng.choice(game.legal_actions())


# DRIVE_POINTS[b]: the points a drive starting at ball b scores on average (greedy against
# greedy, bare rules, normal kick-offs only; measured by `bench/touchdown.py drives`).
DRIVE_POINTS = (2.8, 2.7, 2.55, 2.45, 2.33, 2.19, 2.1, 1.84, 1.67, 1.36, 1.22)
TOUCHDOWN_WORTH = 6.0  # a touchdown in "squares" when weighing a trick
STOP_WORTH = 3.0  # a defense's stop, in the same units
KEEP_COST = 0.12  # what keeping one number lower is worth for later tricks


def _drive_value(ball: int) -> float:
    return DRIVE_POINTS[max(0, min(ball, 10))]


_WORTH: dict[int, tuple[EffectSet, tuple[tuple[float, ...], tuple[float, ...]]]] = {}


def _effect_worth(effects: EffectSet) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Return (worth to an offense player, worth to a defense player) of each number's effect."""
    cached = _WORTH.get(id(effects))
    if cached is not None and cached[0] is effects:
        return cached[1]
    offense = [0.0]
    defense = [0.0]
    for steps in effects.playbook[1:]:
        off = dfn = 0.0
        for step in steps:
            kind = step.kind
            if kind == "advance":
                off += step.get("squares")
                dfn += step.get("squares")
            elif kind == "hold":
                off -= 1.5
                dfn += 1.5
            elif kind == "force_failure":
                off -= 4.0
                dfn += 4.0
            elif kind == "intercept":
                off -= 2.0
                dfn += 2.0
            else:  # choices and hero_up go the chooser's way
                off += 0.5
                dfn += 0.5
        offense.append(off)
        defense.append(dfn)
    worth = (tuple(offense), tuple(defense))
    if len(_WORTH) > 64:
        _WORTH.clear()
    _WORTH[id(effects)] = (effects, worth)
    return worth


DECK_BY_ID = {card.id: card for card in DECK}
# Actions are frozen values, so the common ones are built once and shared.
_FOLLOW = {(seat, card.id): Follow(seat, card.id) for seat in range(4) for card in DECK}
_LEAD = {
    (seat, card.id, play): Lead(seat, card.id, play)
    for seat in range(4)
    for card in DECK
    for play in ("run", "pass", "kick")
}


_SHOW_RANK = {card: (card.number, card.id) for card in DECK}  # greedy shows its lowest cards


class _View:
    """What one seat knows at a decision: the cards it cannot see, per suit as bits.

    Played cards, the seat's own hand and its partner's shown cards still in hand are
    disjoint, so the number of unseen cards needs no counting."""

    __slots__ = ("unplayed", "held", "shown", "count", "partner_known")

    def __init__(self, game: Game, seat: int) -> None:
        played = game.played
        partner = (seat + 2) & 3
        partner_known = [card for card in game._shown_cards[partner] if card.id not in played]
        self.unplayed = game.unplayed
        self.held = game._bits[seat]
        self.shown = game._shown_bits[partner]  # played ones are gone from `unplayed` anyway
        self.partner_known = partner_known
        self.count = 40 - len(played) - len(game.hands[seat]) - len(partner_known) or 1

    def unseen(self, suit: str) -> int:
        """Return the unseen cards of the suit as bits."""
        return self.unplayed[suit] & ~self.held[suit] & ~self.shown[suit]

    def beaters(self, suit: str, value: int, highest: bool) -> int:
        """Return how many unseen cards of the suit would beat `value`."""
        return _beaters(self.unseen(suit), value, highest)


def _beaters(unseen: int, value: int, highest: bool) -> int:
    if highest:
        return (unseen >> max(value, 0)).bit_count()
    if value <= 1:
        return 0
    return (unseen & ((1 << (value - 1)) - 1)).bit_count()


# NET_AT_0 - NET_PER_SQUARE * b: the points margin (the team in possession's points minus the
# other's) from a possession starting at ball b to the next kick-off, fitted to greedy against
# greedy, bare rules, normal kick-offs, 6,000 games (about 1.1 at the normal kick's 8, 0.5 at
# 10). The greedy bot's own kick-off rule weighs the variant's kick-offs with it.
NET_AT_0 = 2.0
NET_PER_SQUARE = 0.15
URGENCY_WORTH = 0.3  # how much a point of urgency (behind late: +1) favours the random kick


def _net_value(ball: int) -> float:
    return NET_AT_0 - NET_PER_SQUARE * max(0, min(ball, 10))


@lru_cache(maxsize=256)
def _kickoff_worths(
    onside_rolls: int,
    base: int,
    floor: int,
    onside_ball: int,
    normal_ball: int,
    kick: int,
    normal_kick: int,
) -> tuple[float, float]:
    """Return the kicking team's expected margin of (a normal, a random) kick-off."""
    normal = -_net_value(min(normal_ball + normal_kick, 10))
    worth = 0.0
    for roll in range(1, 7):
        if roll <= onside_rolls:
            ball = onside_ball or max(1, min(10, TURNOVER_SUM - base - roll))
            worth += _net_value(ball)
        else:
            worth -= _net_value(min(max(base + roll + kick, floor), 10))
    return normal, worth / 6


@lru_cache(maxsize=128)
def _kick_play_worth(ball: int, kick: int) -> float:
    worth = 0.0
    for roll in range(1, 7):
        rest = ball - roll - kick
        if rest <= 0:
            worth += KICK_POINTS - _drive_value(NORMAL_KICK_BALL)
        else:
            worth -= _drive_value(TURNOVER_SUM - rest)
    return worth / 6


class GreedyPolicy:
    """A one-trick heuristic that plays low to take tricks on offense and to stop them on
    defense, follows suit cheaply when it cannot win, weighs kick-offs and kick plays by the
    field and the score, and counts on the cards its partner showed."""

    name = "greedy"

    def choose(self, game: Game, rng: random.Random) -> Action:
        decision = game.decision
        seat = game.actor
        if decision == FOLLOW:
            if game._play == "kick":  # option every_player: spend the least useful card
                spare = max(game.hands[seat], key=lambda c: (c.number, c.id))
                return _FOLLOW[seat, spare.id]
            if game.heroes[seat].skill and game.can_use_skill(seat) and self._skill_now(game, seat):
                return UseSkill(seat)
            return self._follow(game, seat)
        if decision == LEAD:
            if (
                game.heroes[seat].skill
                and game.can_use_skill(seat)
                and self._skill_at_lead(game, seat)
            ):
                return UseSkill(seat)
            return self._lead(game, seat)
        if decision == KICKOFF_CHOICE:
            return self._kickoff(game, seat)
        if decision == SHOW:
            low = sorted(game.hands[seat], key=_SHOW_RANK.__getitem__)[:3]
            return ShowCards(seat, tuple(c.id for c in low))
        if decision == CHOOSE_CARD:
            return ChooseCard(seat, self._target_card(game, seat))
        if decision == CHOOSE_SUIT:
            return ChooseSuit(seat, self._suit(game, seat))
        if decision == CHOOSE_HERO:
            targets = game.choice_targets
            for wanted in (seat, (seat + 2) & 3):
                if wanted in targets:
                    return ChooseHero(seat, wanted)
            return ChooseHero(seat, targets[0])
        raise ValueError(f"Greedy has no answer for {decision!r}.")

    # ----- kick-offs and kick plays ------------------------------------------------------

    @staticmethod
    def _urgency(game: Game, seat: int) -> float:
        """Return how much the seat's team should gamble: > 0 behind late, < 0 ahead late."""
        team = TEAM_OF[seat]
        other = game.defense if game.offense == team else game.offense
        lead = game.score[team] - game.score[other]
        if game.half == 1 or lead == 0:
            return 0.0
        cards_left = len(game.hands[seat])
        late = 1.0 if cards_left <= 4 else 0.5
        return -late if lead > 0 else late

    def _kickoff(self, game: Game, seat: int) -> Action:
        """TD-KICK-1: weigh the variant's two kick-offs by the field each gives."""
        options = game.options
        minimum = game._kick_minimum
        skill_minimum = 0
        if game.can_use_skill(seat):
            for step in game.heroes[seat].skill.steps:
                if step.kind == "kick_minimum":
                    skill_minimum = step.get("ball")
        ability = options.kickoff_kick_ability
        kick = game.heroes[seat].kick if ability != "none" else 0
        normal, random_kick = _kickoff_worths(
            options.onside_rolls,
            options.random_kick_base,
            max(minimum, skill_minimum),
            options.onside_ball,
            options.normal_kick_ball,
            kick,
            kick if ability == "both" else 0,
        )
        if random_kick + URGENCY_WORTH * self._urgency(game, seat) > normal:
            if skill_minimum > minimum:
                return UseSkill(seat)
            return KickOff(seat, "random")
        return KickOff(seat, "normal")

    def _kick_worth(self, game: Game, seat: int) -> float:
        """Return the expected points difference of a kick play now (TD-KICK-2)."""
        return _kick_play_worth(game.ball, game.heroes[seat].kick)

    # ----- leading -----------------------------------------------------------------------

    def _lead(self, game: Game, seat: int) -> Action:
        # what this seat cannot see (as _View, inlined: the bot's second hottest path)
        hands = game.hands
        hand = hands[seat]
        played = game.played
        partner = (seat + 2) & 3
        partner_known = [card for card in game._shown_cards[partner] if card.id not in played]
        count = 40 - len(played) - len(hand) - len(partner_known) or 1
        unplayed, held, shown = game.unplayed, game._bits[seat], game._shown_bits[partner]
        ball = game.ball
        opponents = len(hands[(seat + 1) & 3]) + len(hands[(seat + 3) & 3])
        keep = 1.0 - opponents / count  # chance an unseen card is not with an opponent
        best = None
        for card in hand:
            taker = card.number
            combo = 0
            suit = card.suit
            for known in partner_known:
                if known.suit == suit and known.number < taker:
                    taker = known.number
                    combo = COMBINATION_BONUS
            # the unseen cards of the suit that would beat it, lowest wins (_beaters inlined)
            if taker <= 1:
                chance = 1.0  # keep ** 0
            else:
                unseen = unplayed[suit] & ~held[suit] & ~shown[suit]
                chance = keep ** (unseen & ((1 << (taker - 1)) - 1)).bit_count()
            advance = taker + combo
            if advance >= ball:
                gain = TOUCHDOWN_WORTH + (advance > ball)
            else:
                gain = advance
            score = chance * gain - KEEP_COST * (10 - card.number)
            if best is None or score > best[0]:
                best = (score, card, chance, advance)
        _, card, chance, advance = best
        if game.series == 1:
            trick = chance * (
                (TOUCHDOWN_POINTS if advance == ball else LONG_TOUCHDOWN_POINTS)
                - _drive_value(NORMAL_KICK_BALL)
                if advance >= ball
                else -_drive_value(TURNOVER_SUM - ball + advance)
            ) - (1 - chance) * _drive_value(TURNOVER_SUM - ball)
            if self._kick_worth(game, seat) > trick:
                spare = max(hand, key=lambda c: (c.number, c.id))
                return _LEAD[seat, spare.id, "kick"]
        return _LEAD[seat, card.id, "run" if chance >= 0.5 else "pass"]

    def _skill_at_lead(self, game: Game, seat: int) -> bool:
        return any(step.kind == "advance" for step in game.heroes[seat].skill.steps)

    # ----- following ---------------------------------------------------------------------

    def _follow(self, game: Game, seat: int) -> Action:
        suit = game._led_suit
        playable = game.hands[seat]
        if game._play == "run" and game._bits[seat][suit]:  # TD-PLAY-2, as game.playable
            playable = [card for card in playable if card.suit == suit]
        if len(playable) == 1:
            return _FOLLOW[seat, playable[0].id]
        # what this seat cannot see (as _View, inlined: this is the bot's hottest path)
        played = game.played
        partner = (seat + 2) & 3
        partner_known = [card for card in game._shown_cards[partner] if card.id not in played]
        hands = game.hands
        count = 40 - len(played) - len(hands[seat]) - len(partner_known) or 1
        unseen = game.unplayed[suit] & ~game._bits[seat][suit] & ~game._shown_bits[partner][suit]
        team = TEAM_OF[seat]
        attacking = game.offense == team
        leader, value = game.trick_leader()
        highest = game._highest
        partner_after = False
        opponents_after = 0
        for k in range(1, 4 - game.trick_size):  # the players after this one
            after = (seat + k) & 3
            if after == partner:
                partner_after = True
            else:
                opponents_after += len(hands[after])
        keep = 1.0 - opponents_after / count
        ball = game.ball
        combo_seat = (game.trick_lead_seat + 2) & 3
        # the chance this seat's team takes the trick, and what it is worth, if this seat
        # does not change the leader
        beaters = _beaters(unseen, value, highest)
        if TEAM_OF[leader] == team:
            chance = keep**beaters
        elif partner_after:
            chance = 0.0
            for known in partner_known:
                if known.suit == suit and (
                    known.number > value if highest else known.number < value
                ):
                    chance = 0.8
            if not chance:
                unknown = len(hands[partner]) - len(partner_known)
                chance = 0.7 * (1.0 - (1.0 - unknown / count) ** beaters)
        else:
            chance = 0.0
        if not attacking:
            standing = chance * STOP_WORTH
        elif chance:
            taker = value if TEAM_OF[leader] == team else max(value - 1, 1)
            advance = taker + (COMBINATION_BONUS if leader == combo_seat else 0)
            standing = chance * (TOUCHDOWN_WORTH + (advance > ball) if advance >= ball else advance)
        else:
            standing = 0.0
        worth = _effect_worth(game.options.effects)[0 if attacking else 1]
        bonus = 0 if combo_seat != seat else COMBINATION_BONUS
        best_score = 0.0
        best = None
        for card in playable:
            number = card.number
            if card.suit != suit:
                score = standing + worth[number]
            elif number >= value if highest else number <= value:
                if highest:
                    beaten = (unseen >> number).bit_count()
                else:
                    beaten = (unseen & ((1 << (number - 1)) - 1)).bit_count()
                if not attacking:
                    score = keep**beaten * STOP_WORTH
                else:
                    advance = number + bonus
                    if advance >= ball:
                        score = keep**beaten * (TOUCHDOWN_WORTH + (advance > ball))
                    else:
                        score = keep**beaten * advance
            else:
                score = standing
            score -= KEEP_COST * (10 - number)
            if best is None or score > best_score:
                best_score, best = score, card
        return _FOLLOW[seat, best.id]

    def _skill_now(self, game: Game, seat: int) -> bool:
        """Return whether to use the hero's skill before following."""
        team = TEAM_OF[seat]
        attacking = game.offense == team
        leader_seat, value = game.trick_leader()
        ours = TEAM_OF[leader_seat] == team
        last = len(game.trick) == 3
        for step in game.heroes[seat].skill.steps:
            kind = step.kind
            if kind == "advance" and attacking and ours and last:
                return True
            if kind in ("hold", "force_failure", "intercept") and not attacking and not ours:
                if last or not self._can_beat(game, seat, value):
                    return True
            if kind == "win_rule":
                highest = step.get("rule") == "highest"
                if highest != (game.win_rule == "highest") and not ours:
                    turned = game.trick_leader(highest=highest)
                    if TEAM_OF[turned[0]] == team:
                        return True
            if kind == "cancel_card" and not ours and leader_seat != game.trick[0][0]:
                return True
            if kind == "card_value" and not ours and self._best_target(game, seat, step):
                return True
            if kind == "hero_up" and not game.hero_up[(seat + 2) & 3]:
                return True
        return False

    @staticmethod
    def _can_beat(game: Game, seat: int, value: int) -> bool:
        suit = game.led_suit
        highest = game.win_rule == "highest"
        return any(
            c.suit == suit and (c.number >= value if highest else c.number <= value)
            for c in game.hands[seat]
        )

    # ----- choices an effect asks for ------------------------------------------------------

    def _best_target(self, game: Game, seat: int, step: Step) -> str | None:
        """Return the played card whose change makes this seat's team take the trick."""
        team = TEAM_OF[seat]
        attacking = game.offense == team
        best = None
        if step.kind == "cancel_card":
            targets = [
                c.id
                for s, c in game.trick[1:]
                if c.suit == game.led_suit or c.id in game.choice_targets
            ]
            targets = list(game.choice_targets) if game.decision == CHOOSE_CARD else targets
        else:
            targets = [c.id for _, c in game.trick]
        for card_id in targets:
            if step.kind == "cancel_card":
                leader = game.trick_leader(cancelled=game._cancelled | {card_id})
            else:
                leader = game.trick_leader(values={**game._values, card_id: step.get("value")})
            if leader is None or TEAM_OF[leader[0]] != team:
                continue
            score = leader[1] if attacking else 0
            if best is None or score > best[0]:
                best = (score, card_id)
        return best[1] if best else None

    def _target_card(self, game: Game, seat: int) -> str:
        step = game.pending_step
        chosen = self._best_target(game, seat, step)
        if chosen is not None:
            return chosen
        team = TEAM_OF[seat]
        for s, card in reversed(game.trick):  # else harm the other team's latest card
            if TEAM_OF[s] != team and card.id in game.choice_targets:
                return card.id
        return game.choice_targets[0]

    def _suit(self, game: Game, seat: int) -> str:
        view = _View(game, seat)
        leader = game.trick_leader()
        if leader is not None and TEAM_OF[leader[0]] != TEAM_OF[seat]:
            for known in sorted(view.partner_known, key=lambda c: c.number):
                return known.suit
        mine = {suit: 0 for suit in SUIT_LETTERS}
        for card in game.hands[seat]:
            mine[card.suit] += 1
        return min(SUIT_LETTERS, key=lambda s: (view.unseen(s).bit_count() - mine[s], s))


POLICIES: dict[str, Policy] = {policy.name: policy for policy in (RandomPolicy(), GreedyPolicy())}


__all__ = ["POLICIES", "Card", "GreedyPolicy", "Policy", "RandomPolicy", "policy_rng"]
