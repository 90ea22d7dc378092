"""The card report: per-card counts read from match logs, win rates when drawn and not, raw
counts to download (issue #29 item 1)."""

from unittest.mock import patch

import pytest

from play.engine.runner import play_match
from play.simulations import card_report, services
from play.simulations import core as simulation
from play.simulations.sides import prebuilt_decks

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_sides(db):
    from play.simulations.sides import latest_snapshot

    decks = list(prebuilt_decks()[:2])
    sides = [latest_snapshot(deck, "deck", {}, verb="played")[1] for deck in decks]
    return [simulation.side_deck(side) for side in sides]


def test_one_match_is_read_from_its_log(two_sides):
    side_a, side_b = two_sides
    outcome = play_match(side_a, side_b, policy_a="greedy", policy_b="greedy", seed=11, log=True)
    counts, won = card_report.match_counts(outcome.log)
    assert won == (outcome.winner == "A")
    events = outcome.log["events"]
    played = [c for e in events if e["type"] == "play" and e["side"] == "A" for c in e["cards"]]
    assert sum(counts["plays"].values()) == len(played)
    assert set(counts["played_in"]) == set(played) <= set(counts["drawn"])
    goals_by_a = sum(1 for e in events if e["type"] == "goal" and e["side"] == "A")
    assert goals_by_a == 0 or sum(counts["scored"].values()) > 0 or not played
    assert all(n == 1 for n in counts["drawn"].values())  # a match counts a card once


def test_a_chunk_plays_the_matches_a_plain_batch_plays(two_sides):
    side_a, side_b = two_sides
    params = {"policy_a": "greedy", "policy_b": "greedy"}
    report = card_report.run_chunk(side_a=side_a, side_b=side_b, params=params, runs=12, seed=5)
    plain, _ = simulation.run_matches(side_a=side_a, side_b=side_b, params=params, runs=12, seed=5)
    assert report["runs"] == 12 and report["wins"] == plain["wins"].get("A", 0)
    for card_id, drawn in report["drawn"].items():
        assert drawn <= 12 and report["wins_drawn"].get(card_id, 0) <= min(drawn, report["wins"])


def test_the_summary_rates_and_cautions():
    merged = card_report.merge(
        [
            {"runs": 60, "wins": 30, "drawn": {"X-001": 40}, "wins_drawn": {"X-001": 28}},
            {
                "runs": 40,
                "wins": 20,
                "drawn": {"X-001": 20, "X-002": 5},
                "wins_drawn": {"X-001": 12},
            },
        ]
    )
    summary = card_report.summarize(merged, ["X-001", "X-001", "X-002"])
    first, second = summary["cards"]
    assert (first["card"], first["copies"], first["drawn"]) == ("X-001", 2, 60)
    assert first["win_drawn"] == pytest.approx(40 / 60)
    assert first["win_not_drawn"] == pytest.approx(10 / 40)
    assert first["difference"] == pytest.approx(40 / 60 - 10 / 40) and not first["small_sample"]
    low, high = first["win_drawn_interval"]
    assert low < 40 / 60 < high
    assert second["small_sample"] and second["played_in"] == 0


def test_a_card_report_batch_shows_every_card_and_its_counts(alice, alice_client, settings):
    from decks.services import deck_copy

    settings.SIMULATION_CHUNK_SIZE = {"cards": 3}
    deck = deck_copy(deck=prebuilt_decks().first(), owner=alice)
    with patch("play.simulations.services.queue_chunks"):
        batch = services.batch_create(
            owner=alice,
            request=services.BatchRequest(kind="cards", deck_a=deck, runs=3, seed=4),
        )
        for index in range(batch.chunk_count):
            services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    assert batch.status == "done" and not batch.sample_logs.exists()
    results = batch.results
    assert results["runs"] == 3 * prebuilt_decks().count()
    ids = set(batch.sides[0]["cards"])
    assert {row["card"] for row in results["cards"]} == ids
    page = alice_client.get(batch.get_absolute_url()).content.decode()
    assert 'id="card-report"' in page and "drawn with" in page
    csv_text = alice_client.get(f"/simulations/{batch.pk}/cards.csv").content.decode()
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("matches,wins,card,copies,drawn") and len(lines) == len(ids) + 1
    other = alice_client.get(f"/simulations/{batch.pk + 999}/cards.csv")
    assert other.status_code == 404
    alice_client.cookies["django_language"] = "ja"
    from tests.test_japanese_pages import _data_words, english_in

    ja = alice_client.get(batch.get_absolute_url()).content.decode()
    assert english_in(ja, _data_words()) == []
