"""The lab's studies on the batch path (issue #14): the strategy table and the sweep, run as
chunks, match a direct computation over the same seeds; downloads; the form's checks."""

import csv
import io
from unittest.mock import patch

import pytest
from django.test import Client, override_settings

from play.models import SimulationBatch
from play.simulations import services
from play.studies import plans as studies
from play.touchdown import Options
from play.touchdown.matchups import bootstrap_both, difference, play_units
from tests.play.touchdown.helpers import direct

pytestmark = pytest.mark.django_db
SMALL_CHUNKS = {"touchdown": 6}  # 3 seeds a chunk


@pytest.fixture
def queued():
    with patch("play.simulations.services.queue_chunks") as queue:
        yield queue


def run_all(batch, order=None):
    for index in order or range(batch.chunk_count):
        services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    return batch


def batch_seeds(batch):
    """The seeds every cell of a study batch plays, chunk by chunk (a direct derivation)."""
    size = batch.params["chunk_size"]
    seeds = []
    for position, start in enumerate(range(0, batch.runs, size)):
        runs = min(size, batch.runs - start)
        seeds += studies.cell_seeds(study_seed=batch.seed, position=position, runs=runs)
    return sorted(seeds)


@override_settings(SIMULATION_CHUNK_SIZE=SMALL_CHUNKS)
def test_the_table_batch_matches_a_direct_computation_over_the_same_seeds(alice, queued):
    batch = services.lab_batch_create(
        owner=alice,
        variants=[{}],
        runs=7,
        seed=5,
        study={"kind": "table", "strategies": ["normal", "random", "own"], "bots": ["greedy"]},
    )
    assert batch.chunk_count == 3 * 3  # 3 pairs, 7 seeds in chunks of 3
    # chunks in any order, one of them twice: the figures come from the chunk rows
    batch = run_all(batch, order=[8, 0, 4, 4, 1, 2, 3, 5, 6, 7])
    assert batch.status == "done"
    (table,) = batch.results["tables"]
    assert table["strategies"] == ["greedy", "greedy+normal", "greedy+random"]  # registry order
    seeds = batch_seeds(batch)
    assert len(seeds) == 7
    rows = {(r["a"], r["b"]): r["figures"] for r in table["rows"]}
    mine, theirs = bootstrap_both(play_units(Options(), "greedy+normal", "greedy+random", seeds))
    assert rows["greedy+normal", "greedy+random"] == mine
    assert rows["greedy+random", "greedy+normal"] == theirs
    assert mine["games"]["value"] == 14
    # and the same figures computed by hand from the games' logs (tests/play/touchdown)
    by_hand = direct(Options(), "greedy+normal", "greedy+random", seeds)
    for name, value in by_hand.items():
        assert mine[name]["value"] == pytest.approx(value), name
    assert mine["win_rate"]["value"] + theirs["win_rate"]["value"] == pytest.approx(1)
    assert table["matrix"][0]["cells"][0]["figures"] is None  # a strategy against itself
    assert table["matrix"][1]["cells"][2]["figures"] == mine
    assert table["matrix"][2]["cells"][1]["figures"] == theirs
    assert batch.sample_logs.count() == 3  # one sample game a cell
    assert batch.sample_logs.first().log["rules"]["house"]["kick_floor"] == 0


@override_settings(SIMULATION_CHUNK_SIZE=SMALL_CHUNKS)
def test_two_bot_strengths_make_two_tables(alice, queued):
    batch = services.lab_batch_create(
        owner=alice,
        variants=[{"onside_rolls": 2}],
        runs=3,
        seed=2,
        study={"kind": "table", "strategies": ["normal", "random"], "bots": ["greedy", "random"]},
    )
    batch = run_all(batch)
    bots = [t["bot"] for t in batch.results["tables"]]
    assert bots == ["greedy", "random"]
    assert batch.results["tables"][1]["rows"][0]["a"] == "random+normal"
    assert batch.results["games"] == 2 * 3 * 2


@override_settings(SIMULATION_CHUNK_SIZE=SMALL_CHUNKS)
def test_the_search_bot_is_a_bot_strength_a_table_may_name(alice, queued):
    batch = services.lab_batch_create(
        owner=alice,
        variants=[{}],
        runs=2,
        seed=4,
        study={"kind": "table", "strategies": ["normal", "random"], "bots": ["greedy", "search"]},
    )
    batch = run_all(batch)
    assert [t["bot"] for t in batch.results["tables"]] == ["search", "greedy"]  # strongest first
    assert batch.results["tables"][0]["rows"][0]["a"] == "search+normal"
    assert batch.results["games"] == 2 * 2 * 2


@override_settings(SIMULATION_CHUNK_SIZE=SMALL_CHUNKS)
def test_the_sweep_batch_pairs_cells_by_seed_and_tests_any_two(alice, queued):
    batch = services.lab_batch_create(
        owner=alice,
        variants=[{}],
        runs=6,
        seed=9,
        study={
            "kind": "sweep",
            "grid": [["kick_floor", "0,7"], ["random_kick_base", [3, 0]]],
            "a": "random",
            "b": "normal",
            "bot": "greedy",
        },
    )
    assert len(batch.sides) == 4
    batch = run_all(batch)
    sweep = batch.results["sweep"]
    assert [c["values"] for c in sweep["cells"]] == [
        {"kick_floor": 0, "random_kick_base": 3},
        {"kick_floor": 0, "random_kick_base": 0},
        {"kick_floor": 7, "random_kick_base": 3},
        {"kick_floor": 7, "random_kick_base": 0},
    ]
    seeds = batch_seeds(batch)
    units = [
        play_units(
            Options(kick_floor=f, random_kick_base=b), "greedy+random", "greedy+normal", seeds
        )
        for f, b in ((0, 3), (0, 0), (7, 3), (7, 0))
    ]
    assert sweep["cells"][3]["figures"]["margin"]["value"] == pytest.approx(
        sum(u[2] for u in units[3]) / 12
    )
    # the difference of any two cells is the paired test over the same seeds
    assert batch.results["differences"][1][3] == difference(units[1], units[3])
    assert sweep["cells"][2]["difference"] == difference(units[0], units[2])
    column = studies.difference_column(batch.results, 1)
    assert column[1]["value"] == 0 and column[3] == difference(units[1], units[3])


def test_a_study_names_each_bad_field(alice, queued):
    with pytest.raises(services.BatchInvalid) as info:
        services.lab_batch_create(
            owner=alice,
            variants=[{"kickoffs": "normal_only"}],
            runs=10,
            study={"kind": "sweep", "grid": [["kick_floor", "0,12"], ["nope", "1"]], "a": "x"},
        )
    assert set(info.value.errors) == {
        "variant_a_kickoffs",
        "study_values_1",
        "study_param_2",
        "study_a",
    }
    assert "kick_floor=12" in info.value.errors["study_values_1"][0]
    with pytest.raises(services.BatchInvalid) as info:
        services.lab_batch_create(
            owner=alice, variants=[{}], runs=10, study={"kind": "table", "strategies": ["own"]}
        )
    assert set(info.value.errors) == {"study_strategies"}
    assert not SimulationBatch.objects.exists()


def sweep_batch(alice, **study):
    with override_settings(SIMULATION_CHUNK_SIZE=SMALL_CHUNKS):
        batch = services.lab_batch_create(
            owner=alice,
            variants=[{}],
            runs=4,
            seed=3,
            study={"kind": "sweep", "grid": [["onside_rolls", "0,1,2"]], **study},
        )
        return run_all(batch)


def test_the_sweep_page_shows_the_heat_map_and_a_chosen_difference(alice, alice_client, queued):
    batch = sweep_batch(alice)
    html = alice_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert "Does random kicking pay?" in html and 'class="td-heat"' in html
    assert 'data-chart="td-heat"' in html and "Difference from Onside range (1 to N): 0" in html
    # the option in words, its raw name beside it for a designer (downloads keep the raw name)
    assert "Onside range (1 to N) <code>onside_rolls</code>" in html
    chosen = alice_client.get(f"/simulations/{batch.pk}/?vs=2").content.decode()
    assert "Difference from Onside range (1 to N): 2" in chosen
    column = studies.difference_column(batch.results, 2)
    assert column[0]["value"] is not None
    for bad_cell in ("x9", "²", "9" * 5000):  # "²" passes str.isdigit() but not int()
        bad = alice_client.get(f"/simulations/{batch.pk}/?vs={bad_cell}")
        assert "is not a cell number" in bad.content.decode()  # shown, never a 500
        report = alice_client.get(f"/simulations/{batch.pk}/report.csv?vs={bad_cell}")
        assert report.status_code == 400 and b"vs:" in report.content


def test_the_table_page_shows_each_bot_strength(alice, alice_client, queued):
    with override_settings(SIMULATION_CHUNK_SIZE=SMALL_CHUNKS):
        batch = run_all(
            services.lab_batch_create(
                owner=alice,
                variants=[{}],
                runs=2,
                study={
                    "kind": "table",
                    "strategies": ["normal", "random"],
                    "bots": ["greedy", "random"],
                },
            )
        )
    html = alice_client.get(f"/simulations/{batch.pk}/").content.decode()
    assert "Kick-off strategies, head to head" in html
    assert "Greedy bots" in html and "Random bots" in html and "always random" in html
    assert html.count('class="striped td-matrix"') == 2
    shared = alice_client.get(f"/simulations/shared/{batch.share_token}/").content.decode()
    assert f"/simulations/shared/{batch.share_token}/report.csv" in shared


def test_the_csv_download_holds_every_cell_with_its_interval(alice, alice_client, queued):
    batch = sweep_batch(alice)
    response = alice_client.get(f"/simulations/{batch.pk}/report.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert f"touchdown-{batch.pk}-sweep.csv" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["onside_rolls"] for r in rows] == ["0", "1", "2"]
    cells = batch.results["sweep"]["cells"]
    for row, cell in zip(rows, cells, strict=True):
        assert float(row["margin"]) == pytest.approx(cell["figures"]["margin"]["value"])
        assert float(row["margin_low"]) == pytest.approx(cell["figures"]["margin"]["interval"][0])
        assert int(row["games"]) == 8
    assert rows[0]["difference"] in ("0", "0.0")
    against = alice_client.get(f"/simulations/{batch.pk}/report.csv?vs=1").content.decode()
    row0 = next(csv.DictReader(io.StringIO(against)))
    assert float(row0["difference"]) == pytest.approx(batch.results["differences"][1][0]["value"])


def test_the_markdown_download_is_a_table_a_designer_can_paste(alice, alice_client, queued):
    batch = sweep_batch(alice)
    text = alice_client.get(f"/simulations/{batch.pk}/report.md?vs=2").content.decode()
    assert text.startswith("## Does random kicking pay? greedy+random against greedy+normal")
    assert "| onside_rolls | margin a game (A - B) |" in text
    assert "margin vs onside_rolls=2" in text
    assert text.count("\n| ") == 1 + 3  # header and three cells
    with override_settings(SIMULATION_CHUNK_SIZE=SMALL_CHUNKS):
        table = run_all(
            services.lab_batch_create(
                owner=alice,
                variants=[{"kick_floor": 8}],
                runs=2,
                study={"kind": "table", "strategies": ["normal", "random"], "bots": ["greedy"]},
            )
        )
    text = alice_client.get(f"/simulations/{table.pk}/report.md").content.decode()
    assert "## Kick-off strategies, greedy bots" in text and "kick_floor=8" in text
    assert "| greedy+normal | greedy+random | 4 |" in text


def test_downloads_refuse_bad_requests_by_name(alice, alice_client, bob_client, queued):
    batch = sweep_batch(alice)
    bad = alice_client.get(f"/simulations/{batch.pk}/report.pdf")
    assert bad.status_code == 400 and "pdf" in bad.content.decode()
    bad = alice_client.get(f"/simulations/{batch.pk}/report.csv?vs=-1")
    assert bad.status_code == 400 and "vs" in bad.content.decode()
    assert alice_client.get(f"/simulations/{batch.pk}/report.csv?vs=7").status_code == 400
    assert bob_client.get(f"/simulations/{batch.pk}/report.csv").status_code == 404
    plain = run_all(services.lab_batch_create(owner=alice, variants=[{}], runs=4))
    assert alice_client.get(f"/simulations/{plain.pk}/report.csv").status_code == 404


FORM = {
    "a-onside_rolls": "1",
    "a-kickoffs": "choice",
    "effects": "none",
    "policy": "greedy",
    "runs": "40",
}


def test_the_form_starts_a_strategy_table_with_every_kick_off_option(alice_client, queued):
    response = alice_client.post(
        "/lab/touchdown/",
        {
            **FORM,
            "study": "table",
            "a-random_kick_base": "0",
            "a-kick_floor": "8",
            "a-onside_ball": "9",
            "a-normal_kick_ball": "7",
            "a-kickoff_kick_ability": "both",
            "a-kick_play_hand": "every_player",
            "a-suit_change_judges": "every_card",
            "study-strategies": ["normal", "random", "adaptive"],
            "study-bots": ["greedy", "random"],
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    batch = SimulationBatch.objects.get()
    assert batch.params["study"] == {
        "kind": "table",
        "strategies": ["normal", "random", "adaptive"],
        "bots": ["greedy", "random"],
    }
    assert len(batch.sides) == 6
    variant = batch.sides[0]["variant"]
    assert (variant["random_kick_base"], variant["kick_floor"], variant["onside_ball"]) == (0, 8, 9)
    assert variant["normal_kick_ball"] == 7 and variant["kickoff_kick_ability"] == "both"
    assert variant["kick_play_hand"] == "every_player"
    assert variant["suit_change_judges"] == "every_card"


def test_the_form_starts_a_sweep(alice_client, queued):
    response = alice_client.post(
        "/lab/touchdown/",
        {
            **FORM,
            "study": "sweep",
            "study-param_1": "onside_rolls",
            "study-values_1": "0,1,2",
            "study-param_2": "onside_ball",
            "study-values_2": "derived,7",
            "study-a": "random",
            "study-b": "normal",
            "study-bot": "random",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    batch = SimulationBatch.objects.get()
    assert batch.params["study"]["grid"] == [["onside_rolls", [0, 1, 2]], ["onside_ball", [0, 7]]]
    assert batch.sides[0]["a"] == "random+random" and len(batch.sides) == 6


@pytest.mark.parametrize(
    ("changes", "label", "message"),
    [
        ({"a-kick_floor": "12"}, "Floor under a random kick", "less than or equal to 10"),
        ({"a-random_kick_base": "x"}, "Random kick base", "whole number"),
        ({"a-kick_play_hand": "nobody"}, "Kick play: who spends a card", "nobody"),
        ({"study-values_1": "0,11"}, "Its values", "kick_floor=11"),
        ({"study-values_1": "0,seven"}, "Its values", "kick_floor takes a whole number"),
        ({"study-param_2": "kick_floor"}, "Sweep: second parameter", "kick_floor is swept twice"),
        ({"study-b": "random"}, "Sweep: team B kicks", "different kick-off strategy"),
        ({"a-kickoffs": "normal_only"}, "Kick-offs", "kick-offs by choice"),
    ],
)
def test_bad_form_values_are_a_400_naming_the_field(alice_client, queued, changes, label, message):
    data = {
        **FORM,
        "study": "sweep",
        "study-param_1": "kick_floor",
        "study-values_1": "0,7",
        "study-param_2": "",
        "study-a": "random",
        "study-b": "normal",
        "study-bot": "greedy",
        **changes,
    }
    response = alice_client.post("/lab/touchdown/", data)
    assert response.status_code == 400
    html = response.content.decode()
    errors = [part for part in html.split('class="field-error" role="alert">')[1:]]
    assert any(e.startswith(label) and message in e.split("</small>")[0] for e in errors), errors
    assert not SimulationBatch.objects.exists()


def test_a_table_needs_two_strategies(alice_client, queued):
    response = alice_client.post(
        "/lab/touchdown/", {**FORM, "study": "table", "study-strategies": ["own"]}
    )
    assert response.status_code == 400
    assert "Kick-off strategies (a table: each against each): Choose at least 2." in (
        response.content.decode()
    )


# The study pages' English, which a Japanese page must not show (option names and the
# variant's own label are data, the same in both languages).
ENGLISH = (
    "Does random kicking pay?",
    "Kick-off strategies, head to head",
    "Download the report",
    "Markdown summary",
    "Compare every cell with",
    "Difference from",
    "Every figure, with its interval",
    "Greedy bots",
    "always random",
    "adaptive (measured table)",
    "Win rate (draw",
    "points margin a game",
    "each cell played the same",
    "bootstrap",
    ">baseline<",
    "unclear",
)


@pytest.fixture
def ja_client(alice):
    client = Client()
    client.force_login(alice)
    client.cookies["django_language"] = "ja"
    return client


def test_the_study_pages_and_form_render_in_japanese(alice, ja_client, queued):
    sweep = sweep_batch(alice)
    with override_settings(SIMULATION_CHUNK_SIZE=SMALL_CHUNKS):
        table = run_all(
            services.lab_batch_create(
                owner=alice,
                variants=[{}],
                runs=2,
                study={"kind": "table", "strategies": ["own", "adaptive"], "bots": ["greedy"]},
            )
        )
    body = ja_client.get(f"/simulations/{sweep.pk}/?vs=1").content.decode()
    assert "ランダムキックは得か？" in body and "オンサイドの目（1〜N）：1との差" in body
    # the heading, the other rules and the sample games name options, values and bots in words
    assert "：オンサイドの目（1〜N）</small>" in body and "キックオフ：キッカーが選ぶ" in body
    assert "イーグルズ（貪欲ボット · " in body and "· シード " in body
    assert [text for text in ENGLISH if text in body] == []
    body = ja_client.get(f"/simulations/{table.pk}/").content.decode()
    assert "キックオフ戦略の総当たり" in body and "適応型（測定した表）" in body
    assert "1の目でオンサイド、効果セット：なし" in body
    assert [text for text in ENGLISH if text in body] == []
    form = ja_client.get("/lab/touchdown/").content.decode()
    for text in (
        "ランダムキックの最低位置",
        "キックプレイ：カードを使う人",
        "スート変更（TD-PLAY-4）",
    ):
        assert text in form
    bad = ja_client.post("/lab/touchdown/", {**FORM, "a-kick_floor": "12"})
    assert bad.status_code == 400 and "ランダムキックの最低位置:" in bad.content.decode()


def test_the_api_starts_a_study_and_names_a_bad_field(alice_client, queued):
    response = alice_client.post(
        "/api/simulations/",
        {
            "kind": "touchdown",
            "runs": 10,
            "variants": [{"onside_rolls": 2}],
            "study": {"kind": "table", "strategies": ["normal", "random"], "bots": ["greedy"]},
        },
        content_type="application/json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["params"]["study"]["strategies"] == ["normal", "random"]
    bad = alice_client.post(
        "/api/simulations/",
        {
            "kind": "touchdown",
            "runs": 10,
            "variants": [{}],
            "study": {"kind": "sweep", "grid": [["random_kick_base", "3,9"]]},
        },
        content_type="application/json",
    )
    assert bad.status_code == 400
    assert "study_values_1" in {e["field"] for e in bad.json()["errors"]}


def test_a_study_is_bounded_in_deals_a_cell(alice_client, queued):
    response = alice_client.post(
        "/lab/touchdown/", {**FORM, "runs": str(studies.MAX_STUDY_DEALS + 1), "study": "table"}
    )
    assert response.status_code == 400
    assert "at most 10,000 deals a cell" in response.content.decode()


def test_tones_set_apart_what_pays_from_what_is_unclear():
    from play.studies.presenters import _tone

    clear = {"value": 0.4, "interval": [0.1, 0.7]}
    unclear = {"value": 0.4, "interval": [-0.1, 0.9]}
    costs = {"value": -1.8, "interval": [-2.1, -1.5]}
    assert _tone(clear, 1.8) == "td-tone-up-2"
    assert _tone(unclear, 1.8) == "td-tone-up-1"
    assert _tone(costs, 1.8) == "td-tone-down-4"
    assert _tone({"value": None, "interval": None}, 1.8) == "td-tone-0"
