"""Whole matches: play_match, goldfish, outcomes and replaying logs."""

import dataclasses
import gc
import json

import pytest

from play.engine.match import IllegalDeck, Match
from play.engine.options import Options
from play.engine.policies import policy_rng
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


class _Watching:
    """A greedy policy that records whether automatic collection was on at each decision."""

    def __init__(self, inner=None):
        from play.engine.policies import get_policy

        self.greedy = get_policy("greedy")
        self.name = "greedy"
        self.seen = set()
        self.inner = inner  # a match to play inside the first decision (nesting)

    def choose(self, state, rng):
        self.seen.add(gc.isenabled())
        if self.inner is not None:
            inner, self.inner = self.inner, None
            inner()
            self.seen.add(gc.isenabled())  # the inner match's end must not switch it back on
        return self.greedy.choose(state, rng)


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_a_logged_match_pauses_the_collector_and_switches_it_back_on(collector_on):
    watch = _Watching()
    outcome = play_match(DECK_A, DECK_B, policy_a=watch, policy_b="greedy", seed=3)
    assert watch.seen == {False}
    assert gc.isenabled()
    check_log(outcome.log)  # the goldens and test_speed_paths compare logs byte for byte


def test_a_match_without_a_log_leaves_the_collector_alone(collector_on):
    watch = _Watching()
    play_match(DECK_A, DECK_B, policy_a=watch, policy_b="greedy", seed=3, log=False)
    assert watch.seen == {True}


def test_a_collector_switched_off_before_the_match_stays_off():
    was = gc.isenabled()
    gc.disable()
    try:
        play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=3)
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_nested_matches_switch_the_collector_back_on_only_at_the_outer_end(collector_on):
    inner = _Watching()
    outer = _Watching(
        inner=lambda: play_match(DECK_B, DECK_A, policy_a=inner, policy_b="greedy", seed=4)
    )
    play_match(DECK_A, DECK_B, policy_a=outer, policy_b="greedy", seed=3)
    assert outer.seen == {False} and inner.seen == {False}
    assert gc.isenabled()


def test_a_match_that_raises_still_switches_the_collector_back_on(collector_on):
    class Broken:
        name = "broken"

        def choose(self, state, rng):
            raise RuntimeError("policy failed")

    with pytest.raises(RuntimeError, match="policy failed"):
        play_match(DECK_A, DECK_B, policy_a=Broken(), policy_b="greedy", seed=3)
    assert gc.isenabled()


def test_the_paused_collector_still_frees_a_policys_cyclic_garbage(collector_on, monkeypatch):
    # A policy leaving a reference cycle behind at every decision: inside the pause the young
    # generation is collected by hand past PAUSED_YOUNG_LIMIT, so the garbage stays bounded.
    import weakref

    import play.engine.runner as runner

    monkeypatch.setattr(runner, "PAUSED_YOUNG_LIMIT", 2_000)
    made = []
    most_alive = 0

    class Node:
        pass

    class Cyclic(_Watching):
        def choose(self, state, rng):
            nonlocal most_alive
            a, b = Node(), Node()
            a.other, b.other = b, a
            a.pad = [[] for _ in range(50)]
            made.append(weakref.ref(a))
            most_alive = max(most_alive, sum(ref() is not None for ref in made))
            return super().choose(state, rng)

    play_match(DECK_A, DECK_B, policy_a=Cyclic(), policy_b="greedy", seed=3)
    assert len(made) > 100
    assert most_alive < 100  # about 2,000 / 52 objects a decision, never all of them


def test_overlapping_matches_in_two_threads_leave_the_collector_on(collector_on):
    # First in, first out: A enters, B enters, A leaves while B plays on, B leaves. A pause that
    # only remembered "was it on?" would let A switch it on under B, and B switch it off for good.
    import threading

    a_inside, b_inside, a_done = threading.Event(), threading.Event(), threading.Event()
    seen_by_b_after_a = []

    class First(_Watching):
        def choose(self, state, rng):
            if not a_inside.is_set():
                a_inside.set()
                assert b_inside.wait(30)
            return super().choose(state, rng)

    class Second(_Watching):
        def choose(self, state, rng):
            if not b_inside.is_set():
                b_inside.set()
                assert a_done.wait(30)
                seen_by_b_after_a.append(gc.isenabled())
            return super().choose(state, rng)

    def first():
        play_match(DECK_A, DECK_B, policy_a=First(), policy_b="greedy", seed=3)
        a_done.set()

    def second():
        assert a_inside.wait(30)
        play_match(DECK_B, DECK_A, policy_a=Second(), policy_b="greedy", seed=4)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert seen_by_b_after_a == [False]  # still paused for B after A's match ended
    assert gc.isenabled()


@pytest.fixture
def thresholds_kept():
    gc.collect()  # undoes any raise an earlier logged match left
    was = gc.get_threshold()
    yield was
    gc.set_threshold(*was)


def test_leaving_the_pause_defers_the_young_collection_by_what_the_match_made(
    collector_on, thresholds_kept
):
    # The log is handed out in the young generation: collecting it the moment the pause ends
    # would walk all of it just before a batch drops it (docs/performance.md, fourth pass).
    gc.collect()
    young_before = gc.get_stats()[0]["collections"]
    outcome = play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=3)
    raised = gc.get_threshold()
    assert raised[0] > thresholds_kept[0] and raised[1:] == thresholds_kept[1:]
    assert gc.get_stats()[0]["collections"] == young_before
    del outcome
    gc.collect(0)  # the next collection to start undoes the raise
    assert gc.get_threshold() == thresholds_kept


def test_the_next_logged_match_undoes_the_raise_before_its_own(collector_on, thresholds_kept):
    import play.engine.runner as runner

    seen = []

    class Looking(_Watching):
        def choose(self, state, rng):
            seen.append(gc.get_threshold())
            return super().choose(state, rng)

    play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=3)
    play_match(DECK_A, DECK_B, policy_a=Looking(), policy_b="greedy", seed=4)
    assert set(seen) == {thresholds_kept}  # inside the pause: the threshold as it was
    runner._lower_young_threshold()
    assert gc.get_threshold() == thresholds_kept


def test_a_threshold_set_meanwhile_or_set_to_zero_is_left_alone(collector_on, thresholds_kept):
    play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=3)
    gc.set_threshold(500, 10, 10)
    gc.collect(0)
    play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=4)
    gc.set_threshold(500, 10, 10)
    play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=5)
    assert gc.get_threshold()[0] > 500  # raised from the 500 found on entering
    gc.collect(0)
    assert gc.get_threshold() == (500, 10, 10)
    gc.set_threshold(0)  # automatic collection switched off through the threshold
    play_match(DECK_A, DECK_B, policy_a="greedy", policy_b="greedy", seed=6)
    assert gc.get_threshold()[0] == 0 and gc.isenabled()


def test_cyclic_garbage_stays_bounded_over_many_logged_matches(collector_on, thresholds_kept):
    # What a match leaves behind is exempt from the young threshold only until the match after
    # the next one leaves the pause: garbage of earlier matches then counts as usual.
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
