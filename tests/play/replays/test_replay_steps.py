"""The replay viewer shows a window of steps per response (issue #12): bounded work per request.

A page or a steps request narrates and sends at most REPLAY_WINDOW events, whatever the length
of the log; other windows come from `/replays/<token>/steps.json?position=N`. A window narrated
after skipping the events before it reads exactly as the same events narrated from the start,
and its board is the board those events build.
"""

import json

import pytest
from django.urls import reverse

from play import narrate as narrate_module
from play.engine import play_match
from play.engine.testing import sample_side_deck
from play.models import MatchLog
from play.narrate import narrate
from play.replays import steps
from tests.play.replays.test_replay import replay_data, upload

pytestmark = pytest.mark.django_db


def long_log() -> dict:
    """A real match of 1,062 events (every upload and batch sample is a real match)."""
    log = play_match(
        sample_side_deck(3), sample_side_deck(53), policy_a="greedy", policy_b="greedy", seed=3
    ).log
    assert len(log["events"]) > 800
    return log


@pytest.fixture
def saved(alice):
    return MatchLog.objects.create(owner=alice, source="upload", title="Long", log=long_log())


@pytest.fixture
def narrated(monkeypatch):
    """Count the events narrated (Narrator.line calls) while a request is served."""
    calls = []
    line = narrate_module.Narrator.line

    def counting(self, index, event):
        calls.append(index)
        return line(self, index, event)

    monkeypatch.setattr(narrate_module.Narrator, "line", counting)
    return calls


def test_the_page_of_a_long_log_narrates_and_sends_one_window(alice_client, saved, narrated):
    total = len(saved.log["events"])
    response = alice_client.get(reverse("play:replay", args=[saved.share_token]))
    assert response.status_code == 200
    data = replay_data(response)
    assert len(narrated) == steps.REPLAY_WINDOW < total  # not 1,062 sentences per view
    assert len(data["window"]["lines"]) == len(data["window"]["events"]) == steps.REPLAY_WINDOW
    assert "log" not in data  # the events are not all on the page
    assert data["total"] == total
    page = response.content.decode()
    # the page carries one window of events: the whole page is smaller than the log alone
    assert len(page) < len(json.dumps(saved.log))


def test_each_steps_request_narrates_only_its_window(alice_client, saved, narrated):
    total = len(saved.log["events"])
    url = reverse("play:replay-steps", args=[saved.share_token])
    seen = []
    position = 1
    while position <= total:
        narrated.clear()
        window = alice_client.get(url, {"position": position}).json()
        assert len(narrated) == window["end"] - window["start"] <= steps.REPLAY_WINDOW
        seen += window["events"]
        position = window["end"] + 1
    assert seen == saved.log["events"]  # the windows cover the log, once each


def test_a_window_reads_as_the_whole_narration_and_starts_from_the_right_board(saved):
    log = saved.log
    cards = {card_id: dict(card) for card_id, card in log["cards"].items()}
    for side in "AB":
        for key in ("goalkeeper", "pk_goalkeeper"):
            cards.setdefault(log["sides"][side][key]["id"], log["sides"][side][key])
    labels = {"A": "Home", "B": "Away"}
    names = {card_id: card_id for card_id in cards}
    whole = [
        line.to_dict()
        for line in narrate(
            log["events"], cards=cards, labels=labels, names=names, rules=log["rules"]
        )
    ]
    board = steps.board_start(log)
    keep = steps.keeps_hands(log)
    for start in range(0, len(log["events"]), steps.REPLAY_WINDOW):
        window = steps.steps_window(
            log, start, cards=cards, labels=labels, names=names, gettext=lambda text: text
        )
        assert window["lines"] == whole[start : window["end"]]
        assert window["state"] == board
        for event in window["events"]:
            steps.board_apply(board, event, keep)
        if window["end"] < len(log["events"]):
            turn = next(e for e in log["events"][window["end"] :] if e["type"] == "turn_start")
            assert board["score"] == turn["score"] or any(
                e["type"] == "goal" for e in log["events"][window["end"] :]
            )
    assert board["result"]["goals"] == log["result"]["goals"]
    goals = [e for e in log["events"] if e["type"] == "goal"]
    assert board["score"] == (goals[-1]["score"] if goals else {"A": 0, "B": 0})


def test_the_jump_marks_cover_the_whole_log_without_text(saved):
    marks = steps.step_markers(saved.log)
    events = saved.log["events"]
    assert marks["turns"] == [
        i for i, e in enumerate(events) if e["type"] in ("turn_start", "pk_start")
    ]
    assert [g[0] for g in marks["goals"]] == [
        i for i, e in enumerate(events) if e["type"] == "goal"
    ]
    assert all(isinstance(value, (int, str)) for g in marks["goals"] for value in g)


def test_a_bad_position_is_a_400_naming_the_field_and_a_large_one_the_last_window(
    alice_client, saved
):
    url = reverse("play:replay-steps", args=[saved.share_token])
    for bad in ("-1", "x", "9" * 5000, "1.5"):
        response = alice_client.get(url, {"position": bad})
        assert response.status_code == 400
        assert response.json()["errors"][0]["field"] == "position"
    last = alice_client.get(url, {"position": 10**8}).json()
    assert last["end"] == len(saved.log["events"])


def test_the_steps_follow_the_replays_permissions(bob_client, anon_client, saved):
    url = reverse("play:replay-steps", args=[saved.share_token])
    assert bob_client.get(url).status_code == 404
    assert anon_client.get(url).status_code == 404


def test_a_guests_upload_serves_its_windows_to_that_guest_only(client, narrated):
    from django.test import Client

    log = long_log()
    response = upload(client, json.dumps(log).encode())
    assert response.status_code == 200
    data = replay_data(response)
    narrated.clear()
    middle = client.get(data["steps_url"], {"position": 450}).json()
    assert middle["start"] == 400 and middle["events"] == log["events"][400:600]
    assert len(narrated) == steps.REPLAY_WINDOW
    assert Client().get(data["steps_url"], {"position": 450}).status_code == 404
    assert not MatchLog.objects.exists()


def test_the_window_lines_and_range_are_in_japanese(alice_client, saved):
    alice_client.cookies["django_language"] = "ja"
    response = alice_client.get(reverse("play:replay", args=[saved.share_token]))
    total = len(saved.log["events"])
    assert f"イベント 1–200（全 {total}）" in response.content.decode()
    data = replay_data(response)
    assert data["strings"]["loading"] == "イベントを読み込み中…"
    rest = alice_client.get(data["steps_url"], {"position": total}).json()
    assert "Full time" not in rest["lines"][-1]["text"]  # narrated in the request's language
