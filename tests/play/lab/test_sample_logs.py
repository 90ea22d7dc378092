"""A Touchdown Heroes lab batch keeps a few sample games, opened in the Touchdown replay viewer."""

import pytest
from django.urls import reverse

from play.models import SimulationBatch
from play.simulations import kinds, services
from play.simulations.core import SAMPLE_LOGS_PER_OPPONENT
from play.studies.labels import variant_label

pytestmark = pytest.mark.django_db


@pytest.fixture
def lab_batch(alice, settings):
    settings.SIMULATION_CHUNK_SIZE = {"touchdown": 10}
    batch = services.lab_batch_create(
        owner=alice, variants=[{"onside_rolls": 1}, {"random_kick_base": 0}], runs=20, seed=3
    )
    for index in range(batch.chunk_count):
        services.chunk_run(batch_id=batch.id, index=index)
    batch.refresh_from_db()
    return batch


def test_each_variant_keeps_sample_games_with_their_score(lab_batch):
    assert lab_batch.status == SimulationBatch.Status.DONE
    logs = list(lab_batch.sample_logs.order_by("chunk_index", "sample_number"))
    assert len(logs) == 2 * SAMPLE_LOGS_PER_OPPONENT  # the first chunk of each variant
    for match_log in logs:
        assert match_log.log["format"] == "touchdown-heroes-log"
        score = match_log.log["result"]["score"]
        assert match_log.title.startswith(f"Eagles {score['eagles']}–{score['bears']} Bears")
    bases = {m.log["rules"]["random_kick_base"] for m in logs}
    assert bases == {3, 0}  # each variant's own rules are in its logs


def test_the_batch_page_links_its_games_to_the_touchdown_viewer(lab_batch, alice_client):
    page = alice_client.get(reverse("play:batch-detail", args=[lab_batch.id])).content.decode()
    first = lab_batch.sample_logs.order_by("chunk_index", "sample_number").first()
    assert reverse("play:td-log-replay", args=[first.share_token]) in page
    response = alice_client.get(
        reverse("play:td-log-replay", args=[first.share_token]), {"step": 5}
    )
    assert response.status_code == 200
    assert "step 5 of" in response.content.decode()
    # the Eleven Stars viewer sends a Touchdown log to its own viewer
    response = alice_client.get(reverse("play:replay", args=[first.share_token]))
    assert response.status_code == 302
    assert response["Location"] == reverse("play:td-log-replay", args=[first.share_token])


def test_someone_else_needs_the_batch_share_link(lab_batch, bob_client):
    first = lab_batch.sample_logs.first()
    url = reverse("play:td-log-replay", args=[first.share_token])
    assert bob_client.get(url).status_code == 404
    shared = bob_client.get(url, {"batch": lab_batch.share_token, "step": 2})
    assert shared.status_code == 200
    assert f"batch={lab_batch.share_token}" in shared.content.decode()


def test_the_touchdown_kind_names_its_viewer():
    assert kinds.get("touchdown").keeps_logs is True
    assert kinds.get("touchdown").replay_url_name == "play:td-log-replay"
    assert kinds.get("goldfish").replay_url_name == "play:replay"


def test_the_sample_games_say_which_variant_they_played(lab_batch, alice_client):
    body = alice_client.get(lab_batch.get_absolute_url()).content.decode()
    labels = [variant_label(side) for side in lab_batch.sides]  # the summary, in words
    assert labels == [
        "onside on a roll of 1, Effect set: none, Greedy bots",
        "onside on a roll of 1, Random kick base: 0, Effect set: none, Greedy bots",
    ]
    items = body[body.index('<ul class="sample-logs">') :].split("</ul>")[0].split("<li>")[1:]
    assert [item.split("</strong>")[0].split(">")[-1] for item in items] == [
        label for label in labels for _ in range(SAMPLE_LOGS_PER_OPPONENT)
    ]


def test_a_sweeps_sample_games_say_which_cell_they_played(alice, alice_client, settings):
    # Every cell plays the same seeds: without the cell the three lines read alike.
    settings.SIMULATION_CHUNK_SIZE = {"touchdown": 8}
    batch = services.lab_batch_create(
        owner=alice,
        variants=[{}],
        runs=4,
        seed=4,
        study={"kind": "sweep", "grid": [["onside_rolls", "0,1,2"]]},
    )
    for index in range(batch.chunk_count):
        services.chunk_run(batch_id=batch.pk, index=index)
    body = alice_client.get(batch.get_absolute_url()).content.decode()
    listed = body[body.index('<ul class="sample-logs">') :].split("</ul>")[0]
    for value in (0, 1, 2):
        assert f'<strong class="sample-cell">Onside range (1 to N): {value}</strong>' in listed
