"""The recommendation as a lab batch (issue #28 item 1): stages added by the batch machinery
(BatchKind.next_stage), the page, the downloads; the same figures as the in-process search."""

from unittest.mock import patch

import pytest
from django.urls import reverse

from play.models import SimulationBatch
from play.simulations import services
from play.studies import recommend

pytestmark = pytest.mark.django_db

SMALL = {
    "onside_rolls": (1, 0),
    "onside_ball": (0, 4),
    "normal_kick_ball": (8,),
    "random_kick_base": (3,),
    "kick_floor": (0, 7),
    "guarantee_heroes": (0,),
}


@pytest.fixture
def batch(alice, monkeypatch):
    monkeypatch.setattr(recommend, "PREVIEW_SPACE", SMALL)
    monkeypatch.setattr(recommend, "PREVIEW_FIRST_SEEDS", 4)
    monkeypatch.setattr(recommend, "PREVIEW_STAGES", 2)
    monkeypatch.setattr(recommend, "PIECE", 3)
    monkeypatch.setattr(recommend, "PREVIEW_CHECK", {"top": 2, "deals": 4})
    study = {"kind": "recommend", "bot": "greedy", "preview": True}  # checked by "search"
    with patch("play.simulations.services.queue_chunks"):
        batch = services.lab_batch_create(owner=alice, variants=[{}], runs=1, seed=7, study=study)
        assert batch.chunk_count == len(recommend.variants(SMALL)) * 2  # 4 deals: pieces 3, 1
        index = 0
        while True:
            batch.refresh_from_db()
            if index >= batch.chunk_count:
                break
            services.chunk_run(batch_id=batch.pk, index=index)
            index += 1
    batch.refresh_from_db()
    return batch


def test_the_batch_adds_its_stages_and_ends_with_the_in_process_figures(batch, monkeypatch):
    assert batch.status == SimulationBatch.Status.DONE
    # two stages of the search, then the stronger player's check (issue #28 item 4)
    assert len(batch.params["stages"]) == 3
    assert batch.params["stages"][-1]["strength"] and batch.params["stages"][-1]["bot"] == "search"
    found = batch.results["recommendation"]
    alone = recommend.search(bot="greedy", seed=7, preview=True, stronger="search")
    assert found["shortlist"] == alone["shortlist"]
    assert found["draft"] == alone["draft"]
    assert found["stages"] == alone["stages"]
    assert found["strength"] == alone["strength"]
    assert found["strength"]["deals"] == 4 and len(found["strength"]["rows"]) == 3


def test_the_page_and_downloads_show_the_shortlist(batch, alice_client):
    page = alice_client.get(reverse("play:batch-detail", args=[batch.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    first = batch.results["recommendation"]["shortlist"][0]
    assert first["sentence"]["en"] in text  # the reader's language; both in the downloads
    csv = alice_client.get(reverse("play:lab-report", args=[batch.pk, "csv"])).content.decode()
    assert csv.splitlines()[0].startswith("rank,variant,sentence_en")
    deals = alice_client.get(
        reverse("play:lab-report", args=[batch.pk, "deals.csv"])
    ).content.decode()
    assert len(deals.splitlines()) == 1 + 12 * (
        1 + len(batch.results["recommendation"]["shortlist"])
    )
    md = alice_client.get(reverse("play:lab-report", args=[batch.pk, "md"])).content.decode()
    assert first["sentence"]["ja"] in md


def test_a_bad_band_is_refused_naming_the_field(alice):
    study = {"kind": "recommend", "bot": "greedy", "band": {"margin": -1, "low": 0.6, "high": 0.5}}
    with pytest.raises(services.BatchInvalid) as error:
        services.lab_batch_create(owner=alice, variants=[{}], runs=1, seed=7, study=study)
    assert "study_band_margin" in error.value.errors and "study_band_low" in error.value.errors
    assert not SimulationBatch.objects.exists()


def test_the_lab_form_starts_a_recommendation_preview_with_the_designers_band(alice_client):
    from tests.play.studies.test_plans import FORM

    with patch("play.simulations.services.queue_chunks"):
        response = alice_client.post(
            "/lab/touchdown/",
            {
                **FORM,
                "study": "recommend_preview",
                "study-bot": "random",
                "study-band_margin": "0.2",
                "study-band_low": "0.45",
                "study-band_high": "0.55",
            },
        )
    assert response.status_code == 302, response.content.decode()[:3000]
    batch = SimulationBatch.objects.get()
    assert batch.params["study"] == {
        "kind": "recommend",
        "bot": "random",
        "band": {"margin": 0.2, "low": 0.45, "high": 0.55},
        "preview": True,
        "stronger": "",  # the box left unticked
    }
    assert len(batch.sides) == len(recommend.variants(recommend.PREVIEW_SPACE))
    assert batch.runs == recommend.PREVIEW_FIRST_SEEDS
