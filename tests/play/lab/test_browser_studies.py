"""A designer opens a finished sweep: the heat map's chart draws an interval per cell, and the
difference column follows the cell chosen in the form (issue #14)."""

from unittest.mock import patch

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from play.simulations import services
from tests.browser_waits import browser_wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finished_sweep(owner):
    with (
        patch("play.simulations.services.queue_chunks"),
        override_settings(SIMULATION_CHUNK_SIZE={"touchdown": 8}),
    ):
        batch = services.lab_batch_create(
            owner=owner,
            variants=[{}],
            runs=4,
            seed=4,
            study={"kind": "sweep", "grid": [["onside_rolls", "0,1,2"]]},
        )
        for index in range(batch.chunk_count):
            services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    return batch


def test_the_sweep_page_draws_intervals_and_compares_with_a_chosen_cell(live_server, browser):
    owner = get_user_model().objects.create_user("sven", password="pw-sweep-1")
    batch = finished_sweep(owner)
    assert batch.status == "done"
    browser.get(live_server.url + reverse("play:batch-shared", args=[batch.share_token]))
    canvas = browser.find_element(By.CSS_SELECTOR, "canvas[data-chart=td-heat]")
    browser_wait(browser, 20).until(lambda _: canvas.get_attribute("data-intervals"))
    assert int(canvas.get_attribute("data-intervals")) == 3
    bars = browser.execute_script("return Chart.getChart(arguments[0]).data.labels;", canvas)
    assert bars == [[f"Onside range (1 to N): {n}"] for n in (0, 1, 2)]  # in words, not raw
    heat = browser.find_elements(By.CSS_SELECTOR, "table.td-heat td")
    assert len(heat) == 3 and all("td-tone-" in cell.get_attribute("class") for cell in heat)
    Select(browser.find_element(By.ID, "td-vs")).select_by_visible_text("Onside range (1 to N): 2")
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "form.td-vs button").click()
    browser_wait(browser, 20).until(lambda _: old != browser.find_element(By.TAG_NAME, "html"))
    header = browser.find_element(By.CSS_SELECTOR, "table.td-cells thead").text
    assert "Difference from Onside range (1 to N): 2" in header
    link = browser.find_element(By.PARTIAL_LINK_TEXT, "CSV").get_attribute("href")
    assert link.endswith(f"/simulations/shared/{batch.share_token}/report.csv?vs=2")
    problems = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert problems == []  # no CSP violation, no script error


def test_the_sweep_chart_holds_every_interval_end(live_server, browser):
    owner = get_user_model().objects.create_user("stella", password="pw-sweep-2")
    batch = finished_sweep(owner)
    browser.get(live_server.url + reverse("play:batch-shared", args=[batch.share_token]))
    canvas = browser.find_element(By.CSS_SELECTOR, "canvas[data-chart=td-heat]")
    browser_wait(browser, 20).until(lambda _: canvas.get_attribute("data-intervals"))
    low, high = browser.execute_script(
        "const y = Chart.getChart(arguments[0]).scales.y; return [y.min, y.max];", canvas
    )
    ends = [
        end
        for cell in batch.results["sweep"]["cells"]
        for end in [cell["figures"]["margin"]["value"], *cell["figures"]["margin"]["interval"]]
    ]
    assert low <= min(ends) and max(ends) <= high  # no whisker cut off at the chart's edge
