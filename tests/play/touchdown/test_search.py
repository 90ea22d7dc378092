"""The search bot (play/touchdown/search.py) and the bot ladder (play/touchdown/ladder.py).

Its play is legal, it reads nothing its seat cannot see (TD-SET-2 hidden hands and pile,
TD-SET-3 shown cards, TD-PLAY-2 voids), and a game stays a function of its seed.
"""

import copy
import random
from collections import Counter

import pytest

from play.touchdown import (
    DECK,
    Game,
    Options,
    action_from_dict,
    get_policy,
    play_game,
    replay,
)
from play.touchdown.cards import ORDER
from play.touchdown.chance import Chance
from play.touchdown.game import FOLLOW, LEAD, SHOW
from play.touchdown.ladder import Pairing, pairing
from play.touchdown.outcome import play_out
from play.touchdown.search import SearchPolicy, determinize

SEARCH = SearchPolicy(rollouts=8)  # a small budget: these tests check behaviour, not strength
GREEDY = get_policy("greedy")


class Checked:
    """The search bot, asserting that each action it chooses is legal before it is applied."""

    name = "search"

    def __init__(self):
        self.decisions = 0
        self.kinds = Counter()

    def choose(self, game, rng):
        before = game.snapshot()
        history = len(game.history)
        action = SEARCH.choose(game, rng)
        assert game.is_legal(action), (game.decision, action)
        assert game.snapshot() == before and len(game.history) == history  # searched on copies
        self.decisions += 1
        self.kinds[type(action).__name__] += 1
        return action


@pytest.mark.parametrize("effects", ["none", "example"])
def test_every_action_the_search_bot_chooses_is_legal(effects):
    options = Options(effects=effects)
    bot = Checked()
    for seed in range(4):
        play_out(options, [bot, GREEDY, bot, GREEDY], seed, False)
        play_out(options, [GREEDY, bot, GREEDY, bot], seed, False)
    assert bot.decisions > 250
    assert {"Lead", "Follow", "ShowCards"} <= set(bot.kinds)


def _positions(seeds, every=5):
    """Yield greedy games stopped at every `every`-th lead or follow decision."""
    for seed in seeds:
        log = play_game(Options(), "greedy", seed).log
        for stop in range(30, len(log["actions"]), every):
            position = replay_prefix(log, stop)
            if position.decision in (LEAD, FOLLOW):
                yield position


def replay_prefix(log, count):
    game = Game.new(seed=log["seed"], options=Options())
    for data in log["actions"][:count]:
        game.apply_action(action_from_dict(data))
    return game


def _hidden_variant(game, rng):
    """Return a copy of `game` that differs only in what the deciding seat cannot see.

    The cards it cannot see (the two other hands, its partner's unshown cards and the unused
    pile) are dealt again among those places, respecting every public TD-PLAY-2 void; the
    cards the other pair showed each other, the seed and the future chance change too."""
    seat = game.actor
    partner = (seat + 2) & 3
    known = {c for c in game._shown_cards[partner] if c.id not in game.played}
    places = [(seat + 1) & 3, partner, (seat + 3) & 3, None]
    holdings = {
        (seat + 1) & 3: list(game.hands[(seat + 1) & 3]),
        partner: [c for c in game.hands[partner] if c not in known],
        (seat + 3) & 3: list(game.hands[(seat + 3) & 3]),
        None: list(game.pile),
    }
    pool = [card for place in places for card in holdings[place]]
    for _ in range(200):
        rng.shuffle(pool)
        dealt, start = {}, 0
        for place in places:
            dealt[place] = pool[start : start + len(holdings[place])]
            start += len(holdings[place])
        voids_kept = all(
            card.suit not in game.voids[place] for place in places[:3] for card in dealt[place]
        )
        if voids_kept and dealt != holdings:
            break
    else:
        return None
    variant = copy.copy(game)
    variant.seed = game.seed + 12345
    variant._chance = Chance(game.seed + 12345)
    variant.hands = [list(hand) for hand in game.hands]
    for place in places[:3]:
        mine = known if place == partner else set()
        variant.hands[place] = sorted([*mine, *dealt[place]], key=lambda c: ORDER[c.id])
    variant.pile = dealt[None]
    variant._bits = [dict.fromkeys(bits, 0) for bits in game._bits]
    for hand, bits in zip(variant.hands, variant._bits, strict=True):
        for card in hand:
            bits[card.suit] |= 1 << (card.number - 1)
    variant.shown = list(game.shown)
    variant._shown_cards = list(game._shown_cards)
    variant._shown_bits = list(game._shown_bits)
    for other in ((seat + 1) & 3, (seat + 3) & 3):
        chosen = tuple(variant.hands[other][:3])
        variant.shown[other] = tuple(c.id for c in chosen)
        variant._shown_cards[other] = chosen
        bits = dict.fromkeys(game._shown_bits[other], 0)
        for card in chosen:
            bits[card.suit] |= 1 << (card.number - 1)
        variant._shown_bits[other] = bits
    variant.voids = [set(v) for v in game.voids]
    return variant


def test_hidden_cards_do_not_change_the_decision():
    """Two games that differ only in what the seat cannot see: the same decision, per seed."""
    rng = random.Random(3)
    compared = changed_hands = 0
    for position in _positions(range(3)):
        variant = _hidden_variant(position, rng)
        if variant is None:
            continue
        seat = position.actor
        assert variant.hands[seat] == position.hands[seat]
        others = [(seat + 1) & 3, (seat + 3) & 3]
        changed_hands += any(variant.hands[o] != position.hands[o] for o in others)
        for seed in (1, 2):
            mine = SEARCH.choose(position, random.Random(seed))
            theirs = SEARCH.choose(variant, random.Random(seed))
            assert mine == theirs, (position.snapshot(seat), mine, theirs)
        compared += 1
    assert compared >= 20 and changed_hands >= 15


def test_a_peeking_bot_would_be_caught():
    """The comparison above can fail: a bot that reads an opponent's hand differs."""

    class Peeking:
        def choose(self, game, rng):
            opponent = game.hands[(game.actor + 1) & 3]
            return opponent[0].id if opponent else None

    rng = random.Random(3)
    differs = 0
    for position in _positions(range(2)):
        variant = _hidden_variant(position, rng)
        if variant is not None:
            peek = Peeking()
            differs += peek.choose(position, rng) != peek.choose(variant, rng)
    assert differs > 0


def test_a_world_keeps_what_the_seat_knows_and_redeals_the_rest():
    checked = 0
    for position in _positions(range(2), every=7):
        seat = position.actor
        partner = (seat + 2) & 3
        world = determinize(position, seat, random.Random(9))
        # every card once: played, in a hand or in the unused pile (TD-SET-2)
        everywhere = [c.id for hand in world.hands for c in hand] + [c.id for c in world.pile]
        assert Counter(everywhere + sorted(world.played)) == Counter(c.id for c in DECK)
        assert world.hands[seat] == position.hands[seat]
        assert [len(h) for h in world.hands] == [len(h) for h in position.hands]
        shown_held = {c for c in position._shown_cards[partner] if c.id not in position.played}
        assert shown_held <= set(world.hands[partner])  # TD-SET-3
        for other in range(4):
            for card in world.hands[other]:
                if card not in position.hands[other]:
                    assert card.suit not in position.voids[other]  # TD-PLAY-2
        assert world.trick == position.trick and world.score == position.score
        checked += 1
    assert checked >= 10


def test_voids_are_the_public_suits_a_seat_did_not_follow_in_a_run():
    """TD-PLAY-2: a seat that does not follow a run holds none of the led suit."""
    found = 0
    for seed in range(3):
        game = Game.new(seed=seed)
        rng = random.Random(seed)
        while game.decision is not None:
            seat, half = game.actor, game.half
            before = [set(v) for v in game.voids]
            void = None
            if game.decision == FOLLOW and game.play == "run":
                if not any(card.suit == game.led_suit for card in game.hands[seat]):
                    void = game.led_suit
            game.apply_action(GREEDY.choose(game, rng))
            if game.half != half:
                assert game.voids == [set(), set(), set(), set()]  # a new deal (TD-END-1)
                continue
            expected = [set(v) for v in before]
            if void is not None:
                expected[seat].add(void)
                found += 1
            assert game.voids == expected
            for other in range(4):
                for suit in game.voids[other]:
                    assert all(card.suit != suit for card in game.hands[other])
    assert found >= 5


def test_a_search_game_is_a_function_of_its_seed_and_replays():
    seats = ["search", "greedy", "search", "greedy"]
    first = play_game(Options(), seats, 5).log
    again = play_game(Options(), seats, 5).log
    assert first == again
    assert replay(first).result == first["result"]
    assert [seat["policy"] for seat in first["seats"]] == seats


def test_the_show_is_greedy_s_and_the_search_bot_is_listed():
    position = replay_prefix(play_game(Options(), "greedy", 0).log, 0)
    assert position.decision == SHOW  # the first decision of a game (TD-SET-3)
    assert SEARCH.choose(position, random.Random(0)) == GREEDY.choose(position, random.Random(0))
    assert get_policy("search").name == "search"


def test_a_small_ladder_counts_every_game_with_the_seats_swapped():
    result = pairing(SEARCH, "random", range(3))
    assert result.games == 6
    assert result.wins + result.draws + result.losses == 6
    low, high = result.interval
    assert 0 <= low <= result.rate <= high <= 1
    assert result.wins >= 4  # against random even a small search wins most games


def test_the_wilson_interval():
    result = Pairing("a", "b", 100, 60, 0)
    low, high = result.interval
    assert low == pytest.approx(0.5020, abs=1e-4) and high == pytest.approx(0.6906, abs=1e-4)
    assert result.clear
    drawn = Pairing("a", "b", 100, 50, 20)
    assert drawn.rate == 0.6 and drawn.interval == result.interval
    assert not Pairing("a", "b", 100, 55, 0).clear
    total = result + drawn
    assert (total.games, total.wins, total.draws) == (200, 110, 20)
    with pytest.raises(ValueError):
        result + Pairing("a", "c", 10, 5, 0)
