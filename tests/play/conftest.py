"""Fixtures of the play tests: a private copy of a sample deck and a goldfish game on it
(solo play and replays), and real Celery worker processes for the simulation tests (the
helpers are in tests/play/workers.py). Django is imported inside the fixtures: the engine
tests below this folder also run without Django (-p no:django).
"""

import os

import pytest
from django.conf import settings

from tests.play.workers import Workers, configure, filesystem_env, redis_env


@pytest.fixture
def sample_deck(db):
    from decks.models import Deck

    return Deck.objects.filter(is_sample=True).order_by("slug").last()


@pytest.fixture
def alice_deck(alice, sample_deck):
    """A private, legal copy of a sample deck (events and ten persons included)."""
    from decks.services import deck_copy

    return deck_copy(deck=sample_deck, owner=alice)


@pytest.fixture
def game(alice, alice_deck):
    """A goldfish solo game on alice_deck, seed 7."""
    from play.solo import services as solo

    return solo.solo_start(owner=alice, deck=alice_deck, mode="goldfish", seed=7).game


@pytest.fixture
def broker(tmp_path, settings):
    """Point this process's Celery app at the suite's broker (Redis if any, else filesystem)."""
    from cardsite.celery import app

    url = os.environ.get("REDIS_URL", "")
    env = redis_env(url) if url else filesystem_env(tmp_path)
    configure(app, env)
    yield env
    configure(app, {"REDIS_URL": settings.REDIS_URL, "BROKER_DIR": str(settings.BROKER_DIR)})


@pytest.fixture
def filesystem_broker(tmp_path):
    from cardsite.celery import app

    env = filesystem_env(tmp_path)
    configure(app, env)
    yield env
    configure(app, {"REDIS_URL": settings.REDIS_URL, "BROKER_DIR": str(settings.BROKER_DIR)})


@pytest.fixture
def workers(broker, tmp_path):
    pool = Workers(broker, tmp_path)
    yield pool
    pool.stop_all()
