"""Issue #11 and #17 on batches: the bots by strength, the second edition's rule options
(R-PLAY-4 `empty_timing`, R-DRAW-2 `deck_out`) from form and API to the engine, the logs and the
results, results that name decks and bots (never "A"/"B"), and a cancelled batch's partial
results."""

import re
from unittest.mock import patch

import pytest

from decks.models import Deck
from play.engine.log import validate_log
from play.engine.policies import LADDER
from play.models import MatchLog, SimulationBatch
from play.simulations import selectors, services
from play.simulations.bots import ENGINE_RULE_VALUES, RULE_CHOICES, bot_choices

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_chunks(settings):
    settings.SIMULATION_CHUNK_SIZE = {"pk": 100, "goldfish": 10, "match": 10, "gauntlet": 10}


@pytest.fixture
def decks():
    return list(Deck.objects.filter(is_sample=True).order_by("slug"))


@pytest.fixture
def queued():
    with patch("play.simulations.services.queue_chunks") as queue:
        yield queue


def run_all(batch, upto=None):
    for index in range(batch.chunk_count if upto is None else upto):
        services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    return batch


def select_values(html: str, name: str) -> list[str]:
    block = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return re.findall(r'<option value="([^"]*)"', block)


def test_the_words_for_the_rule_options_are_the_engines_readings_in_order():
    for name, (_question, readings) in RULE_CHOICES.items():
        assert tuple(readings) == ENGINE_RULE_VALUES[name]


def test_the_simulate_form_offers_the_bots_strongest_first_and_both_rule_options(
    alice_client, decks
):
    html = alice_client.get(f"/simulations/new/?deck={decks[0].slug}").content.decode()
    strongest_first = list(reversed(LADDER))
    assert select_values(html, "policy_a") == strongest_first
    assert select_values(html, "policy_b") == strongest_first
    assert select_values(html, "empty_timing") == ["passes", "ends_phase"]  # R-PLAY-4
    assert select_values(html, "deck_out") == ["draw_phase", "any_draw"]  # R-DRAW-2
    labels = dict(bot_choices())
    assert "rollouts a decision" in labels["search-strong"] and labels["greedy"] == "Greedy bot"


def test_the_forms_rule_options_reach_the_engine_the_logs_and_the_results(
    alice_client, decks, queued
):
    response = alice_client.post(
        f"/simulations/new/?deck={decks[0].slug}",
        {
            "deck": decks[0].slug,
            "kind": "match",
            "deck_b": decks[1].pk,
            "policy_a": "greedy",
            "policy_b": "random",
            "runs": 12,
            "seed": 4,
            "empty_timing": "ends_phase",
            "deck_out": "any_draw",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    batch = run_all(SimulationBatch.objects.get())
    first_edition = {"empty_timing": "ends_phase", "deck_out": "any_draw"}
    assert batch.params["options"] == first_edition
    assert batch.results["rules"] == first_edition
    assert batch.results["sides"]["A"] == {"deck": decks[0].name, "bot": "greedy"}
    assert batch.results["sides"]["B"] == {"deck": decks[1].name, "bot": "random"}
    logs = MatchLog.objects.filter(batch=batch)
    assert logs.exists()
    for log in logs:
        validate_log(log.log)
        house = log.log["rules"]["house"]
        assert (house["empty_timing"], house["deck_out"]) == ("ends_phase", "any_draw")
    html = alice_client.get(batch.get_absolute_url()).content.decode()
    assert "ends the play phase (first edition)" in html
    assert "at any draw (first edition)" in html


def test_the_rule_options_change_the_matches(alice, decks, queued):
    def batch(**options):
        made = services.batch_create(
            owner=alice,
            request=services.BatchRequest(
                kind="match", deck_a=decks[0], deck_b=decks[1], runs=10, seed=9, options=options
            ),
        )
        return run_all(made).results

    second, first = batch(), batch(empty_timing="ends_phase", deck_out="any_draw")
    assert second["rules"] == {"empty_timing": "passes", "deck_out": "draw_phase"}
    # Under the first edition an offense that plays nothing keeps the ball: longer halves.
    assert first["turns_half_mean"][0] > second["turns_half_mean"][0]


def test_the_api_takes_the_rule_options_and_names_a_bad_one(alice_client, decks, queued):
    response = alice_client.post(
        "/api/simulations/",
        {
            "kind": "match",
            "deck_a": decks[0].slug,
            "deck_b": decks[1].slug,
            "runs": 10,
            "policy_a": "search",
            "empty_timing": "ends_phase",
        },
        content_type="application/json",
    )
    assert response.status_code == 201, response.json()
    params = response.json()["params"]
    assert params["options"] == {"empty_timing": "ends_phase", "deck_out": "draw_phase"}
    assert params["policy_a"] == "search"
    for field, value in (("empty_timing", "sometimes"), ("deck_out", 3), ("policy_b", "chess")):
        bad = alice_client.post(
            "/api/simulations/",
            {"kind": "match", "deck_a": decks[0].slug, "deck_b": decks[1].slug, "runs": 5}
            | {field: value},
            content_type="application/json",
        )
        assert bad.status_code == 400
        assert {e["field"] for e in bad.json()["errors"]} == {field}


def test_the_service_refuses_an_unknown_rule_option_by_its_field(alice, decks):
    with pytest.raises(services.BatchInvalid) as caught:
        services.batch_create(
            owner=alice,
            request=services.BatchRequest(
                kind="match",
                deck_a=decks[0],
                deck_b=decks[1],
                runs=5,
                options={"empty_timing": "never", "halftime": "x"},
            ),
        )
    assert set(caught.value.errors) == {"empty_timing", "halftime"}
    assert "passes or ends_phase" in caught.value.errors["empty_timing"][0]


A_B_WORDS = re.compile(r"deck [AB]\b|\b[AB]'s deck|\(A–B\)|\bA wins\b|by deck A")


@pytest.mark.parametrize("kind", ["match", "goldfish", "pk", "gauntlet"])
def test_results_name_the_decks_and_bots_never_a_or_b(alice, alice_client, decks, queued, kind):
    batch = services.batch_create(
        owner=alice,
        request=services.BatchRequest(
            kind=kind, deck_a=decks[0], deck_b=decks[1], runs=10, seed=2, policy_a="random"
        ),
    )
    batch = run_all(batch)
    html = alice_client.get(batch.get_absolute_url()).content.decode()
    section = html[html.index('class="batch-results"') :]
    assert not A_B_WORDS.search(html), A_B_WORDS.search(html).group(0)
    assert decks[0].name in section
    if kind == "pk":
        assert decks[1].name in section and "Random bot" not in html  # shootouts: no bots
        return
    assert "Random bot" in html  # deck A's bot, in the heading and the results
    if kind == "gauntlet":
        assert "Greedy bot" in section  # the bot that plays every prebuilt deck
    else:
        assert decks[1].name in section
        bot_b = "Passive (never plays)" if kind == "goldfish" else "Greedy bot"
        assert f"{decks[1].name} — {bot_b}" in html  # the heading names both bots
        assert batch.results["sides"]["B"]["bot"] == ("passive" if kind == "goldfish" else "greedy")


def test_a_cancelled_batch_shows_the_partial_results_of_its_finished_chunks(
    alice, alice_client, decks, queued
):
    batch = services.batch_create(
        owner=alice,
        request=services.BatchRequest(
            kind="match", deck_a=decks[0], deck_b=decks[1], runs=25, seed=3
        ),
    )
    run_all(batch, upto=2)  # 2 of 3 chunks: 20 of 25 runs
    assert services.batch_cancel(batch=batch)
    services.chunk_run(batch_id=batch.pk, index=2)  # too late: the batch is cancelled
    batch.refresh_from_db()
    assert batch.status == "cancelled" and batch.results is None
    results, partial = selectors.batch_shown_results(batch)
    assert partial == {"runs": 20, "planned": 25, "chunks": 2, "chunk_count": 3}
    assert results["runs"] == 20 and results["partial"] == partial
    html = alice_client.get(batch.get_absolute_url()).content.decode()
    assert "Partial results" in html and "20 of 25 planned runs" in html
    assert 'class="batch-results"' in html and 'data-chart="bar"' in html
    shown = re.search(r'id="batch-results" type="application/json">(.*?)</script>', html, re.S)
    assert '"partial"' in shown.group(1)
    body = alice_client.get(f"/simulations/{batch.pk}/results.json").json()
    assert body["results"]["partial"]["runs"] == 20
    api = alice_client.get(f"/api/simulations/{batch.pk}/").json()
    assert api["results"]["runs"] == 20 and api["results"]["partial"]["planned"] == 25


def test_a_cancelled_batch_with_no_finished_chunk_shows_no_results(
    alice, alice_client, decks, queued
):
    batch = services.batch_create(
        owner=alice,
        request=services.BatchRequest(kind="match", deck_a=decks[0], deck_b=decks[1], runs=25),
    )
    services.batch_cancel(batch=batch)
    batch.refresh_from_db()
    assert selectors.batch_shown_results(batch) == (None, None)
    html = alice_client.get(batch.get_absolute_url()).content.decode()
    assert "Partial results" not in html and 'class="batch-results"' not in html


def test_a_done_batch_is_not_marked_partial(alice, alice_client, decks, queued):
    batch = run_all(
        services.batch_create(
            owner=alice,
            request=services.BatchRequest(kind="match", deck_a=decks[0], deck_b=decks[1], runs=12),
        )
    )
    assert "partial" not in batch.results
    assert "Partial results" not in alice_client.get(batch.get_absolute_url()).content.decode()


def test_the_gauntlet_chart_asks_for_interval_bars_and_two_distinct_markers(
    alice, alice_client, decks, queued
):
    batch = run_all(
        services.batch_create(
            owner=alice, request=services.BatchRequest(kind="gauntlet", deck_a=decks[0], runs=10)
        )
    )
    html = alice_client.get(batch.get_absolute_url()).content.decode()
    canvas = re.search(r'<canvas data-chart="winrates"[^>]*>', html).group(0)
    assert 'data-label-low="95% low"' in canvas and 'data-label-high="95% high"' in canvas
    assert all(len(row["interval"]) == 2 for row in batch.results["table"])
