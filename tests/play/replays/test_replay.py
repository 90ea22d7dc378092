"""The replay viewer: who may watch a saved log, uploads, and what the page carries."""

import io
import json

import pytest
from django.urls import reverse

from decks.models import Deck
from play.engine import HalftimeSwaps, play_match
from play.engine.testing import sample_side_deck
from play.models import MatchLog, SimulationBatch
from play.replays.views import MAX_LOG_EVENTS
from play.solo import services as solo

pytestmark = pytest.mark.django_db


def a_log(seed: int = 1) -> dict:
    return play_match(
        sample_side_deck(seed),
        sample_side_deck(seed + 50),
        policy_a="greedy",
        policy_b="greedy",
        seed=seed,
    ).log


@pytest.fixture
def finished(game):
    """Alice's finished goldfish game (played by autoplay)."""
    position = solo.solo_autoplay_half(game=game, revision=game.revision)
    solo.solo_act(game=game, revision=position.game.revision, action=HalftimeSwaps("A", ()))
    position = solo.solo_bot_step(game=game, revision=None, all_steps=True)
    solo.solo_autoplay_half(game=game, revision=position.game.revision)
    game.refresh_from_db()
    return game


def replay_data(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="replay-data" type="application/json">') + len(
        '<script id="replay-data" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_the_owner_watches_a_finished_solo_game(alice_client, finished):
    response = alice_client.get(reverse("play:replay", args=[finished.log.share_token]))
    assert response.status_code == 200
    data = replay_data(response)
    events = finished.log.log["events"]
    window = data["window"]
    assert data["total"] == len(events)
    assert window["events"] == events[: window["end"]] and window["start"] == 0
    assert len(window["lines"]) == window["end"] == min(len(events), data["window_size"])
    if len(events) > data["window_size"]:  # the rest comes from the steps URL
        rest = alice_client.get(data["steps_url"] + f"?position={len(events)}").json()
        assert rest["end"] == len(events)
        assert any(line["rule"] == "R-DRAW-2" for line in rest["lines"])
    else:
        assert any(line["rule"] == "R-DRAW-2" for line in window["lines"])
    html = response.content.decode()
    assert reverse("play:log-json", args=[finished.log.share_token]) in html
    assert 'id="card-tile-template"' in html and "data-timeline" in html


def test_the_finished_board_links_to_its_replay(alice_client, finished):
    html = alice_client.get(finished.get_absolute_url()).content.decode()
    assert reverse("play:replay", args=[finished.log.share_token]) in html


def test_others_cannot_watch_a_game_of_a_private_deck(bob_client, anon_client, finished):
    url = reverse("play:replay", args=[finished.log.share_token])
    assert bob_client.get(url).status_code == 404
    assert anon_client.get(url).status_code == 404


@pytest.mark.parametrize("visibility", ["public", "unlisted"])
def test_whoever_can_see_the_deck_can_watch(anon_client, finished, alice_deck, visibility):
    Deck.objects.filter(pk=alice_deck.pk).update(visibility=visibility)
    url = reverse("play:replay", args=[finished.log.share_token])
    assert anon_client.get(url).status_code == 200


@pytest.fixture
def batch_log(alice, alice_deck):
    version = alice_deck.versions.first()
    batch = SimulationBatch.objects.create(
        owner=alice,
        kind="goldfish",
        deck_a_version=version,
        params={},
        sides=[],
        seed=1,
        runs=1,
        chunk_size=1,
        chunk_count=1,
    )
    return MatchLog.objects.create(
        owner=alice,
        source=MatchLog.Source.BATCH,
        title="sample",
        batch=batch,
        chunk_index=0,
        sample_number=0,
        deck_version=version,
        log=a_log(),
    )


def test_a_batch_sample_opens_with_the_batchs_share_link(bob_client, batch_log):
    url = reverse("play:replay", args=[batch_log.share_token])
    assert bob_client.get(url).status_code == 404
    assert bob_client.get(url + "?batch=wrong").status_code == 404
    shared = bob_client.get(url + f"?batch={batch_log.batch.share_token}")
    assert shared.status_code == 200
    assert f"?batch={batch_log.batch.share_token}" in shared.content.decode()


def test_the_shared_batch_page_links_its_samples_to_the_replay(anon_client, batch_log):
    batch = batch_log.batch
    html = anon_client.get(reverse("play:batch-shared", args=[batch.share_token])).content.decode()
    assert (
        reverse("play:replay", args=[batch_log.share_token]) + f"?batch={batch.share_token}"
    ) in html


def upload(client, content: bytes, name: str = "match.json"):
    file = io.BytesIO(content)
    file.name = name
    return client.post(reverse("play:replay-upload"), {"file": file})


def test_a_valid_upload_is_saved_for_a_logged_in_user(alice_client, alice):
    log = a_log(3)
    response = upload(alice_client, json.dumps(log).encode())
    saved = MatchLog.objects.get(owner=alice, source=MatchLog.Source.UPLOAD)
    assert response.status_code == 302
    assert response["Location"] == reverse("play:replay", args=[saved.share_token])
    assert saved.log == log
    goals = log["result"]["goals"]
    assert saved.title.startswith(f"{log['sides']['A']['name']} {goals['A']}–{goals['B']}")


def test_an_uploaded_log_stays_its_owners(bob_client, alice_client, alice):
    upload(alice_client, json.dumps(a_log(4)).encode())
    saved = MatchLog.objects.get(owner=alice)
    assert bob_client.get(reverse("play:replay", args=[saved.share_token])).status_code == 404


def test_a_guest_upload_is_shown_but_not_saved(anon_client):
    log = a_log(5)
    response = upload(anon_client, json.dumps(log).encode())
    assert response.status_code == 200
    data = replay_data(response)
    assert data["window"]["events"] == log["events"][: data["window_size"]]
    # the other windows of the unsaved log come from the uploader's session
    last = anon_client.get(data["steps_url"] + f"?position={len(log['events'])}").json()
    assert last["events"][-1] == log["events"][-1] and last["end"] == len(log["events"])
    assert "not saved" in response.content.decode()
    assert not MatchLog.objects.exists()


def test_a_file_that_is_not_json_gets_a_clear_message(alice_client):
    response = upload(alice_client, b'{"format": ')
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()
    assert not MatchLog.objects.exists()


def test_a_log_breaking_the_schema_names_the_path_and_the_problem(alice_client):
    log = a_log(6)
    log["events"][3]["turn"] = "three"
    del log["result"]["winner"]
    response = upload(alice_client, json.dumps(log).encode())
    html = response.content.decode()
    assert response.status_code == 400
    assert "events/3/turn: &#x27;three&#x27; is not of type &#x27;integer&#x27;" in html
    assert "result: &#x27;winner&#x27; is a required property" in html


def test_a_json_value_that_is_not_an_object_is_refused(anon_client):
    response = upload(anon_client, b"[1, 2, 3]")
    assert response.status_code == 400
    assert "JSON object" in response.content.decode()


def test_the_upload_page_renders(anon_client):
    response = anon_client.get(reverse("play:replay-upload"))
    assert response.status_code == 200 and 'type="file"' in response.content.decode()


def test_a_log_cut_short_is_refused_because_it_does_not_replay(alice_client):
    log = a_log(7)
    log["events"] = log["events"][:50]
    response = upload(alice_client, json.dumps(log).encode())
    assert response.status_code == 400
    assert "does not replay" in response.content.decode()
    assert not MatchLog.objects.exists()


@pytest.mark.parametrize(
    "tamper",
    [
        lambda log: log["result"]["goals"].update(A=10**15),
        lambda log: next(e for e in log["events"] if "ball" in e).update(ball=99),
        lambda log: log["cards"].update({"ZZ-999": next(iter(log["cards"].values()))}),
    ],
)
def test_a_tampered_log_is_refused_and_nothing_saved(alice_client, tamper):
    log = a_log(8)
    tamper(log)
    response = upload(alice_client, json.dumps(log).encode())
    assert response.status_code == 400
    assert not MatchLog.objects.exists()


def test_an_over_long_side_name_is_refused_naming_the_limit(anon_client, alice_client):
    log = a_log(9)
    log["sides"]["A"]["name"] = "x" * 100_000
    for client in (anon_client, alice_client):
        response = upload(client, json.dumps(log).encode())
        assert response.status_code == 400
        assert "at most 200 are allowed" in response.content.decode()
        assert len(response.content) < 200_000
    assert not MatchLog.objects.exists()


def test_too_many_events_are_refused_naming_the_limit(anon_client):
    log = a_log(10)
    log["events"] = log["events"] * (MAX_LOG_EVENTS // len(log["events"]) + 1)
    response = upload(anon_client, json.dumps(log).encode())
    assert response.status_code == 400 and "at most 10000" in response.content.decode()


@pytest.mark.parametrize(
    "raw, words",
    [
        (b'{"format": NaN}', "NaN"),
        (b'{"seed": 1' + b"0" * 5000 + b"}", "digits"),
        (b"[" * 50_000 + b"]" * 50_000, "nested deeper"),
        (b'{"format": "\\u0000"}', "NUL"),
        (b'{"seed": 1, "seed": 2}', "“seed” appears twice"),
    ],
)
def test_hostile_json_in_an_upload_is_a_400_for_a_signed_in_user(alice_client, raw, words):
    response = upload(alice_client, raw)
    assert response.status_code == 400 and words in response.content.decode()
    assert not MatchLog.objects.exists()
