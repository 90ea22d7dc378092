"""The policy and chance speed paths of issue #11 change no result (docs/performance.md).

A shuffle's id order (each distinct id sorted once, a known deck's order reused) is
`sorted(cards, key=attrgetter("id"))`; greedy and passive get no policy rng, any other
policy still gets its own seeded one.
"""

import random
from operator import attrgetter

from play.engine.chance import Chance, _id_order
from play.engine.policies import get_policy, policy_rng
from play.engine.runner import play_match
from play.engine.testing import player, sample_side_deck


def _deck(rng: random.Random) -> list:
    kinds = [player(f"C{i:02d}", i % 4, person=f"p{i}") for i in range(12)]
    twins = [player(f"C{i:02d}", i % 4, person=f"p{i}") for i in range(0, 12, 3)]  # equal copies
    return [rng.choice(kinds + twins) for _ in range(rng.randint(0, 70))]


def test_the_id_order_is_the_stable_sort_by_id_also_when_remembered():
    rng = random.Random(7)
    for _ in range(300):
        cards = _deck(rng)
        expected = sorted(cards, key=attrgetter("id"))
        for _ in range(2):  # the second time from the remembered order
            got = _id_order(cards)
            assert [id(c) for c in got] == [id(c) for c in expected]
            got.reverse()  # the caller owns the list: the remembered order is not touched
        if len(cards) > 2:  # same length, first and last card: must not reuse the order
            changed = [cards[0], *reversed(cards[1:-1]), cards[-1]]
            expected = sorted(changed, key=attrgetter("id"))
            assert [id(c) for c in _id_order(changed)] == [id(c) for c in expected]
        assert [id(c) for c in _id_order(iter(cards))] == [
            id(c) for c in sorted(cards, key=attrgetter("id"))
        ]


def test_a_shuffle_of_copies_is_random_shuffle_of_the_sorted_cards():
    rng = random.Random(3)
    for seed in range(100):
        cards = _deck(rng)
        expected = sorted(cards, key=attrgetter("id"))
        reference = random.Random(seed)
        reference.shuffle(expected)
        chance = Chance(seed)
        assert [id(c) for c in chance.shuffle(cards)] == [id(c) for c in expected]
        assert chance.rng.getstate() == reference.getstate()


def test_only_policies_that_draw_get_a_policy_rng():
    seen = []

    class Recording:
        def __init__(self, name):
            self.inner = get_policy(name)
            self.name = name
            self.uses_rng = getattr(self.inner, "uses_rng", True)

        def choose(self, state, rng):
            seen.append((self.name, state.actor, rng))
            return self.inner.choose(state, rng)

    a, b = sample_side_deck(1), sample_side_deck(2)
    for policy_b in ("passive", "random"):
        seen.clear()
        play_match(a, b, policy_a=Recording("greedy"), policy_b=Recording(policy_b), seed=9)
        assert {rng for name, _, rng in seen if name == "greedy"} == {None}
        drawn = [rng for name, _, rng in seen if name == policy_b]
        if policy_b == "passive":
            assert set(drawn) == {None}
        else:
            assert len({id(rng) for rng in drawn}) == 1
            assert isinstance(drawn[0], random.Random)
    assert not get_policy("greedy").uses_rng and not get_policy("passive").uses_rng
    assert getattr(get_policy("random"), "uses_rng", True)
    # The random side's draws are still those of its seeded rng: the same match again.
    first = play_match(a, b, policy_a="greedy", policy_b="random", seed=9, log=True)
    again = play_match(a, b, policy_a="greedy", policy_b="random", seed=9, log=True)
    assert first.log == again.log
    assert policy_rng(9, "B").random() == policy_rng(9, "B").random()
