"""The matchup matrix: a round robin of deck A and the prebuilt decks, mirrored cells, best
responses, and its limits (issue #29 item 3)."""

from unittest.mock import patch

import pytest

from decks.models import Deck
from play.models import SimulationBatch
from play.simulations import services
from play.simulations.kinds.matrix import matrix_summary
from play.simulations.sides import prebuilt_decks

pytestmark = pytest.mark.django_db


def result(runs: int, wins_a: int) -> dict:
    """A chunk result as run_matches gives it, reduced to what the matrix reads."""
    return {
        "runs": runs,
        "wins": {"A": wins_a, "B": runs - wins_a},
        "level_after_90": 0,
        "pk_wins": {},
        "decided_by": {},
        "goals": {"A": {"1": runs}, "B": {"0": runs}},
        "goals_by_half": {"A": [{"1": runs}, {"0": runs}], "B": [{"0": runs}, {"0": runs}]},
        "shots": {"A": runs, "B": 0},
        "corner_kicks": {},
        "turns_by_half": [{"5": runs}, {"5": runs}],
        "deck_out_by_half": [{}, {}],
        "scorelines": {},
    }


def test_the_matrix_mirrors_each_pair_and_names_the_best_response():
    # Rock, paper, scissors: 0 beats 1, 1 beats 2, 2 beats 0 (not transitive).
    summary = matrix_summary(
        names=["Rock", "Scissors", "Paper"],
        pairs=[[0, 1], [0, 2], [1, 2]],
        by_pair={0: [result(100, 80)], 1: [result(60, 10), result(40, 10)], 2: [result(100, 70)]},
    )
    rows = summary["rows"]
    assert summary["runs"] == 300 and summary["decks"] == ["Rock", "Scissors", "Paper"]
    assert rows[0]["cells"][0] is None  # no deck plays itself
    assert rows[0]["cells"][1]["win_rate"] == pytest.approx(0.8)
    assert rows[1]["cells"][0]["win_rate"] == pytest.approx(0.2)
    low, high = rows[0]["cells"][1]["interval"]
    assert rows[1]["cells"][0]["interval"] == pytest.approx([1 - high, 1 - low])
    assert rows[0]["cells"][2] == {
        "runs": 100,
        "wins": 20,
        "win_rate": pytest.approx(0.2),
        "interval": rows[0]["cells"][2]["interval"],
    }
    assert [row["best_response"]["deck"] for row in rows] == ["Paper", "Rock", "Scissors"]
    assert rows[0]["mean_win_rate"] == pytest.approx(0.5)


def test_a_pair_without_results_yet_is_an_empty_cell():
    summary = matrix_summary(names=["A", "B", "C"], pairs=[[0, 1], [0, 2], [1, 2]], by_pair={})
    assert all(cell is None for row in summary["rows"] for cell in row["cells"])
    assert summary["rows"][0]["best_response"] is None and summary["runs"] == 0


def matrix_batch(owner, deck, runs=6):
    with patch("play.simulations.services.queue_chunks"):
        return services.batch_create(
            owner=owner,
            request=services.BatchRequest(kind="matrix", deck_a=deck, runs=runs, seed=11),
        )


def test_a_matrix_batch_plays_every_pair_once_and_shows_the_matrix(alice, alice_client, settings):
    from decks.services import deck_copy

    settings.SIMULATION_CHUNK_SIZE = {"matrix": 6}
    prebuilt = list(prebuilt_decks())
    mine = deck_copy(deck=prebuilt[0], owner=alice)
    batch = matrix_batch(alice, mine)
    size = len(prebuilt) + 1
    assert batch.chunk_count == size * (size - 1) // 2  # one chunk a pair of 6 matches
    assert batch.params["policy_b"] == batch.params["policy_a"]
    for index in range(batch.chunk_count):
        services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    assert batch.status == "done" and batch.results["runs"] == 6 * batch.chunk_count
    rows = batch.results["rows"]
    assert [row["deck"] for row in rows][0] == mine.name and len(rows) == size
    for i, row in enumerate(rows):
        for j, cell in enumerate(row["cells"]):
            if i == j:
                assert cell is None
            else:
                assert cell["runs"] == 6 and cell["wins"] + rows[j]["cells"][i]["wins"] == 6
    page = alice_client.get(batch.get_absolute_url()).content.decode()
    assert 'id="matchup-matrix"' in page and 'id="best-responses"' in page
    assert not batch.sample_logs.exists()
    # the download: a row per ordered pair, the best response of each deck marked once
    assert f"/simulations/{batch.pk}/matrix.csv" in page
    lines = alice_client.get(f"/simulations/{batch.pk}/matrix.csv").content.decode().splitlines()
    assert lines[0] == "deck,opponent,matches,wins,win_rate,low,high,best_response"
    cells = [line.split(",") for line in lines[1:]]
    assert len(cells) == size * (size - 1) and all(cell[2] == "6" for cell in cells)
    assert sum(cell[-1] == "yes" for cell in cells) == size
    assert alice_client.get(f"/simulations/{batch.pk}/cards.csv").status_code == 404


def test_a_prebuilt_deck_as_deck_a_is_not_played_twice(alice, settings):
    settings.SIMULATION_CHUNK_SIZE = {"matrix": 6}
    prebuilt = list(prebuilt_decks())
    batch = matrix_batch(alice, prebuilt[0])
    assert len(batch.sides) == len(prebuilt)


def test_a_matrix_needs_three_decks_and_fits_the_runs_cap(alice, settings):
    Deck.objects.filter(is_sample=True).exclude(
        pk__in=list(prebuilt_decks().values_list("pk", flat=True)[:1])
    ).update(is_sample=False)
    with pytest.raises(services.BatchInvalid) as caught:
        matrix_batch(alice, prebuilt_decks().first())
    assert "at least 3 decks" in caught.value.errors["matrix_set"][0]
    assert not SimulationBatch.objects.exists()


def test_every_pair_counts_against_the_runs_cap(alice, settings):
    pairs = (prebuilt_decks().count() + 1) * prebuilt_decks().count() // 2
    settings.SIMULATION_MAX_RUNS = 10 * pairs - 1
    with pytest.raises(services.BatchInvalid) as caught:
        from decks.services import deck_copy

        matrix_batch(alice, deck_copy(deck=prebuilt_decks().first(), owner=alice), runs=10)
    assert f"{10 * pairs:,} in all" in caught.value.errors["runs"][0]
    assert not SimulationBatch.objects.exists()


def test_the_set_can_be_my_decks_or_a_shared_list_of_links(alice, alice_client, settings):
    """Issue #29 item 3: a set of decks: my decks, the prebuilt ones, a shared list."""
    from decks.services import deck_copy

    prebuilt = list(prebuilt_decks())
    mine = [deck_copy(deck=deck, owner=alice) for deck in prebuilt[:3]]

    def create(**study):
        with patch("play.simulations.services.queue_chunks"):
            return services.batch_create(
                owner=alice,
                request=services.BatchRequest(
                    kind="matrix", deck_a=mine[0], runs=2, seed=1, study=study
                ),
            )

    batch = create(set="mine")
    from play.simulations.kinds import get as kind_named

    assert kind_named("matrix").against_text(batch) == "and my decks, each pair"
    assert [side["name"] for side in batch.sides] == [mine[0].name] + sorted(
        d.name for d in mine[1:]
    )
    bob = type(alice).objects.create_user("bob", password="pw-bob-12345")
    bobs = deck_copy(deck=prebuilt[3], owner=bob)  # private: alice may not list it
    lines = [
        f"https://example.org/decks/{prebuilt[1].slug}/",
        "",
        prebuilt[2].slug,
        f"/decks/{prebuilt[1].slug}/",  # the same deck twice counts once
    ]
    batch = create(set="list", decks=lines)
    assert len(batch.sides) == 3  # deck A and the two listed
    assert kind_named("matrix").opponent_text(batch) == "a list of 2 decks, each pair"
    with pytest.raises(services.BatchInvalid) as caught:
        create(set="list", decks=[prebuilt[1].slug, bobs.slug, "no such\x00deck"])
    problems = caught.value.errors["matrix_decks"]
    assert problems[0].startswith("Line 2:") and problems[1].startswith("Line 3:")
    assert "\x00" not in problems[1]
    settings.SIMULATION_MATRIX_MAX_DECKS = 3
    with pytest.raises(services.BatchInvalid) as caught:
        create(set="prebuilt")
    assert "at most 3" in caught.value.errors["matrix_set"][0]
    with pytest.raises(services.BatchInvalid) as caught:
        create(set="list", decks=["x"] * 20)
    assert "20 lines" in caught.value.errors["matrix_decks"][0]
    with pytest.raises(services.BatchInvalid) as caught:
        create(set="garden")
    assert "matrix_set" in caught.value.errors
    assert SimulationBatch.objects.count() == 2  # only the two accepted

    # the form: the list typed in a textarea; a bad line is named on its field
    form = {"deck": mine[0].slug, "kind": "matrix", "policy_a": "greedy", "runs": 2}
    form.update(policy_b="greedy", matrix_set="list")
    response = alice_client.post("/simulations/new/", {**form, "matrix_decks": "nothing-here"})
    page = response.content.decode()
    assert response.status_code == 400 and 'href="#id_matrix_decks"' in page
    assert "Line 1:" in page
    settings.SIMULATION_MATRIX_MAX_DECKS = 16
    with patch("play.simulations.services.queue_chunks"):
        response = alice_client.post(
            "/simulations/new/",
            {**form, "matrix_decks": f"{prebuilt[1].slug}\n{prebuilt[2].slug}"},
        )
    assert response.status_code == 302
    assert SimulationBatch.objects.latest("pk").params["pairs"] == [[0, 1], [0, 2], [1, 2]]
