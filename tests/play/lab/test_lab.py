"""The Touchdown Heroes balance lab: variants, chunk counts, the page, the batch and results."""

import json
from unittest.mock import patch

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from play.models import SimulationBatch
from play.simulations import services
from play.studies import variants as lab

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued():
    with patch("play.simulations.services.queue_chunks") as queue:
        yield queue


def run_all(batch):
    for index in range(batch.chunk_count):
        services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    return batch


def test_a_variant_is_checked_field_by_field():
    with pytest.raises(lab.VariantError) as info:
        lab.clean_variant(
            {"onside_rolls": 9, "minimum_kick": "yes", "kickoffs": "always", "policy": "smart"}
        )
    assert set(info.value.errors) == {"onside_rolls", "minimum_kick", "kickoffs", "policy"}


def test_a_bad_effect_set_names_its_entries():
    with pytest.raises(lab.VariantError) as info:
        lab.clean_variant({"effects": {"format": "touchdown-effect-set", "version": 1}})
    messages = " ".join(info.value.errors["effects"])
    assert "playbook" in messages


def test_default_variant_is_the_draft():
    variant = lab.clean_variant({})
    assert variant["onside_rolls"] == 1 and variant["kickoffs"] == "choice"
    assert variant["label"] == "onside on 1, effects: none, greedy"


def test_a_chunk_counts_every_game_and_kick_off():
    result, logs = lab.run_chunk(variant=lab.clean_variant({}), runs=60, seed=3)
    assert result["runs"] == 60 == sum(result["wins"].values()) + result["draws"]
    kicks = result["kicker"]
    assert sum(k["kickoffs"] for k in kicks.values()) == sum(result["kickoffs"].values())
    assert kicks["onside"]["kickoffs"] == result["onside_successes"] <= result["onside_attempts"]
    assert sum(result["total_score"].values()) == 60
    assert logs == []


def test_normal_kick_offs_only_never_onside():
    variant = lab.clean_variant({"kickoffs": "normal_only"})
    result, _ = lab.run_chunk(variant=variant, runs=30, seed=3)
    assert result["kickoffs"]["random"] == 0
    assert result["onside_attempts"] == 0


def test_the_same_seed_gives_the_same_chunk():
    variant = lab.clean_variant({"effects": "example"})
    assert lab.run_chunk(variant=variant, runs=20, seed=8) == lab.run_chunk(
        variant=variant, runs=20, seed=8
    )


def test_a_lab_batch_compares_two_variants(alice, queued):
    batch = services.lab_batch_create(
        owner=alice, variants=[{}, {"onside_rolls": 2}], runs=150, seed=1
    )
    assert batch.kind == "touchdown" and batch.deck_a_version is None
    assert batch.chunk_count == 2
    batch = run_all(batch)
    assert batch.status == "done"
    first, second = batch.results["variants"]
    assert (first["runs"], second["runs"]) == (150, 150)
    assert first["label"] == "onside on 1, effects: none, greedy"
    assert second["label"] == "onside on 1–2, effects: none, greedy"
    assert 0 <= first["onside"]["interval"][0] <= first["onside"]["rate"] <= 1


def test_bad_lab_parameters_are_refused_per_field(alice, queued):
    with pytest.raises(services.BatchInvalid) as info:
        services.lab_batch_create(owner=alice, variants=[{}, {}, {}], runs=0)
    assert set(info.value.errors) == {"runs", "variants"}


def test_the_lab_page_explains_the_rules_and_the_effect_format(client):
    html = client.get("/lab/touchdown/").content.decode()
    assert "オンサイドキック" in html and "TD-KICK-1" in html
    assert "kick_minimum" in html and "<table>" in html
    assert "Log in" in html


def test_the_lab_form_starts_a_batch(alice_client, queued):
    response = alice_client.post(
        "/lab/touchdown/",
        {
            "a-onside_rolls": "1",
            "a-kickoffs": "choice",
            "b-onside_rolls": "2",
            "b-kickoffs": "choice",
            "b-kick_floor": "7",
            "compare": "on",
            "effects": "example",
            "policy": "greedy",
            "runs": "300",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    batch = SimulationBatch.objects.get(kind="touchdown")
    assert [v["minimum_kick"] for v in batch.sides] == [False, True]  # a floor of 7 is the old box
    assert [v["kick_floor"] for v in batch.sides] == [0, 7]
    assert all(v["effects"] == "example" for v in batch.sides)


def test_a_designers_effect_file_with_a_mistake_gets_a_clear_message(alice_client, queued):
    bad = {"format": "touchdown-effect-set", "version": 1, "name": "mine", "playbook": {}}
    upload = SimpleUploadedFile("mine.json", json.dumps(bad).encode(), "application/json")
    response = alice_client.post(
        "/lab/touchdown/",
        {
            "a-onside_rolls": "1",
            "a-kickoffs": "choice",
            "effects": "file",
            "effects_file": upload,
            "policy": "greedy",
            "runs": "10",
        },
    )
    assert response.status_code == 400
    assert "playbook" in response.content.decode()
    assert not SimulationBatch.objects.exists()


def test_lab_results_page_shows_the_side_by_side_table(alice, alice_client, queued):
    batch = run_all(
        services.lab_batch_create(owner=alice, variants=[{}, {"kickoffs": "normal_only"}], runs=40)
    )
    html = alice_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert "Onside kick success rate" in html
    assert "normal kick-offs only" in html
    assert 'data-chart="lab"' in html


def test_the_api_starts_a_lab_batch(alice_client, queued):
    response = alice_client.post(
        "/api/simulations/",
        {"kind": "touchdown", "runs": 10, "variants": [{"onside_rolls": 2}]},
        content_type="application/json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["kind"] == "touchdown"
    missing = alice_client.post(
        "/api/simulations/", {"kind": "touchdown", "runs": 10}, content_type="application/json"
    )
    assert missing.status_code == 400
    assert "variants" in {e["field"] for e in missing.json()["errors"]}


def test_a_json_post_to_the_lab_page_is_a_400_with_the_form_errors(alice_client):
    response = alice_client.post("/lab/touchdown/", "{}", content_type="application/json")
    assert response.status_code == 400


def test_a_variant_takes_every_kick_off_option_and_names_a_bad_one():  # issue #14
    variant = lab.clean_variant({"random_kick_base": 0, "kick_floor": 8, "onside_ball": 9})
    options = lab.variant_options(variant)
    assert (options.random_kick_base, options.kick_floor, options.onside_ball) == (0, 8, 9)
    assert "random_kick_base=0" in variant["label"]
    with pytest.raises(lab.VariantError) as info:
        lab.clean_variant({"kick_floor": 12, "kick_play_hand": "nobody"}, prefix="variant_a_")
    assert set(info.value.errors) == {"variant_a_kick_floor", "variant_a_kick_play_hand"}


def test_an_effect_file_with_a_repeated_key_names_it(alice_client, queued):
    raw = b'{"format": "touchdown-effect-set", "version": 1, "version": 2}'
    upload = SimpleUploadedFile("mine.json", raw, "application/json")
    response = alice_client.post(
        "/lab/touchdown/",
        {
            "a-onside_rolls": "1",
            "a-kickoffs": "choice",
            "effects": "file",
            "effects_file": upload,
            "policy": "greedy",
            "runs": "10",
        },
    )
    assert response.status_code == 400
    assert "“version” appears twice" in response.content.decode()
    assert not SimulationBatch.objects.exists()


def test_a_variant_names_the_floor_it_plays_never_minimum_kick_beside_another_floor():
    from play.studies.labels import describe_variant
    from play.studies.variants import clean_variant, describe, variant_options

    both = clean_variant({"minimum_kick": True, "kick_floor": 8})
    assert (both["minimum_kick"], both["kick_floor"]) == (False, 8)
    assert variant_options(both).kick_floor == 8
    assert "minimum kick" not in describe(both) and "kick_floor=8" in describe(both)
    assert "minimum kick" not in describe_variant(both)
    shorthand = clean_variant({"minimum_kick": True})
    assert (shorthand["minimum_kick"], shorthand["kick_floor"]) == (True, 7)
    assert variant_options(shorthand) == variant_options(clean_variant({"kick_floor": 7}))
