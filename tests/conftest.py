"""Shared fixtures: the loaded catalog (once per session), named users, clients, Chromium.

Under pytest-xdist (`make test` runs `-n $(TEST_WORKERS)`) each worker process gets its own
PostgreSQL test database (pytest-django adds the worker id: test_<name>_gw0, ...), its own Redis
database number (see `redis_url_of_worker`), its own free port for the private Redis of
tests/play/test_tasks.py, and its own Chromium session. A module whose tests share one
expensive fixture keeps them on one worker with `pytest.mark.xdist_group` (`make test`
distributes with --dist loadgroup); a slow module marks itself `slow`. Before any test runs, the
translation catalogues are compiled where their .mo files are missing or stale.
"""

import collections
import contextlib
import os
import shutil
import socket
import urllib.parse
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

WORKER_FIXTURES = {"workers", "filesystem_broker"}
# Started first under xdist, so the longest tests do not all end up at the end of the run.
LONG_MARKERS = ("slow", "workers", "browser")


def xdist_worker_index() -> int | None:
    """0, 1, ... in a pytest-xdist worker process; None in a plain (serial) run."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else None


def redis_url_of_worker(url: str, index: int) -> str:
    """The suite's Redis URL with a database number of this worker's own: the numbers above
    the suite's (db 8 gives workers 9, 10, ...) while they exist (0-15), else those below it.
    Tests flush their Redis database (broker and stack tests): workers must never share one."""
    parts = urllib.parse.urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    db = base + 1 + index if base + 1 + index <= 15 else base - 1 - index
    if db < 0:
        raise pytest.UsageError(f"no Redis database number left for xdist worker {index}")
    return urllib.parse.urlunsplit(parts._replace(path=f"/{db}"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _separate_this_xdist_worker() -> None:
    """Point this worker at its own Redis database and private-Redis port. Django's settings
    are loaded (by pytest-django) before this conftest, so they are changed in place; the
    cache and the Celery app read them lazily, at first use, after this."""
    index = xdist_worker_index()
    if index is None:
        return
    os.environ.setdefault("PRIVATE_REDIS_PORT", str(_free_port()))
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    mine = redis_url_of_worker(url, index)
    os.environ["REDIS_URL"] = mine
    from django.conf import settings

    if not settings.configured:  # -p no:django: nothing reads the settings
        return
    settings.REDIS_URL = mine
    settings.CACHES = {
        alias: {**conf, "LOCATION": mine} if conf.get("LOCATION") == url else conf
        for alias, conf in settings.CACHES.items()
    }
    if getattr(settings, "CELERY_BROKER_URL", "") == url:
        settings.CELERY_BROKER_URL = mine
    from django.core.cache import caches

    caches.__dict__.pop("settings", None)  # re-read CACHES, should anything have read it
    from cardsite.celery import app

    app.conf.broker_url = settings.CELERY_BROKER_URL
    app._pool = None


def _fast_password_hashing() -> None:
    """MD5 password hashing in tests: creating and logging in users is most of many tests,
    and PBKDF2's deliberate slowness checks nothing here (the production stack test runs
    the real settings)."""
    from django.conf import settings

    if settings.configured:
        from django.contrib.auth import hashers

        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        hashers.get_hashers.cache_clear()
        hashers.get_hashers_by_algorithm.cache_clear()


_separate_this_xdist_worker()
_fast_password_hashing()


def _compile_the_translations() -> None:
    """Compile the translation catalogues (.po) into the .mo files Django reads, where these are
    missing or older than their .po. They are build output, left out of git; without them the
    Japanese pages fall back to English and their tests fail for a reason that is not theirs."""
    from django.conf import settings

    if not settings.configured:  # -p no:django: nothing is translated
        return
    stale = [
        po
        for folder in settings.LOCALE_PATHS
        for po in Path(folder).glob("*/LC_MESSAGES/*.po")
        if not po.with_suffix(".mo").exists()
        or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
    ]
    if not stale:
        return
    if not shutil.which("msgfmt"):
        names = ", ".join(str(po) for po in stale)
        raise pytest.UsageError(
            f"msgfmt not found, so {names} cannot be compiled for the Japanese tests: "
            "install gettext (apt-get install gettext), then run the tests again"
        )
    from django.core.management import call_command

    with contextlib.chdir(settings.BASE_DIR):  # compilemessages also looks under the cwd
        call_command(
            "compilemessages",
            ignore_patterns=[".*", "node_modules", "var", "staticfiles"],
            verbosity=0,
        )


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # once, in the xdist controller or a serial run
        _compile_the_translations()


# Before pytest-django's own sort, which then moves the transactional tests (they empty the
# database, catalog included, when they finish) after the others, keeping this order inside each.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the tests that start real Celery workers, so `make test-fast` can leave them out;
    under xdist, start the long tests first (the same order on every worker: xdist checks it)."""
    for item in items:
        if WORKER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.workers)
    if xdist_worker_index() is not None:
        counts = collections.Counter(i.nodeid for i in items)
        same = [nodeid for nodeid, n in counts.items() if n > 1]
        if same:  # xdist would run only one test of each such id
            raise pytest.UsageError(
                f"tests with the same node id: {same[:3]}. schemathesis's tests share one id "
                "under pytest 9.2: install requirements-dev.txt (pytest 9.1)"
            )
        items.sort(key=lambda item: not any(item.get_closest_marker(m) for m in LONG_MARKERS))


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


@pytest.fixture(autouse=True)
def english_by_default():
    """Start every test in the default language: a request in Japanese leaves the thread's
    language active, and messages built outside a request (search errors) follow it."""
    from django.conf import settings

    if not settings.configured:
        yield
        return
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def scans_processed_inline(monkeypatch):
    """Process an uploaded scan in the test's own process when its upload commits, through
    the real task (catalog.tasks.scan_process, run by Celery's `apply`), instead of sending
    it to a control worker. Like the simulation tests, which replace the publishing function
    (play.simulations.queue.publish_chunk), not the app's configuration. A test client's
    request commits inside the test's transaction: wrap it in
    `django_capture_on_commit_callbacks(execute=True)` to see the task run."""
    from django.conf import settings

    if not settings.configured:
        return
    from catalog import scans
    from catalog.tasks import scan_process

    monkeypatch.setattr(
        scans, "scan_publish", lambda upload_id: scan_process.apply(args=(upload_id,), throw=True)
    )


@pytest.fixture(autouse=True)
def readings_run_inline(monkeypatch):
    """Read a photo (catalog.readings) in the test's own process when its job commits, through
    the real task (catalog.tasks.reading_run), as `scans_processed_inline` does for scans."""
    from django.conf import settings

    if not settings.configured:
        return
    from catalog import readings
    from catalog.tasks import reading_run

    monkeypatch.setattr(
        readings, "reading_publish", lambda job_id: reading_run.apply(args=(job_id,), throw=True)
    )


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


class Chromium:
    """One headless Debian Chromium (driven by Selenium) for all the browser tests of a
    process: starting it is a few seconds a test. Each test gets it as new: one window of
    1280x900 on about:blank, no cookies, no stored data, no HTTP cache, no console messages
    left over; a session that stops answering is replaced."""

    def __init__(self, profile_dir):
        self.profile_dir = profile_dir
        self.driver = None
        self.origins: set[str] = set()

    def start(self):
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
            f"--user-data-dir={self.profile_dir}",
        ):
            options.add_argument(flag)
        # Console messages (CSP violations, script errors) readable with driver.get_log("browser").
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)

    def fresh(self):
        """The session, as a newly started Chromium would be."""
        try:
            if self.driver is None:
                raise RuntimeError("not started")
            self._reset()
        except Exception:
            self.quit()
            self.start()
            self._reset()
        return self.driver

    def note_origins(self):
        """Remember the origins of the open windows, whose stored data the next test clears."""
        if self.driver is None:
            return
        try:
            for handle in self.driver.window_handles:
                self.driver.switch_to.window(handle)
                parts = urllib.parse.urlsplit(self.driver.current_url)
                if parts.scheme in ("http", "https"):
                    self.origins.add(f"{parts.scheme}://{parts.netloc}")
        except Exception:
            self.quit()  # the next test starts a new one

    def _reset(self):
        driver = self.driver
        handles = driver.window_handles
        for handle in handles[1:]:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(handles[0])
        driver.get("about:blank")
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        for origin in sorted(self.origins):
            driver.execute_cdp_cmd(
                "Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"}
            )
        self.origins.clear()
        driver.set_window_size(1280, 900)
        driver.implicitly_wait(0)
        driver.get_log("browser")  # read, so a test sees only its own messages

    def quit(self):
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception:
                pass
            self.driver = None


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """This process's Chromium; skipped where Chromium is not installed (failed on CI)."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium and chromium-driver (.ci/run installs them)")
        pytest.skip("chromium / chromedriver not installed")
    session = Chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield session
    session.quit()


@pytest.fixture
def browser(chromium):
    """Headless Chromium driven by Selenium, as new for each test (see `Chromium`)."""
    driver = chromium.fresh()
    yield driver
    chromium.note_origins()


@pytest.fixture
def screenshot_dir():
    path = os.environ.get("SCREENSHOT_DIR") or os.path.join("var", "screenshots")
    os.makedirs(path, exist_ok=True)
    return path
