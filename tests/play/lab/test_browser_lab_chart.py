"""The Touchdown Heroes lab chart draws the 95% intervals its caption promises (issue #14)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from selenium.webdriver.common.by import By

from play.models import SimulationBatch
from play.simulations.core import merge_results
from play.studies import variants as lab
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finished_lab_batch(owner):
    variants = [lab.clean_variant({"onside_rolls": 1}), lab.clean_variant({"onside_rolls": 2})]
    summaries = []
    for number, variant in enumerate(variants):
        totals, _ = lab.run_chunk(variant=variant, runs=30, seed=number)
        summaries.append(lab.summarize(variant, merge_results([totals])))
    return SimulationBatch.objects.create(
        owner=owner,
        kind="touchdown",
        params={"runs": 30, "variants": [v["label"] for v in variants]},
        sides=variants,
        seed=1,
        runs=30,
        chunk_size=30,
        chunk_count=0,
        status="done",
        results={"kind": "touchdown", "variants": summaries, "runs": 60},
    )


def test_the_lab_chart_draws_an_interval_on_every_bar(live_server, browser):
    owner = get_user_model().objects.create_user("lara", password="pw-lab-chart-1")
    batch = finished_lab_batch(owner)
    browser.get(live_server.url + reverse("play:batch-shared", args=[batch.share_token]))
    canvas = browser.find_element(By.CSS_SELECTOR, "canvas[data-chart=lab]")
    browser_wait(browser, 20).until(lambda _: canvas.get_attribute("data-intervals"))
    # two variants x (onside, random) kick-offs; normal kick-offs never happen when both kick
    # random, and a bar with no kick-offs has no interval to draw
    bars = sum(
        1
        for v in batch.results["variants"]
        for kind in ("onside", "random", "normal")
        if v["kicker_wins"][kind]["n"]
    )
    assert int(canvas.get_attribute("data-intervals")) == bars >= 2
