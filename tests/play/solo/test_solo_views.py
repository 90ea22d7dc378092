"""Solo play pages: starting, the board, the htmx endpoints, and who may act in a game."""

import re

import pytest
from django.urls import reverse

from decks.models import Deck
from play.engine.match import PLAY
from play.engine.policies import LADDER, SEARCH_BUDGETS
from play.models import SoloGame
from play.solo import services as solo
from tests.play.solo.helpers import first_player_cards, play_to_full_time

HX = {"HTTP_HX_REQUEST": "true"}


def user_turn(game):
    return solo.solo_bot_step(game=game, revision=None, all_steps=True)


def to_play_decision(game):
    position = user_turn(game)
    while position.match.decision != PLAY:
        position = solo.solo_act(
            game=game, revision=position.game.revision, action=position.match.legal_actions()[0]
        )
        position = user_turn(game)
    return position


def test_the_start_page_lists_the_users_decks_and_preselects_one(alice_client, alice_deck):
    response = alice_client.get(reverse("play:solo-new") + f"?deck={alice_deck.slug}")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'value="{alice_deck.slug}" selected' in html
    assert "Goldfish" in html and "Against a bot" in html


def test_anonymous_visitors_are_sent_to_log_in(anon_client):
    response = anon_client.get(reverse("play:solo-new"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_starting_a_goldfish_game_redirects_to_its_board(alice_client, alice, alice_deck):
    response = alice_client.post(
        reverse("play:solo-new"), {"deck": alice_deck.slug, "mode": "goldfish", "seed": "42"}
    )
    game = SoloGame.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.seed == 42 and game.mode == "goldfish"
    page = alice_client.get(game.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="pitch"' in html and html.count('class="zone zone-') == 5


def test_starting_against_a_bot_plays_its_deck_and_policy(alice_client, alice, alice_deck):
    sample = Deck.objects.filter(is_sample=True).order_by("slug").first()
    response = alice_client.post(
        reverse("play:solo-new"),
        {"deck": alice_deck.slug, "mode": "bot", "opponent": sample.slug, "policy": "random"},
    )
    game = SoloGame.objects.get(owner=alice)
    assert response.status_code == 302
    assert (game.mode, game.opponent_policy) == ("bot", "random")
    assert game.opponent_version.deck == sample
    assert (
        "Against a bot: Random bot." in alice_client.get(game.get_absolute_url()).content.decode()
    )


def test_the_start_form_defaults_the_bots_deck_to_a_prebuilt_deck(alice_client, alice_deck):
    html = alice_client.get(reverse("play:solo-new")).content.decode()
    opponent = re.search(r'<select name="opponent".*?</select>', html, re.S)[0]
    assert "—" not in opponent
    prebuilt = Deck.objects.filter(is_sample=True, visibility="public").order_by("slug").first()
    assert f'value="{prebuilt.slug}" selected' in opponent


def test_kick_off_against_a_bot_without_choosing_its_deck_plays_a_prebuilt(
    alice_client, alice, alice_deck
):
    response = alice_client.post(
        reverse("play:solo-new"), {"deck": alice_deck.slug, "mode": "bot", "opponent": ""}
    )
    game = SoloGame.objects.get(owner=alice)
    assert response.status_code == 302
    assert game.opponent_version.deck.is_sample and game.opponent_policy == "greedy"


def test_the_start_form_offers_every_rung_of_the_bot_ladder(alice_client, alice, alice_deck):
    html = alice_client.get(reverse("play:solo-new")).content.decode()
    policy = re.search(r'<select name="policy".*?</select>', html, re.S)[0]
    assert re.findall(r'value="([^"]+)"', policy) == list(reversed(LADDER))
    response = alice_client.post(
        reverse("play:solo-new"),
        {"deck": alice_deck.slug, "mode": "bot", "policy": "search-strong"},
    )
    assert response.status_code == 302
    game = SoloGame.objects.get(owner=alice)
    assert game.opponent_policy == "search-strong"
    board = alice_client.get(game.get_absolute_url()).content.decode()
    rollouts = SEARCH_BUDGETS["search-strong"]
    assert f"Against a bot: Strong search bot ({rollouts} rollouts a decision)." in board


def test_a_policy_off_the_ladder_is_a_400_naming_the_field(alice_client, alice_deck):
    response = alice_client.post(
        reverse("play:solo-new"), {"deck": alice_deck.slug, "mode": "bot", "policy": "oracle"}
    )
    assert response.status_code == 400
    assert re.search(r'<select name="policy"[^>]*aria-invalid="true"', response.content.decode())
    assert not SoloGame.objects.exists()


def test_the_goldfish_pauses_shorter_than_a_bot_before_its_own_moves(alice, alice_deck):
    from play.solo import presenters

    fish = solo.solo_start(owner=alice, deck=alice_deck, mode="goldfish", seed=1)
    bot = solo.solo_start(owner=alice, deck=alice_deck, mode="bot", policy="greedy", seed=1)
    fish_pause = presenters.game_context(fish)["bot_delay_ms"]
    bot_pause = presenters.game_context(bot)["bot_delay_ms"]
    assert fish_pause < bot_pause and bot_pause >= 500


def test_while_the_opponent_holds_the_ball_one_click_skips_to_my_decision(
    alice_client, alice, alice_deck
):
    for seed in range(20):  # a seed where the goldfish wins the toss and kicks off
        game = solo.solo_start(owner=alice, deck=alice_deck, mode="goldfish", seed=seed).game
        if solo.solo_match(game).match.current_side() == "B":
            break
    else:
        pytest.fail("no seed gives the goldfish the kick-off")
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert 'data-action="skip"' in page and "delay:250ms" in page
    response = alice_client.post(reverse("play:solo-bot-step", args=[game.pk]), {"all": "1"}, **HX)
    assert 'data-decision="play_cards:mine"' in response.content.decode()
    game.refresh_from_db()
    assert solo.solo_match(game).match.current_side() == "A"


def test_another_users_private_deck_cannot_be_played(bob_client, alice_deck):
    response = bob_client.post(
        reverse("play:solo-new"), {"deck": alice_deck.slug, "mode": "goldfish"}
    )
    assert response.status_code == 400
    assert not SoloGame.objects.exists()


def test_the_board_offers_exactly_the_hand_at_a_play_decision(alice_client, game):
    position = to_play_decision(game)
    html = alice_client.get(game.get_absolute_url()).content.decode()
    offered = re.findall(r'name="card" value="([^"]+)" form="act-form"', html)
    assert sorted(offered) == sorted(c.id for c in position.match.hand("A"))
    assert 'data-action="nothing"' in html and 'data-action="shoot"' not in html


def test_acting_through_htmx_returns_the_new_board(alice_client, game):
    position = to_play_decision(game)
    cards = first_player_cards(position, 1)
    response = alice_client.post(
        reverse("play:solo-act", args=[game.pk]),
        {"revision": position.game.revision, "card": list(cards)},
        **HX,
    )
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="solo-game"')
    game.refresh_from_db()
    assert game.actions[-1] == {"type": "play_cards", "side": "A", "card_ids": list(cards)}


def test_use_nothing_ignores_selected_cards(alice_client, game):
    position = to_play_decision(game)
    alice_client.post(
        reverse("play:solo-act", args=[game.pk]),
        {
            "revision": position.game.revision,
            "card": list(first_player_cards(position, 1)),
            "nothing": "1",
        },
        **HX,
    )
    game.refresh_from_db()
    assert game.actions[-1]["card_ids"] == []


def test_an_illegal_choice_shows_the_reason(alice_client, game):
    position = to_play_decision(game)
    response = alice_client.post(
        reverse("play:solo-act", args=[game.pk]),
        {"revision": position.game.revision, "card": ["NOPE-001"]},
        **HX,
    )
    assert response.status_code == 400
    assert "NOPE-001 is not in side A" in response.content.decode()


def test_a_stale_page_gets_the_current_position(alice_client, game):
    position = to_play_decision(game)
    response = alice_client.post(
        reverse("play:solo-act", args=[game.pk]),
        {"revision": position.game.revision - 1, "nothing": "1"},
        **HX,
    )
    assert response.status_code == 409
    assert "another tab" in response.content.decode()


def test_without_javascript_acting_redirects_to_the_board(alice_client, game):
    position = to_play_decision(game)
    response = alice_client.post(
        reverse("play:solo-act", args=[game.pk]),
        {"revision": position.game.revision, "nothing": "1"},
    )
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()


def test_the_bot_step_endpoint_applies_the_bots_moves(alice_client, game):
    response = alice_client.post(reverse("play:solo-bot-step", args=[game.pk]), {"all": "1"}, **HX)
    assert response.status_code == 200
    assert solo.solo_match(SoloGame.objects.get(pk=game.pk)).match.current_side() == "A"


def test_undo_restart_and_autoplay_endpoints(alice_client, game):
    url = lambda name: reverse(f"play:solo-{name}", args=[game.pk])  # noqa: E731
    alice_client.post(url("autoplay"), {"revision": game.revision}, **HX)
    game.refresh_from_db()
    assert solo.solo_match(game).match.decision == "halftime_swaps"
    alice_client.post(url("undo"), {"revision": game.revision}, **HX)
    game.refresh_from_db()
    assert solo.solo_match(game).match.decision != "halftime_swaps"
    alice_client.post(url("restart"), {"revision": game.revision, "shuffle": "same"}, **HX)
    game.refresh_from_db()
    assert game.actions == [] and game.seed == 7


def test_the_whole_event_list_loads_on_demand(alice_client, game):
    solo.solo_autoplay_half(game=game, revision=game.revision)
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "earlier turns" in page
    full = alice_client.get(reverse("play:solo-events", args=[game.pk]))
    assert full.status_code == 200
    assert full.content.decode().count('class="turn-block"') > page.count('class="turn-block"')


@pytest.mark.parametrize("name", ["act", "bot-step", "undo", "restart", "autoplay"])
def test_another_user_cannot_act_in_someone_elses_game(bob_client, game, name):
    response = bob_client.post(
        reverse(f"play:solo-{name}", args=[game.pk]), {"revision": game.revision}, **HX
    )
    assert response.status_code == 404
    assert SoloGame.objects.get(pk=game.pk).revision == game.revision


def test_another_user_cannot_open_someone_elses_game(bob_client, anon_client, game):
    assert bob_client.get(game.get_absolute_url()).status_code == 404
    assert bob_client.get(reverse("play:solo-events", args=[game.pk])).status_code == 404
    assert anon_client.get(game.get_absolute_url()).status_code == 302


def test_the_start_page_lists_only_the_users_own_games(bob_client, game):
    html = bob_client.get(reverse("play:solo-new")).content.decode()
    assert reverse("play:solo-game", args=[game.pk]) not in html


def test_the_board_draws_the_ball_in_every_zone_it_reaches(alice_client, game):
    """Zone 0 is a real zone, not a missing value (the ball once showed in the centre)."""
    seen = set()
    position = user_turn(game)
    for _ in range(60):
        match = position.match
        if match.decision is None:
            break
        if match.ball is not None and match.ball.zone not in seen:
            seen.add(match.ball.zone)
            html = alice_client.get(game.get_absolute_url()).content.decode()
            assert f'data-zone="{match.ball.zone}"' in html
        action = match.legal_actions()[0]
        position = solo.solo_act(game=game, revision=position.game.revision, action=action)
        position = user_turn(game)
    assert {0, 4} & seen, seen


def test_a_finished_game_offers_take_back_play_again_and_the_replay(alice_client, game):
    play_to_full_time(game)
    game.refresh_from_db()
    html = alice_client.get(game.get_absolute_url()).content.decode()
    assert f'href="{reverse("play:replay", args=[game.log.share_token])}"' in html
    assert 'data-action="replay"' in html and "Open the replay" in html
    assert 'data-action="again"' in html and "Play again with the same shuffle" in html
    assert 'data-action="undo"' in html


def test_take_back_after_full_time_through_the_page(alice_client, game):
    play_to_full_time(game)
    game.refresh_from_db()
    response = alice_client.post(
        reverse("play:solo-undo", args=[game.pk]), {"revision": game.revision}, **HX
    )
    assert response.status_code == 200
    assert 'data-decision="' in response.content.decode() and ":mine" in response.content.decode()
    game.refresh_from_db()
    assert game.status == SoloGame.Status.PLAYING


def test_play_again_opens_a_new_game_with_the_same_shuffle(alice_client, alice, game):
    play_to_full_time(game)
    response = alice_client.post(reverse("play:solo-rematch", args=[game.pk]), **HX)
    assert response.status_code == 204
    fresh = SoloGame.objects.filter(owner=alice).exclude(pk=game.pk).get()
    assert response["HX-Redirect"] == fresh.get_absolute_url()
    assert (fresh.seed, fresh.sides, fresh.actions) == (game.seed, game.sides, [])
    plain = alice_client.post(reverse("play:solo-rematch", args=[game.pk]))
    assert plain.status_code == 302 and SoloGame.objects.filter(owner=alice).count() == 3


def test_another_user_cannot_play_someone_elses_game_again(bob_client, game):
    response = bob_client.post(reverse("play:solo-rematch", args=[game.pk]), **HX)
    assert response.status_code == 404
    assert SoloGame.objects.count() == 1


def _log_lines(html: str) -> list[str]:
    events = re.search(r'<div id="event-list".*', html, re.S)[0]
    return re.findall(r'<li class="ev ev-([a-z_]+)', events)


def test_the_log_can_be_filtered_to_goals_shots_or_my_decisions(alice_client, game):
    position = play_to_full_time(game)
    events = position.match.events
    url = reverse("play:solo-events", args=[game.pk])
    goals = _log_lines(alice_client.get(url, {"log": "goals"}).content.decode())
    assert goals == ["goal"] * sum(e["type"] == "goal" for e in events)
    shots = _log_lines(alice_client.get(url, {"log": "shots"}).content.decode())
    judged = sum(e["type"] == "judge" and e["kind"] == "shot" for e in events)
    assert shots.count("judge") == judged > 0 and set(shots) <= {"kick", "judge", "goal", "pk_kick"}
    mine = _log_lines(alice_client.get(url, {"log": "mine"}).content.decode())
    user_actions = sum(a["side"] == "A" for a in position.game.actions)
    assert 0 < len(mine) <= user_actions and set(mine) <= {"play", "kick", "halftime"}
    everything = _log_lines(alice_client.get(url, {"log": "all"}).content.decode())
    assert len(everything) == len(events)
    unknown = alice_client.get(url, {"log": "<script>"})
    assert unknown.status_code == 400
    assert "Unknown log filter (log)" in unknown.content.decode()
    assert _log_lines(unknown.content.decode()) == everything
    board = alice_client.get(game.get_absolute_url(), {"log": "passes"})
    assert board.status_code == 400 and "Unknown log filter (log)" in board.content.decode()


def test_the_log_filter_is_kept_after_a_decision(alice_client, game):
    position = to_play_decision(game)
    response = alice_client.post(
        reverse("play:solo-act", args=[game.pk]),
        {"revision": position.game.revision, "nothing": "1", "log": "mine"},
        **HX,
    )
    html = response.content.decode()
    assert 'data-log="mine"' in html and 'aria-current="true">My decisions' in html
    assert set(_log_lines(html)) <= {"play", "kick", "halftime"}


def test_a_midfield_defense_decision_explains_taking_the_ball_back(alice_client, alice, alice_deck):
    for seed in range(40):
        game = solo.solo_start(owner=alice, deck=alice_deck, mode="goldfish", seed=seed).game
        match = user_turn(game).match
        if match.decision == PLAY and match.offense == "B" and not match.shot:
            break
    else:
        pytest.fail("no seed gives the player a midfield defense timing")
    html = alice_client.get(game.get_absolute_url()).content.decode()
    assert "you defend" in html and 'data-hint="take-back"' in html
    assert "take the ball back with keep power" in html and "R-JUDGE-5" in html
    assert "Keep this play phase: you 0 · Goldfish 0" in html
    assert "side-A role-defense" in html


def test_the_help_overlay_lists_a_key_for_every_decision(alice_client, game):
    html = alice_client.get(game.get_absolute_url()).content.decode()
    dialog = re.search(r'<dialog id="solo-help".*?</dialog>', html, re.S)[0]
    keys = re.findall(r"<kbd>([^<]+)</kbd>", dialog)
    for key in (
        "1",
        "9",
        "Enter",
        "0",
        "S",
        "B",
        "P",
        "M",
        "Space",
        "U",
        "A",
        "N",
        "O",
        "L",
        "?",
        "Esc",
    ):
        assert key in keys, key
    assert 'data-action="help"' in html and 'aria-controls="solo-help"' in html
