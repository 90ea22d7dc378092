"""Touchdown Heroes by hand: the play page (one seat, three bots) and its replay viewer."""

import json

import pytest
from django.urls import reverse

from play.lab.games import services as play_services

pytestmark = pytest.mark.django_db


def start(client, **fields):
    data = {
        "seat": 0,
        "bots": "greedy",
        "random_kick_base": 3,
        "kick_floor": 0,
        "onside_rolls": 1,
        "effects": "none",
    } | fields
    return client.post(reverse("play:td-play"), data)


def first_action(client):
    """Take the first choice the page offers (three cards when it asks to show)."""
    page = client.get(reverse("play:td-play")).content.decode()
    game = play_services.td_game_of(client.session)
    legal = game.view()["legal"]
    if legal[0]["type"] == "show":
        cards = legal[0]["cards"]
        assert all(f'value="{c}"' in page for c in cards)
        return client.post(reverse("play:td-play-act"), {"show": "1", "cards": cards})
    value = json.dumps(legal[0], separators=(",", ":"))
    return client.post(reverse("play:td-play-act"), {"action": value})


def test_the_start_form_starts_a_game_at_the_chosen_seat(client):
    assert "data-start" in client.get(reverse("play:td-play")).content.decode()
    response = start(client, seat=2, kick_floor=7)
    assert response.status_code == 302
    game = play_services.td_game_of(client.session)
    assert (game.seat, game.options.kick_floor) == (2, 7)
    page = client.get(reverse("play:td-play")).content.decode()
    assert "data-open-replay" in page and "Seat 2" in page


def test_a_bad_start_form_names_the_field(client):
    response = start(client, random_kick_base=9)
    assert response.status_code == 400
    assert "random_kick_base" in response.content.decode() or "7" in response.content.decode()
    assert play_services.td_game_of(client.session) is None


def test_the_person_plays_actions_and_the_bots_answer(client):
    start(client, seat=1)
    before = len(play_services.td_game_of(client.session).game.history)
    for _ in range(6):
        assert first_action(client).status_code == 302
    game = play_services.td_game_of(client.session)
    assert len(game.game.history) > before + 6  # the bots moved in between
    assert game.game.current_seat() in (1, None)


def test_the_search_bots_can_be_chosen_and_answer(client):
    assert 'value="search"' in client.get(reverse("play:td-play")).content.decode()
    start(client, seat=1, bots="search")
    game = play_services.td_game_of(client.session)
    assert game.game.policies == ("search", "human", "search", "search")
    before = len(game.game.history)
    for _ in range(4):
        assert first_action(client).status_code == 302
    assert len(play_services.td_game_of(client.session).game.history) > before + 4


def test_an_illegal_action_is_refused_with_a_message_and_changes_nothing(client):
    start(client)
    saved = client.session[play_services.SESSION_KEY]
    bad = json.dumps({"type": "follow", "seat": 0, "card": "R99"})
    response = client.post(reverse("play:td-play-act"), {"action": bad})
    assert response.status_code == 400
    assert "R99" in response.content.decode()
    assert client.session[play_services.SESSION_KEY] == saved
    response = client.post(reverse("play:td-play-act"), {"action": "{not json"})
    assert response.status_code == 400 and "JSON" in response.content.decode()
    twice = '{"type": "follow", "type": "lead"}'
    response = client.post(reverse("play:td-play-act"), {"action": twice})
    assert response.status_code == 400 and "“type” appears twice" in response.content.decode()
    assert client.session[play_services.SESSION_KEY] == saved


def test_the_replay_steps_through_the_game_so_far(client):
    start(client)
    for _ in range(4):
        first_action(client)
    response = client.get(reverse("play:td-play-replay"), {"step": 3})
    page = response.content.decode()
    assert response.status_code == 200
    assert "step 3 of" in page and 'href="?step=4"' in page and 'href="?step=2"' in page
    assert page.count("td-seat ") == 4  # the four hands
    assert client.get(reverse("play:td-play-replay"), {"step": "x"}).status_code == 200


def test_without_a_game_the_replay_sends_you_to_the_play_page(client):
    response = client.get(reverse("play:td-play-replay"))
    assert response.status_code == 302 and response["Location"] == reverse("play:td-play")


def test_every_event_of_a_game_is_told_as_a_sentence():
    from play.lab.games.presenters import event_line
    from play.touchdown import Options, play_game

    log = play_game(Options(effects="example"), "greedy", 6).log
    kinds = {event["type"] for event in log["events"]}
    assert {"show", "lineup", "kickoff", "trick", "half_end", "game_end"} <= kinds
    for event in log["events"]:
        line = event_line(event)
        assert line != event["type"] and line.endswith((".", "!")), event
