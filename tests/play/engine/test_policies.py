"""The bot policies: random, greedy, passive and search, and the ladder of their strengths."""

import random

import pytest

from play.engine.actions import ChooseGoalKick, ChooseShot, HalftimeSwaps, PlayCards
from play.engine.match import HALFTIME, SHOT, Match
from play.engine.options import Options
from play.engine.policies import LADDER, POLICIES, SearchPolicy, _card_facts, get_policy
from play.engine.runner import play_match
from play.engine.testing import event, goalkeeper, player, sample_side_deck, stacked_match

from .scripts import last, pass_turn, pass_until, play, shoot

RNG = random.Random(0)


def test_policies_are_found_by_name():
    assert set(POLICIES) == {"random", "greedy", "passive", "search", "search-strong"}
    assert set(LADDER) == set(POLICIES)
    assert get_policy("greedy").name == "greedy"
    with pytest.raises(ValueError, match="Unknown policy 'clever'"):
        get_policy("clever")


@pytest.mark.parametrize("name", ["random", "greedy", "passive"])
def test_every_policy_only_chooses_legal_actions(name):
    policy = get_policy(name)
    match = Match.new(sample_side_deck(3), sample_side_deck(4), seed=1)
    rng = random.Random(1)
    while not match.is_terminal():
        action = policy.choose(match, rng)
        assert match.is_legal(action), action
        match.apply_action(action)


def test_passive_never_uses_a_card_never_shoots_and_kicks_to_the_middle():
    passive = get_policy("passive")
    match = stacked_match()
    assert passive.choose(match, RNG) == PlayCards("A", ())
    pass_until(match, SHOT)
    assert passive.choose(match, RNG) == ChooseShot("A", False)
    shoot(match)
    pass_turn(match)
    assert passive.choose(match, RNG) == ChooseGoalKick("B", "middle_zone")


def test_greedy_shoots_with_its_best_two_shooters_when_a_keep_free_shot_falls_short():
    greedy = get_policy("greedy")
    top = [
        player("A-S5", shoot=5, keep=1),
        player("A-S7", shoot=7, keep=2),
        player("A-S2", shoot=2, keep=1),
        event("A-B", "shoot:+2"),
    ]
    match = stacked_match(top)
    pass_until(match, SHOT)
    assert greedy.choose(match, RNG) == ChooseShot("A", True)
    shoot(match)
    assert greedy.choose(match, RNG) == PlayCards("A", ("A-B", "A-S5", "A-S7"))


def test_greedy_sees_that_a_keep_free_shot_cannot_be_answered():  # R-PLAY-4
    greedy = get_policy("greedy")
    top = [
        player("A-S5", shoot=5, keep=1),
        player("A-S7", shoot=7, keep=2),
        player("A-S2", shoot=2),
        event("A-B", "shoot:+2"),
    ]
    match = stacked_match(top)  # B's keeper defends 3
    pass_until(match, SHOT)
    shoot(match)
    # 2 + 2 = 4 beats 3 with no keep added: the phase ends at once (0 <= 0), a sure goal.
    action = greedy.choose(match, RNG)
    assert action == PlayCards("A", ("A-B", "A-S2"))
    match.apply_action(action)
    assert last(match, "judge")["outcome"] == "goal"


def test_greedy_defends_a_shot_with_the_cheapest_cards_that_stop_it():
    greedy = get_policy("greedy")
    match = stacked_match(
        [player("A-S6", shoot=6, keep=1)],
        [
            player("B-D2", defense=2, keep=0),
            player("B-D9", defense=9, keep=9),
            player("B-D4", defense=4, keep=0),
        ],
        keeper_b=goalkeeper("GK-B", 3),
    )
    pass_until(match, SHOT)
    shoot(match)
    play(match, "A-S6")
    # 6 against the keeper's 3: B needs 4 more to stop it; 2 would only force a corner kick.
    assert greedy.choose(match, RNG) == PlayCards("B", ("B-D4",))


def test_greedy_passes_at_timing_1_without_a_keep_free_card():  # R-PLAY-4 passes
    greedy = get_policy("greedy")
    keepers = [player(f"A-K{n}", keep=n) for n in (9, 2, 3, 4)]
    match = stacked_match(keepers)
    assert greedy.choose(match, RNG) == PlayCards("A", ())


def test_greedy_holds_the_ball_with_a_keep_free_card_at_timing_1():  # R-PLAY-4
    greedy = get_policy("greedy")
    match = stacked_match([player("A-K9", keep=9)])  # the blank fillers add no keep
    action = greedy.choose(match, RNG)
    assert action == PlayCards("A", ("FIL-001",))
    match.apply_action(action)
    assert last(match, "play_end")["reason"] == "not_ahead"
    assert last(match, "judge")["outcome"] == "hold"


# A hand whose only keep-free card is the event (the players all add keep).
_KEEPERS = [player(f"A-K{n}", keep=n) for n in (9, 2, 3)]


def test_greedy_holds_the_ball_with_a_shoot_3_event_at_timing_1():  # R-PLAY-4 passes
    # The hold wins the keep contest for one card, so greedy may spend on it what the ball is
    # worth (`_keep_worth`), not only a card of value 4 or less: with a cap of 4 it kept a
    # `shoot:+3` (value 5) and let the defense take the ball, and a deck gained about 16
    # points of win rate by swapping a `shoot:+3` for a weaker `shoot:+2` (value 4).
    greedy = get_policy("greedy")
    match = stacked_match([*_KEEPERS, event("A-S3", "shoot:+3")])
    action = greedy.choose(match, RNG)
    assert action == PlayCards("A", ("A-S3",))
    match.apply_action(action)
    assert last(match, "play_end")["reason"] == "not_ahead"
    assert last(match, "judge")["outcome"] == "hold"


def test_greedy_passes_when_the_keep_free_card_is_worth_more_than_the_ball():  # R-PLAY-4
    greedy = get_policy("greedy")
    match = stacked_match([*_KEEPERS, event("A-S30", "shoot:+30")])  # value 32 > 26
    assert greedy.choose(match, RNG) == PlayCards("A", ())


def test_greedy_spends_no_shoot_3_on_a_hold_under_the_first_edition():  # R-PLAY-4 ends_phase
    # Playing nothing ends the phase holding the ball as well (0 <= 0), so only cheap cards.
    greedy = get_policy("greedy")
    options = Options(empty_timing="ends_phase")
    match = stacked_match([*_KEEPERS, event("A-S3", "shoot:+3")], options=options)
    assert greedy.choose(match, RNG) == PlayCards("A", ())


def test_greedy_answers_a_defense_that_took_the_keep_lead():  # R-PLAY-4, R-JUDGE-5
    greedy = get_policy("greedy")
    match = stacked_match([player("A-K4", keep=4)], [player("B-K3", keep=3)])
    play(match)
    play(match, "B-K3")
    assert greedy.choose(match, RNG) == PlayCards("A", ("A-K4",))


def test_greedy_defense_takes_the_ball_after_an_empty_offense_timing():  # R-PLAY-4 passes
    greedy = get_policy("greedy")
    match = stacked_match([], [player("B-K3", keep=3)])
    play(match)
    assert greedy.choose(match, RNG) == PlayCards("B", ("B-K3",))


def test_greedy_cycles_pure_draw_events_while_holding_the_ball():
    greedy = get_policy("greedy")
    match = stacked_match([event("A-D", "draw:2"), event("A-K", "keep:+2")])
    assert greedy.choose(match, RNG) == PlayCards("A", ("A-D",))


def test_greedy_takes_the_ball_when_it_is_cheap():
    greedy = get_policy("greedy")
    match = stacked_match([player("A-K2", keep=2)], [player("B-K3", keep=3)])
    play(match, "A-K2")
    assert greedy.choose(match, RNG) == PlayCards("B", ("B-K3",))


def test_greedy_and_passive_make_no_halftime_swaps():
    for name in ("greedy", "passive"):
        match = stacked_match([event("A-DRAIN", "draw:56")])
        play(match, "A-DRAIN")
        pass_until(match, HALFTIME)
        assert get_policy(name).choose(match, RNG) == HalftimeSwaps("A", ())


def test_random_draws_every_play_of_a_small_hand_and_only_legal_ones():
    cards = [player("A-K1", keep=1), player("A-K1", keep=1), event("A-E", "draw:1")]
    match = stacked_match(cards)
    legal = set(match.legal_actions())
    assert match.legal_action_count() == len(legal)
    rng = random.Random(5)
    seen = {get_policy("random").choose(match, rng) for _ in range(400)}
    assert seen == legal


def test_search_chooses_legal_actions_and_is_a_function_of_the_seed():
    search = SearchPolicy(4, horizon=2)
    outcomes = [
        play_match(
            sample_side_deck(3),
            sample_side_deck(4),
            policy_a=search,
            policy_b="greedy",
            seed=2,
            log=True,
        )
        for _ in range(2)
    ]
    assert outcomes[0].log == outcomes[1].log
    assert outcomes[0].log["sides"]["A"]["policy"] == "search-4"


def test_search_sees_only_what_a_player_sees():
    match = Match.new(sample_side_deck(3), sample_side_deck(4), seed=1)
    world = match.determinized("A", random.Random(3))
    assert world.hand("A") == match.hand("A")
    assert sorted(c.id for c in world.hand("B")) != sorted(c.id for c in match.hand("B")) or (
        sorted(c.id for c in (*world.hand("B"), *world._s["B"].deck))
        == sorted(c.id for c in (*match.hand("B"), *match._s["B"].deck))
    )
    assert len(world.hand("B")) == len(match.hand("B"))
    assert world.deck_count("B") == match.deck_count("B")
    world.apply_action(world.legal_actions()[0])
    assert match.event_count and match.history == []  # the real match is untouched


def test_greedy_beats_random_most_of_the_time():
    wins = sum(
        play_match(
            sample_side_deck(seed),
            sample_side_deck(seed + 500),
            policy_a="greedy",
            policy_b="random",
            seed=seed,
            log=False,
        ).winner
        == "A"
        for seed in range(40)
    )
    assert wins >= 30


def a_decision_with_many_plays():
    """Return a match at side A's first play decision holding several distinct cards."""
    for seed in range(50):
        match = Match.new(sample_side_deck(seed), sample_side_deck(seed + 1), seed=seed)
        while match.decision is not None and match.decision != "play_cards":
            match.apply_action(get_policy("greedy").choose(match, random.Random(0)))
        if match.decision == "play_cards" and match.legal_action_count() >= 8:
            return match
    raise AssertionError("no decision with many plays")


def test_search_candidates_start_with_greedy_and_nothing_and_widen_with_the_budget():
    match = a_decision_with_many_plays()
    side = match.actor
    small = SearchPolicy(16)._candidates(match, side, random.Random(1))
    big = SearchPolicy(128)._candidates(match, side, random.Random(1))
    greedy = get_policy("greedy").choose(match, random.Random(1))
    assert small[0] == big[0] == greedy  # ties go to greedy's choice
    assert PlayCards(side, ()) in small[:2]
    assert len(set(small)) == len(small) and len(set(big)) == len(big)  # no candidate twice
    assert len(big) > len(small)
    assert all(match.is_legal(action) for action in big)


class ScriptedSearch(SearchPolicy):
    """A search whose rollouts return a fixed value per candidate plus the sample's noise."""

    def __init__(self, rollouts, values):
        super().__init__(rollouts)
        self.values = values
        self.seen = []  # (candidate index, sample) per rollout

    def _candidates(self, state, side, rng):
        return [PlayCards(side, (f"X-{i:03}",)) for i in range(8)]  # only compared, never played

    def _rollout(self, state, side, action, rng):
        index = self._candidates(state, side, rng).index(action)
        sample = rng.getrandbits(32)
        self.seen.append((index, sample))
        return self.values[index] + (sample % 1000) / 1000  # the same noise for every candidate


def test_search_spends_its_budget_by_halving_on_common_samples_and_picks_the_best():
    match = a_decision_with_many_plays()
    values = [0.0, 0.3, 0.1, 2.0, 0.2, 1.5, 0.0, 1.9]  # candidate 3 is the best
    search = ScriptedSearch(64, values)
    chosen = search.choose(match, random.Random(4))
    assert chosen == search._candidates(match, match.actor, None)[3]
    assert len(search.seen) <= 64 + 8
    samples = {}
    for index, sample in search.seen:
        samples.setdefault(index, []).append(sample)
    # every candidate played the first round's samples; the survivors, the same later samples
    firsts = {tuple(s[:1]) for s in samples.values()}
    assert len(firsts) == 1
    assert set(samples[3]) >= set(samples[7]) >= set(samples[0])
    assert len(samples[3]) > len(samples[0])  # the budget went to the best candidates


def test_greedy_card_facts_follow_the_card_object_not_its_id():
    weak = player("SAME", shoot=1, keep=1, defense=1, person="x")
    strong = player("SAME", shoot=9, keep=9, defense=9, person="x")
    assert _card_facts(weak).value == 3
    assert _card_facts(strong).value == 27
    assert _card_facts(weak).value == 3
