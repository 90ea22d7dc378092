"""Solo games as services: start, act, bot steps, take back, restart, autoplay, save/resume."""

import pytest

from catalog.models import Card
from decks.models import Deck
from play.engine import HalftimeSwaps, PlayCards, action_from_dict, validate_log
from play.engine.match import HALFTIME, PLAY
from play.engine.policies import LADDER
from play.models import MatchLog, SoloGame
from play.solo import services as solo
from tests.play.solo.helpers import first_player_cards, play_to_full_time


def to_user(game: SoloGame) -> solo.Position:
    """Let the bot play until it is the user's decision."""
    return solo.solo_bot_step(game=game, revision=None, all_steps=True)


def play_some(game: SoloGame, decisions: int) -> solo.Position:
    """Make `decisions` user decisions (a player card where possible), with the bot between."""
    position = to_user(game)
    for _ in range(decisions):
        match = position.match
        if match.decision == PLAY:
            action = PlayCards("A", first_player_cards(position, 1))
        else:
            action = match.legal_actions()[0]
        position = solo.solo_act(game=game, revision=position.game.revision, action=action)
        position = to_user(position.game)
    return position


def test_goldfish_plays_the_first_sample_deck_with_the_chosen_goalkeeper(alice, alice_deck):
    keeper = Card.objects.filter(kind="goalkeeper").order_by("-defense", "id").first()
    position = solo.solo_start(owner=alice, deck=alice_deck, mode="goldfish", goalkeeper=keeper)
    game = position.game
    first = Deck.objects.filter(is_sample=True, visibility="public").order_by("slug").first()
    assert game.opponent_version.deck == first
    assert game.opponent_policy == "passive"
    assert position.match.goalkeeper("B").id == keeper.id
    assert position.match.side_decks["B"].name == solo.GOLDFISH_NAME
    assert game.deck_version.deck == alice_deck


def test_a_bot_game_without_a_chosen_deck_plays_a_prebuilt_deck(alice, alice_deck):
    game = solo.solo_start(owner=alice, deck=alice_deck, mode="bot", policy="greedy").game
    prebuilt = Deck.objects.filter(is_sample=True, visibility="public").order_by("slug").first()
    assert game.opponent_version.deck == prebuilt
    assert game.sides[1]["name"] == prebuilt.name


def test_the_bot_default_deck_is_another_prebuilt_deck_than_the_players(alice):
    first, second = Deck.objects.filter(is_sample=True, visibility="public").order_by("slug")[:2]
    assert solo.bot_default_deck(avoid=first) == second
    assert solo.bot_default_deck(avoid=second) == first


@pytest.mark.parametrize("policy", LADDER)
def test_a_bot_game_can_be_played_against_every_rung_of_the_ladder(alice, alice_deck, policy):
    game = solo.solo_start(owner=alice, deck=alice_deck, mode="bot", policy=policy, seed=5).game
    game.refresh_from_db()
    assert game.opponent_policy == policy
    position = play_some(game, 2)
    assert any(a["side"] == "B" for a in position.game.actions)
    assert position.match.side_decks["B"].policy == policy


def test_a_bot_policy_off_the_ladder_is_refused(alice, alice_deck):
    with pytest.raises(solo.SoloInvalid) as caught:
        solo.solo_start(owner=alice, deck=alice_deck, mode="bot", policy="search-9000")
    assert "policy" in caught.value.errors
    assert "search-strong" in caught.value.errors["policy"][0]


def test_an_illegal_deck_cannot_be_played(alice, alice_deck):
    from decks.content import DeckContent
    from decks.services import deck_save

    deck_save(deck=alice_deck, editor=alice, content=DeckContent())
    with pytest.raises(solo.SoloInvalid) as caught:
        solo.solo_start(owner=alice, deck=alice_deck, mode="goldfish")
    assert "not legal" in " ".join(caught.value.errors["deck"])


def test_replaying_the_seed_and_actions_reproduces_the_state(game):
    position = play_some(game, 12)
    saved = SoloGame.objects.get(pk=game.pk)
    rebuilt = solo.solo_match(saved)
    assert saved.actions == [a for a in position.game.actions]
    assert rebuilt.match.to_log() == position.match.to_log()
    assert rebuilt.match.snapshot("A") == position.match.snapshot("A")
    assert [action_from_dict(a) for a in saved.actions] == rebuilt.match.history


def test_the_user_acts_only_at_their_own_decision(game):
    position = solo.solo_match(game)
    if position.match.current_side() == "A":
        position = solo.solo_act(game=game, revision=game.revision, action=PlayCards("A", ()))
    assert position.match.current_side() in ("B", None) or position.game.actions
    if position.match.current_side() == "B":
        with pytest.raises(solo.SoloError, match="not your decision"):
            solo.solo_act(game=game, revision=position.game.revision, action=PlayCards("A", ()))


def test_a_bot_step_applies_exactly_one_bot_action(game):
    position = to_user(game)
    position = solo.solo_act(
        game=game,
        revision=position.game.revision,
        action=PlayCards("A", first_player_cards(position, 1)),
    )
    while position.match.current_side() != "B":  # find a moment the bot must decide
        position = solo.solo_act(
            game=game, revision=position.game.revision, action=position.match.legal_actions()[0]
        )
    before = len(position.game.actions)
    after = solo.solo_bot_step(game=game, revision=None)
    assert len(after.game.actions) == before + 1
    assert after.game.actions[-1]["side"] == "B"


def test_a_bot_step_when_the_user_must_decide_changes_nothing(game):
    position = to_user(game)
    revision = position.game.revision
    again = solo.solo_bot_step(game=game, revision=None)
    assert again.game.revision == revision
    assert SoloGame.objects.get(pk=game.pk).revision == revision


def test_an_illegal_choice_is_refused_with_the_engines_reason(game):
    position = to_user(game)
    while position.match.decision != PLAY:
        position = solo.solo_act(
            game=game, revision=position.game.revision, action=position.match.legal_actions()[0]
        )
        position = to_user(game)
    players = [c.id for c in position.match.hand("A") if c.kind == "player"]
    if len(players) < 3:
        pytest.skip("this seed deals fewer than 3 player cards here")
    with pytest.raises(solo.SoloError, match="at most 2"):
        solo.solo_act(
            game=game, revision=position.game.revision, action=PlayCards("A", tuple(players[:3]))
        )
    assert SoloGame.objects.get(pk=game.pk).actions == position.game.actions


def test_a_stale_revision_is_refused(game):
    position = to_user(game)
    revision = position.game.revision
    solo.solo_act(game=game, revision=revision, action=position.match.legal_actions()[0])
    with pytest.raises(solo.StaleGame):
        solo.solo_act(game=game, revision=revision, action=position.match.legal_actions()[0])


def test_take_back_removes_the_last_decision_and_the_bot_actions_after_it(game):
    position = play_some(game, 6)
    actions = position.game.actions
    last_user = max(i for i, a in enumerate(actions) if a["side"] == "A")
    undone = solo.solo_undo(game=game, revision=position.game.revision)
    assert undone.game.actions == actions[:last_user]
    assert undone.match.current_side() == "A"
    assert SoloGame.objects.get(pk=game.pk).actions == actions[:last_user]


def test_take_back_with_nothing_to_take_back_is_refused(game):
    with pytest.raises(solo.SoloError):
        solo.solo_undo(game=game, revision=game.revision)


def test_restart_with_the_same_shuffle_keeps_the_seed_and_a_new_one_changes_it(game):
    position = play_some(game, 3)
    same = solo.solo_restart(game=game, revision=position.game.revision, new_shuffle=False)
    assert same.game.actions == [] and same.game.seed == 7
    assert same.match.events[0] == solo.solo_match(same.game).match.events[0]
    fresh = solo.solo_restart(game=game, revision=same.game.revision, new_shuffle=True)
    assert fresh.game.actions == [] and fresh.game.seed != 7
    assert fresh.game.revision == same.game.revision + 1


def test_autoplay_plays_to_the_end_of_the_half(game):
    position = solo.solo_autoplay_half(game=game, revision=game.revision)
    assert position.match.decision == HALFTIME
    assert position.match.current_side() == "A"
    assert any(e["type"] == "half_end" for e in position.match.events)
    assert solo.solo_match(SoloGame.objects.get(pk=game.pk)).match.decision == HALFTIME


def test_a_finished_game_keeps_a_valid_log(game):
    position = solo.solo_autoplay_half(game=game, revision=game.revision)
    position = solo.solo_act(
        game=game, revision=position.game.revision, action=HalftimeSwaps("A", ())
    )
    position = to_user(game)
    position = solo.solo_autoplay_half(game=game, revision=position.game.revision)
    game.refresh_from_db()
    assert position.match.is_terminal()
    assert game.status == SoloGame.Status.FINISHED
    assert game.log.source == MatchLog.Source.SOLO
    assert game.log.owner == game.owner
    validate_log(game.log.log)
    assert game.log.log == position.match.to_log()


def test_take_back_after_full_time_reopens_the_game_at_the_last_decision(game):
    finished = play_to_full_time(game)
    game.refresh_from_db()
    first_log = game.log
    actions = finished.game.actions
    last_user = max(i for i, a in enumerate(actions) if a["side"] == "A")
    undone = solo.solo_undo(game=game, revision=game.revision)
    game.refresh_from_db()
    assert game.status == SoloGame.Status.PLAYING and game.log is None
    assert game.actions == actions[:last_user]
    assert undone.match.current_side() == "A" and not undone.match.is_terminal()
    assert MatchLog.objects.filter(pk=first_log.pk).exists()  # the first finish stays a replay
    again = solo.solo_act(
        game=game, revision=game.revision, action=action_from_dict(actions[last_user])
    )
    again = solo.solo_bot_step(game=game, revision=None, all_steps=True)
    while not again.match.is_terminal():
        again = solo.solo_autoplay_half(game=game, revision=again.game.revision)
    game.refresh_from_db()
    assert game.status == SoloGame.Status.FINISHED and game.log.pk != first_log.pk
    assert again.match.to_log() == finished.match.to_log()  # the same decision, the same game


def test_play_again_copies_the_shuffle_the_decks_and_the_options(alice, alice_deck, sample_deck):
    options = {"empty_timing": "ends_phase"}
    old = solo.solo_start(
        owner=alice,
        deck=alice_deck,
        mode="bot",
        opponent_deck=sample_deck,
        policy="random",
        seed=41,
        options=options,
    ).game
    play_to_full_time(old)
    old.refresh_from_db()
    fresh = solo.solo_rematch(game=old)
    new = SoloGame.objects.get(pk=fresh.game.pk)
    assert new.pk != old.pk and new.actions == [] and new.status == SoloGame.Status.PLAYING
    same = ("mode", "seed", "options", "sides", "opponent_policy", "deck_version_id")
    assert [getattr(new, f) for f in same] == [getattr(old, f) for f in same]
    assert new.opponent_version_id == old.opponent_version_id
    replayed = solo.solo_match(old)
    assert fresh.match.events[: replayed.marks[0]] == replayed.match.events[: replayed.marks[0]]
    old.refresh_from_db()
    assert old.status == SoloGame.Status.FINISHED  # the finished game stays as it was


def test_in_a_midfield_turn_the_player_defends_and_takes_the_ball_back(alice, alice_deck):
    # R-PLAY-4 (empty_timing: passes): the goldfish plays nothing, so the player as defense gets
    # timing 2; ahead on keep at the judgment, the player wins the ball (R-JUDGE-5).
    for seed in range(40):
        position = to_user(
            solo.solo_start(owner=alice, deck=alice_deck, mode="goldfish", seed=seed).game
        )
        match = position.match
        if match.decision == PLAY and match.offense == "B" and not match.shot:
            keepers = [c for c in match.hand("A") if c.kind == "player" and c.keep > 0]
            if keepers:
                break
    else:
        pytest.fail("no seed gives the player a midfield defense timing with a keep card")
    assert match.timing == 2
    turn = match.turn
    position = solo.solo_act(
        game=position.game, revision=position.game.revision, action=PlayCards("A", (keepers[0].id,))
    )
    position = to_user(position.game)
    while position.match.turn == turn and position.match.decision == PLAY:
        position = solo.solo_act(
            game=position.game, revision=position.game.revision, action=PlayCards("A", ())
        )
        position = to_user(position.game)
    judged = [e for e in position.match.events if e["type"] == "judge" and e.get("turn") == turn]
    assert judged and judged[-1]["outcome"] == "swap"
    assert position.match.offense == "A"


def test_the_bot_plays_the_same_way_after_a_reload(alice, alice_deck, sample_deck):
    one = solo.solo_start(
        owner=alice, deck=alice_deck, mode="bot", opponent_deck=sample_deck, policy="random", seed=3
    ).game
    two = solo.solo_start(
        owner=alice, deck=alice_deck, mode="bot", opponent_deck=sample_deck, policy="random", seed=3
    ).game
    a = play_some(one, 5)
    b = play_some(two, 5)
    assert a.game.actions == b.game.actions


def test_a_solo_game_is_played_under_the_rules_edition_chosen(alice, alice_deck):
    # R-PLAY-4, R-DRAW-2: the options are saved with the game and named in its log.
    first = {"empty_timing": "ends_phase", "deck_out": "any_draw"}
    position = solo.solo_start(owner=alice, deck=alice_deck, mode="goldfish", seed=3, options=first)
    assert position.game.options == first
    reloaded = solo.solo_match(position.game)
    house = reloaded.match.to_log()["rules"]["house"]
    assert (house["empty_timing"], house["deck_out"]) == ("ends_phase", "any_draw")
