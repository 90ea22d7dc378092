"""Whole matches: play_match, goldfish, outcomes and replaying logs."""

import dataclasses
import gc
import json
import random

import pytest

from play.engine.match import IllegalDeck, Match
from play.engine.options import Options
from play.engine.policies import get_policy, policy_rng
from play.engine.runner import (
    ReplayMismatch,
    goldfish,
    outcome_of,
    play_match,
    replay,
    side_decks_from_log,
)
from play.engine.testing import sample_side_deck

from .referee import check_log

DECK_A = sample_side_deck(10)
DECK_B = sample_side_deck(20)


def test_a_match_is_a_pure_function_of_decks_policies_options_and_seed():
    first = play_match(DECK_A, DECK_B, policy_a="random", policy_b="greedy", seed=8)
    again = play_match(DECK_A, DECK_B, policy_a="random", policy_b="greedy", seed=8)
    assert json.dumps(first.log) == json.dumps(again.log)
    other = play_match(DECK_A, DECK_B, policy_a="random", policy_b="greedy", seed=9)
    assert json.dumps(other.log) != json.dumps(first.log)


def test_the_listed_order_of_deck_cards_does_not_change_the_match():
    shuffled = dataclasses.replace(DECK_A, cards=tuple(reversed(DECK_A.cards)))
    first = play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=4)
    again = play_match(shuffled, DECK_B, policy_a="greedy", policy_b="greedy", seed=4)
    assert first.log == again.log


def test_the_outcome_sums_up_the_match():
    outcome = play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="random", seed=5)
    log = outcome.log
    kinds = [e["type"] for e in log["events"]]
    for side in "AB":
        assert (
            sum(outcome.goals_by_half[side]) == outcome.goals[side] == log["result"]["goals"][side]
        )
        shots = [e for e in log["events"] if e["type"] == "kick" and e["shot"]]
        assert outcome.shots[side] + outcome.shots[_other(side)] == len(shots)
    assert sum(outcome.turns_by_half) == kinds.count("turn_start")
    ends = [e["side"] for e in log["events"] if e["type"] == "half_end"]
    assert list(outcome.deck_out_by_half) == ends
    assert outcome.winner == log["result"]["winner"]
    assert outcome.pk == (log["result"]["pk"] is not None)
    assert outcome.to_dict()["result"] == log["result"]


def _other(side):
    return "B" if side == "A" else "A"


def test_without_a_log_the_outcome_is_the_same():
    with_log = play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=6)
    without = play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=6, log=False)
    assert without.log is None
    assert dataclasses.replace(with_log, log=None) == without


def test_the_log_names_the_policies_and_the_house_rules():
    log = play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="random", seed=1).log
    assert (log["sides"]["A"]["policy"], log["sides"]["B"]["policy"]) == ("greedy", "random")
    house = log["rules"]["house"]
    assert house["halftime_keep_hands"] is False and house["max_back_passes"] == 3
    assert house["pk_never_decisive"] == "coin_toss"


def test_goldfish_plays_against_a_passive_side_b():
    outcome = goldfish(DECK_A, DECK_B, seed=2)
    assert outcome.log["sides"]["B"]["policy"] == "passive"
    plays_b = [e for e in outcome.log["events"] if e["type"] == "play" and e["side"] == "B"]
    assert all(e["cards"] == [] for e in plays_b)
    assert outcome.goals["A"] > outcome.goals["B"]


def test_an_illegal_deck_is_refused_with_every_problem():
    short = dataclasses.replace(DECK_A, cards=DECK_A.cards[:58] + (DECK_A.goalkeeper,))
    with pytest.raises(IllegalDeck) as error:
        Match.new(short, DECK_B, seed=1)
    assert error.value.side == "A"
    assert [p.rule for p in error.value.problems] == ["R-DECK-1", "R-DECK-2"]


def test_two_definitions_of_one_card_id_are_refused():
    card = next(card for card in DECK_B.cards if card.kind == "player")
    changed = dataclasses.replace(card, keep=card.keep + 1)
    clash = dataclasses.replace(DECK_A, bench=(changed,))
    with pytest.raises(ValueError, match="two different definitions"):
        Match.new(clash, DECK_B, seed=1)


@pytest.mark.parametrize("policies", [("greedy", "random"), ("random", "random")])
def test_replaying_a_log_rebuilds_the_same_match(policies):
    outcome = play_match(DECK_A, DECK_B, policy_a=policies[0], policy_b=policies[1], seed=12)
    match = replay(outcome.log)
    assert json.dumps(match.to_log()) == json.dumps(outcome.log)
    assert outcome_of(match).result == outcome.result


def test_replay_uses_the_house_rules_of_the_log():
    options = Options(halftime_keep_hands=True, max_back_passes=1)
    outcome = play_match(
        DECK_A, DECK_B, policy_a="random", policy_b="random", seed=3, options=options
    )
    assert replay(outcome.log).options == options


def test_a_tampered_log_does_not_replay():
    log = play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=7).log
    log["result"]["winner"] = _other(log["result"]["winner"])
    with pytest.raises(ReplayMismatch):
        replay(log)


def test_a_log_from_other_house_rules_is_refused():
    log = play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=7).log
    log["rules"]["house"]["pk_never_decisive"] = "replay_forever"
    with pytest.raises(ValueError, match="not this engine's"):
        replay(log)


def test_decks_come_back_from_a_log():
    log = play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=7).log
    side_a, _ = side_decks_from_log(log)
    assert sorted(c.id for c in side_a.cards) == sorted(c.id for c in DECK_A.cards)
    assert side_a.goalkeeper == DECK_A.goalkeeper
    assert side_a.pk_goalkeeper == DECK_A.pk_goalkeeper
    assert sorted(c.id for c in side_a.bench) == sorted(c.id for c in DECK_A.bench)


def test_a_solo_game_saved_as_seed_and_actions_reloads():
    from play.engine.actions import action_from_dict, action_to_dict

    outcome = play_match(DECK_A, DECK_B, policy_a="random", policy_b="greedy", seed=9)
    match = replay(outcome.log)
    saved = [action_to_dict(action) for action in match.history]
    reloaded = Match.new(DECK_A, DECK_B, seed=9)
    for data in json.loads(json.dumps(saved)):
        reloaded.apply_action(action_from_dict(data))
    assert reloaded.is_terminal() and reloaded.result == outcome.result
    check_log(reloaded.to_log())


def test_policy_randomness_is_derived_from_the_seed_and_side():
    assert policy_rng(5, "A").random() == policy_rng(5, "A").random()
    assert policy_rng(5, "A").random() != policy_rng(5, "B").random()


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


class _Watching:
    """A greedy policy that records whether automatic collection was on at each decision."""

    def __init__(self):
        self.greedy = get_policy("greedy")
        self.name = "greedy"
        self.seen = set()

    def choose(self, state, rng):
        self.seen.add(gc.isenabled())
        return self.greedy.choose(state, rng)


def _collector_settings() -> tuple:
    return gc.isenabled(), gc.get_threshold(), list(gc.callbacks), gc.get_freeze_count()


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.mark.parametrize("log", [True, False])
def test_a_match_leaves_the_collector_as_it_found_it(collector_on, log):
    # Process-wide collector settings belong where a process starts (play/collector.py), so
    # the web process, which plays solo games and replays, keeps Python's defaults.
    before = _collector_settings()
    watch = _Watching()
    outcome = play_match(DECK_A, DECK_B, policy_a=watch, policy_b="greedy", seed=3, log=log)
    assert watch.seen == {True}
    assert _collector_settings() == before
    if log:
        check_log(outcome.log)


def test_a_collector_switched_off_before_the_match_stays_off():
    was = gc.isenabled()
    gc.disable()
    try:
        play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=3)
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_cyclic_garbage_stays_bounded_over_many_logged_matches(collector_on):
    # The engine holds back no collection: a policy's reference cycles are freed as usual.
    import weakref

    made = []
    most_alive = 0
    per_match = []

    class Node:
        pass

    class Cyclic(_Watching):
        def choose(self, state, rng):
            a, b = Node(), Node()
            a.other, b.other = b, a
            a.pad = [[] for _ in range(20)]
            made.append(weakref.ref(a))
            return super().choose(state, rng)

    policy = Cyclic()
    for seed in range(40):
        before = len(made)
        play_match(DECK_A, DECK_B, policy_a=policy, policy_b="greedy", seed=seed)
        per_match.append(len(made) - before)
        most_alive = max(most_alive, sum(ref() is not None for ref in made))
        made = [ref for ref in made if ref() is not None]
    assert sum(per_match) > 4_000  # ~140 cycles a match, ~22 objects each
    assert most_alive < 3 * max(per_match)  # two matches' garbage and a young generation's
