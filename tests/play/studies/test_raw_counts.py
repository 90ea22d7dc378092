"""A reader can recompute a study's figures from its downloads: raw counts for each cell and
every deal's outcome, and each margin's scale (issue #28 items 3 and 5)."""

import csv
import io
import math
from unittest.mock import patch

import pytest

from play.simulations import services
from play.touchdown import matchups

pytestmark = pytest.mark.django_db

SWEEP = {
    "kind": "sweep",
    "grid": [["kick_floor", "0,7"]],
    "a": "random",
    "b": "normal",
    "bot": "greedy",
}


@pytest.fixture
def sweep(alice, settings):
    settings.SIMULATION_CHUNK_SIZE = {"touchdown": 5}
    with patch("play.simulations.services.queue_chunks"):
        batch = services.lab_batch_create(owner=alice, variants=[{}], runs=12, seed=9, study=SWEEP)
        for index in range(batch.chunk_count):
            services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    assert batch.status == "done"
    return batch


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_a_sweep_interval_is_recomputed_from_the_per_deal_download(alice_client, sweep):
    report = rows(alice_client.get(f"/simulations/{sweep.pk}/report.csv").content.decode())
    deals = rows(alice_client.get(f"/simulations/{sweep.pk}/report.deals.csv").content.decode())
    assert len(report) == 2 and len(deals) == 2 * 12
    for cell, line in enumerate(report):
        units = [
            tuple(float(d[name]) for name in matchups.COLUMNS)
            for d in deals
            if int(d["cell"]) == cell
        ]
        assert len(units) == 12
        figures = matchups.bootstrap(units)  # the same resamples the batch drew
        margin = figures["margin"]
        assert float(line["margin"]) == pytest.approx(margin["value"])
        assert [float(line["margin_low"]), float(line["margin_high"])] == pytest.approx(
            margin["interval"]
        )
        games = int(line["games"])
        assert int(line["wins"]) + int(line["draws"]) + int(line["losses"]) == games == 24
        assert int(line["wins"]) == sum(float(d["a_wins"]) for d in deals if int(d["cell"]) == cell)
        points = int(line["points_for"]) - int(line["points_against"])
        assert points / games == pytest.approx(margin["value"])
        assert 0 <= float(line["close_share"]) <= 1 and float(line["margin_sd"]) >= 0


def test_the_page_shows_each_margin_beside_its_scale(alice_client, sweep):
    page = alice_client.get(sweep.get_absolute_url()).content.decode()
    assert "Spread of a game’s margin" in page and "Games within a touchdown" in page
    assert "report.deals.csv" in page
    cell = sweep.results["sweep"]["cells"][0]
    counts = cell["counts"]
    assert counts["games"] == 24 and counts["wins"] + counts["draws"] + counts["losses"] == 24
    assert f"{counts['margin_sd']:.2f}" in page


def test_units_stored_before_the_raw_counts_still_give_their_figures():
    units = matchups.play_units(matchups.Options(), "greedy", "greedy+random", range(6))
    old = [unit[: len(matchups.RESAMPLED)] for unit in units]  # as stored before issue #28
    padded = matchups.units_of({"units": {str(i): list(u) for i, u in enumerate(old)}})
    assert matchups.bootstrap(padded) == matchups.bootstrap(units)
    counts = matchups.raw_counts(padded)
    assert counts["games"] == 12 and counts["wins"] is None and counts["margin_sd"] is None
    fresh = matchups.raw_counts(units)
    assert fresh["wins"] + fresh["draws"] + fresh["losses"] == 12
    margins = [unit[matchups.COLUMNS.index("margin")] for unit in units]
    assert not any(math.isnan(m) for m in margins)


def test_game_length_is_the_tricks_and_drives_of_both_games():  # issue #28: game length
    from play.touchdown.strategies import team_policy

    options = matchups.Options()
    pa, pb = team_policy("greedy+random"), team_policy("greedy")
    tricks = drives = 0
    for seed in range(5):
        for seats in ((pa, pb, pa, pb), (pb, pa, pb, pa)):
            outcome = matchups.play_game(options, seats, seed, log=False)
            tricks += outcome.tricks
            drives += len(outcome.drives)
    units = matchups.play_units(options, "greedy+random", "greedy", range(5))
    counts = matchups.raw_counts(units)
    assert (counts["tricks"], counts["drives"]) == (tricks, drives)
    assert matchups.raw_counts(units, side="b")["tricks"] == tricks
    assert tricks > 10 * 10  # some 15-25 tricks a game
    # a unit stored before game length was kept says None, not 0
    old = [unit[: matchups.COLUMNS.index("tricks")] for unit in units]
    padded = matchups.units_of({"units": {str(i): list(u) for i, u in enumerate(old)}})
    assert matchups.raw_counts(padded)["tricks"] is None
    assert matchups.raw_counts(padded)["wins"] == counts["wins"]


def test_the_spread_and_close_share_are_those_of_single_games():
    import statistics

    from play.touchdown.cards import TEAMS
    from play.touchdown.strategies import team_policy

    options = matchups.Options()
    pa, pb = team_policy("greedy+random"), team_policy("greedy")
    margins = []
    for seed in range(8):
        first = matchups.play_game(options, (pa, pb, pa, pb), seed, log=False)
        second = matchups.play_game(options, (pb, pa, pb, pa), seed, log=False)
        margins.append(first.score[TEAMS[0]] - first.score[TEAMS[1]])
        margins.append(second.score[TEAMS[1]] - second.score[TEAMS[0]])
    counts = matchups.raw_counts(matchups.play_units(options, "greedy+random", "greedy", range(8)))
    assert counts["margin_sd"] == pytest.approx(statistics.stdev(margins))
    assert counts["close_share"] == pytest.approx(sum(abs(m) <= 3 for m in margins) / 16)
    assert counts["wins"] == sum(m > 0 for m in margins)


def test_the_band_shortlists_the_cells_near_even(alice_client, sweep):
    from play.studies.presenters import band_from, band_view

    wide, error = band_from({"band_margin": "10", "band_low": "0", "band_high": "1"})
    assert error == "" and len(band_view(sweep.results, wide)["rows"]) == 2
    rows = band_view(sweep.results, wide)["rows"]
    assert rows[0]["distance"] <= rows[1]["distance"] or rows[0]["sure"]
    assert all(row["points_change"] is not None for row in rows)
    narrow, _ = band_from({"band_margin": "0", "band_low": "0.5", "band_high": "0.5"})
    assert (
        all(cell["figures"]["margin"]["value"] == 0 for cell in sweep.results["sweep"]["cells"])
        or len(band_view(sweep.results, narrow)["rows"]) < 2
    )
    for bad in (
        {"band_margin": "x"},
        {"band_margin": "nan"},
        {"band_low": "0.9", "band_high": "0.1"},
    ):
        band, error = band_from(bad)
        assert error and band["low"] <= band["high"]
    page = alice_client.get(
        sweep.get_absolute_url(), {"band_margin": "10", "band_low": "0", "band_high": "1"}
    )
    assert 'id="td-band"' in page.content.decode()
    bad = alice_client.get(sweep.get_absolute_url(), {"band_margin": "9" * 50})
    assert bad.status_code == 200 and "not a band value" in bad.content.decode()
