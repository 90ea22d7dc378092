"""Solo play pages: starting, the board, the htmx endpoints, and who may act in a game."""

import re

import pytest
from django.urls import reverse

from decks.models import Deck
from play.engine.match import PLAY
from play.models import SoloGame
from play.solo import services as solo
from tests.play.solo.helpers import first_player_cards

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
    assert "random policy" in alice_client.get(game.get_absolute_url()).content.decode()


def test_starting_against_a_bot_needs_its_deck(alice_client, alice_deck):
    response = alice_client.post(
        reverse("play:solo-new"), {"deck": alice_deck.slug, "mode": "bot", "policy": "greedy"}
    )
    assert response.status_code == 400
    assert "Choose the bot" in response.content.decode()


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
