"""The collector settings of a process that plays many matches (play/collector.py)."""

import gc
from unittest.mock import patch

import pytest
from celery.signals import worker_process_init

from play.collector import YOUNG_THRESHOLD, tune_collector_for_matches


@pytest.fixture
def collector_restored():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_tuning_freezes_the_loaded_objects_and_raises_only_the_young_threshold(
    collector_restored,
):
    before = gc.get_threshold()
    tune_collector_for_matches()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:])
    assert gc.isenabled()


def test_each_worker_pool_child_tunes_the_collector_as_it_starts():
    import cardsite.celery  # noqa: F401  (connects the signal, as a booted worker has)

    with patch("cardsite.celery.tune_collector_for_matches") as tune:
        worker_process_init.send(sender=None)
    tune.assert_called_once_with()
