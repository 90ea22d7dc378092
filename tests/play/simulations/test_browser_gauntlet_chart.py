"""The gauntlet chart draws the 95% intervals its caption promises, with low and high markers
that read apart and lie inside the chart (issue #17), in headless Chromium."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from selenium.webdriver.common.by import By

from catalog.services import catalog_load
from decks.models import Deck
from decks.selectors import latest_version
from play.models import SimulationBatch
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROWS = [  # one at 100 %: its high marker must not be clipped off the top
    ("Kashima Antlers 2000", 0.62, [0.52, 0.71]),
    ("Yokohama F. Marinos 2000", 0.35, [0.26, 0.45]),
    ("Basic Set Starter", 1.0, [0.93, 1.0]),
]

MARKERS = """
const chart = Chart.getChart(arguments[0]);
const area = chart.chartArea;
return chart.data.datasets.slice(1).map((set, i) => ({
  label: set.label, style: set.pointStyle, rotation: set.rotation, colour: set.backgroundColor,
  radius: set.pointRadius, order: set.order, barOrder: chart.data.datasets[0].order,
  inside: chart.getDatasetMeta(i + 1).data.every(p =>
    p.x >= area.left && p.x <= area.right && p.y >= area.top - 1 && p.y <= area.bottom + 1),
}));
"""


def finished_gauntlet(owner):
    catalog_load()
    deck = Deck.objects.filter(is_sample=True).order_by("slug").first()
    table = [
        {"opponent": name, "runs": 40, "win_rate": rate, "interval": iv, "goals_mean": {}}
        for name, rate, iv in ROWS
    ]
    return SimulationBatch.objects.create(
        owner=owner,
        kind="gauntlet",
        deck_a_version=latest_version(deck),
        params={"runs": 40, "policy_a": "greedy", "policy_b": "greedy"},
        sides=[{"name": deck.name}],
        seed=1,
        runs=40,
        chunk_size=40,
        chunk_count=0,
        status="done",
        results={"kind": "gauntlet", "table": table, "runs": 120},
    )


def test_the_gauntlet_chart_draws_every_interval_and_distinct_visible_markers(live_server, browser):
    owner = get_user_model().objects.create_user("gabi", password="pw-gauntlet-1")
    batch = finished_gauntlet(owner)
    browser.get(live_server.url + reverse("play:batch-shared", args=[batch.share_token]))
    canvas = browser.find_element(By.CSS_SELECTOR, "canvas[data-chart=winrates]")
    browser_wait(browser, 20).until(lambda _: canvas.get_attribute("data-intervals"))
    assert int(canvas.get_attribute("data-intervals")) == len(ROWS)  # an interval on every bar
    low, high = browser.execute_script(MARKERS, canvas)
    assert (low["label"], high["label"]) == ("95% low", "95% high")
    assert low["colour"] != high["colour"] and low["rotation"] != high["rotation"]
    assert min(low["radius"], high["radius"]) >= 6
    assert low["order"] < low["barOrder"] and high["order"] < high["barOrder"]  # over the bars
    assert low["inside"] and high["inside"]
