"""Shared fixtures: the loaded catalog (once per session), named users, clients, Chromium."""

import os
import shutil

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

WORKER_FIXTURES = {"workers", "filesystem_broker"}


def pytest_configure(config):
    config.addinivalue_line("markers", "workers: starts real Celery worker processes")


def pytest_collection_modifyitems(items):
    """Mark the tests that start real Celery workers, so `make test-fast` can leave them out."""
    for item in items:
        if WORKER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.workers)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Load the catalog once into the test database; every test sees it, rolled back after."""
    from catalog.services import catalog_load

    with django_db_blocker.unblock():
        catalog_load()


@pytest.fixture(autouse=True)
def empty_cache():
    """Start every test with an empty cache (cached search answers, throttles)."""
    from django.conf import settings

    if not settings.configured:  # engine tests may run without Django (-p no:django)
        return
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", "alice@example.com", "correct-horse-1")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", "bob@example.com", "correct-horse-2")


@pytest.fixture
def alice_client(alice):
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client


@pytest.fixture
def anon_client():
    return Client()


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture
def browser(tmp_path):
    """Headless Debian Chromium driven by Selenium; skipped where Chromium is not installed."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium and chromium-driver (.ci/run installs them)")
        pytest.skip("chromium / chromedriver not installed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
    ):
        options.add_argument(flag)
    # Console messages (CSP violations, script errors) readable with driver.get_log("browser").
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


@pytest.fixture
def screenshot_dir():
    path = os.environ.get("SCREENSHOT_DIR") or os.path.join("var", "screenshots")
    os.makedirs(path, exist_ok=True)
    return path
