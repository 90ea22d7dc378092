"""`make serve` brings up the production stack from the repository, and every page kind works.

The stack is the real one of docs/deploy.md: DEBUG off, collectstatic, migrate, load_catalog,
`check --deploy`, then gunicorn, a Celery worker and Celery beat on Redis and PostgreSQL. It runs
on a database of its own (the suite's database name + `_stack`, created and dropped here), the
suite's Redis database and STACK_TEST_PORT (default: a free port). A user signs up, runs a small
simulation on the worker, starts a solo game, and every kind of page is requested once: no 5xx;
then headless Chromium opens the HTML pages and its console shows no Content-Security-Policy
violation and no script error.
"""

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.waits import wait_until

ROOT = Path(__file__).resolve().parents[1]
SUITE_DB = os.environ.get("DATABASE_URL", "")
SUITE_REDIS = os.environ.get("REDIS_URL", "")

pytestmark = [
    pytest.mark.slow,
    # Every test here shares the one stack the module fixture brings up: one xdist worker runs
    # them all (`make test` distributes with --dist loadgroup).
    pytest.mark.xdist_group("production-stack"),
    pytest.mark.skipif(
        not SUITE_DB.startswith("postgres") or not SUITE_REDIS,
        reason="the production stack needs the suite's PostgreSQL and Redis",
    ),
]

SAMPLE_DECK = "sample-cd00-kashima-antlers-2000"
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stack_database_url() -> tuple[str, str, str]:
    """(admin url, stack db name, stack db url) derived from the suite's DATABASE_URL."""
    parts = urllib.parse.urlsplit(SUITE_DB)
    name = parts.path.lstrip("/") + "_stack"
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    return admin, name, urllib.parse.urlunsplit(parts._replace(path="/" + name))


def _admin_sql(admin_url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(sql)


class Browserless:
    """A tiny HTTP client with its own cookie store (the stack's cookies are Secure; urllib's jar
    would not send them over the loopback's plain http)."""

    def __init__(self, base: str):
        self.base = base
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, data=None, headers=None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method != "GET" and "csrftoken" in self.cookies:
            headers.setdefault("X-CSRFToken", self.cookies["csrftoken"])
            headers.setdefault("Referer", self.base + "/")
        body = None
        if isinstance(data, dict):
            body = urllib.parse.urlencode(data, doseq=True).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif isinstance(data, (bytes, str)):
            body = data.encode() if isinstance(data, str) else data
            headers.setdefault("Content-Type", "application/json")
        req = urllib.request.Request(self.base + path, data=body, headers=headers, method=method)
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            response = opener.open(req, timeout=30)
        except urllib.error.HTTPError as exc:
            response = exc
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, dict(response.headers), response.read()

    def get(self, path: str):
        return self.request("GET", path)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class _FormParser(HTMLParser):
    """The default values of the first POST form of a page, as a browser would submit them."""

    def __init__(self):
        super().__init__()
        self.values: dict[str, str] = {}
        self._in_form = False
        self._done = False
        self._select: str | None = None
        self._first_option: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self._done:
            return
        if (
            tag == "form"
            and (a.get("method") or "").lower() == "post"
            and "nav-form" not in (a.get("class") or "")
        ):
            if "lang-switch" not in (a.get("class") or ""):
                self._in_form = True
            return
        if not self._in_form:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.values[name] = a.get("value", "on")
            elif kind not in ("submit", "button", "file"):
                self.values.setdefault(name, a.get("value") or "")
        elif tag == "select" and name:
            self._select, self._first_option = name, None
        elif tag == "option" and self._select:
            if self._first_option is None:
                self._first_option = a.get("value", "")
            if "selected" in a:
                self.values[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self.values.setdefault(name, "")

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            self.values.setdefault(self._select, self._first_option or "")
            self._select = None
        elif tag == "form" and self._in_form:
            self._in_form, self._done = False, True


def form_defaults(html: bytes) -> dict[str, str]:
    parser = _FormParser()
    parser.feed(html.decode())
    return parser.values


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stack")
    admin_url, db_name, db_url = _stack_database_url()
    _admin_sql(admin_url, f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    _admin_sql(admin_url, f'CREATE DATABASE "{db_name}"')
    import redis

    redis.Redis.from_url(SUITE_REDIS).flushdb()
    media = tmp / "media"
    (media / "scans").mkdir(parents=True)
    (media / "scans" / "BS-001.png").write_bytes(PNG)
    (media / "BS-001.png").write_bytes(PNG)
    port = int(os.environ.get("STACK_TEST_PORT") or _free_port())
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)},
        "DATABASE_URL": db_url,
        "REDIS_URL": SUITE_REDIS,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "STATIC_ROOT": str(tmp / "static"),
        "MEDIA_ROOT": str(media),
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "WEB_CONCURRENCY": "2",
        "CELERY_CONCURRENCY": "1",
        "STOP_TIMEOUT": "30",
        "SIMULATION_RECONCILE_EVERY": "5",
    }
    log_path = tmp / "serve.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed after the process
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "serve"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    client = Browserless(base)

    def answers() -> bool:
        if proc.poll() is not None:
            pytest.fail("make serve exited early:\n" + log_path.read_text()[-4000:])
        try:
            return client.get("/api/ping/")[0] == 200
        except OSError:
            return False

    try:
        try:
            wait_until(answers, timeout=240, interval=0.5, what="the stack's /api/ping/")
        except AssertionError as exc:
            pytest.fail(f"{exc}:\n" + log_path.read_text()[-4000:])
        yield {"base": base, "log": log_path, "proc": proc}
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.close()
        _admin_sql(admin_url, f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def journey(stack):
    """A user signs up, runs a simulation on the worker and starts a solo game; returns every
    page kind requested along the way with its status, and the user's credentials."""
    client = Browserless(stack["base"])
    seen: dict[str, int] = {}

    def get(path):
        status, headers, body = client.get(path)
        seen[path] = status
        return status, headers, body

    username, password = "deployer", "a-long-deploy-password-7"
    status, _, html = get("/accounts/signup/")
    values = form_defaults(html) | {
        "username": username,
        "email": "deployer@example.com",
        "password1": password,
        "password2": password,
    }
    status, headers, _ = client.request("POST", "/accounts/signup/", values)
    assert status == 302, "sign-up failed"

    # A small simulation through the form, finished by the stack's Celery worker.
    status, _, html = get(f"/simulations/new/?deck={SAMPLE_DECK}")
    values = form_defaults(html) | {"kind": "match", "runs": "20", "deck_b": ""}
    values["deck_b"] = re.search(rb'name="deck_b"[^>]*>.*?<option value="(\d+)"', html, re.S)
    values["deck_b"] = values["deck_b"].group(1).decode()
    status, headers, body = client.request("POST", f"/simulations/new/?deck={SAMPLE_DECK}", values)
    assert status == 302, body.decode()[:2000]
    batch_path = urllib.parse.urlsplit(headers["Location"]).path
    batch_id = re.search(r"/simulations/(\d+)/", batch_path).group(1)

    def finished_batch():
        batch = json.loads(client.get(f"/api/simulations/{batch_id}/")[2])
        return batch if batch["status"] in ("done", "failed") else None

    try:
        batch = wait_until(finished_batch, timeout=120, interval=0.5, what="the batch to finish")
    except AssertionError as exc:
        pytest.fail(f"{exc}:\n" + stack["log"].read_text()[-4000:])
    assert batch["status"] == "done", batch
    assert batch["progress"]["runs_done"] == 20
    status, _, html = get(batch_path)
    replay = re.search(rb'href="(/replays/[^/"]+/)[^"]*"', html)
    share = re.search(rb'(/simulations/shared/[^/"<\s]+/)', html)

    # A solo game against the goldfish.
    status, _, html = get(f"/play/?deck={SAMPLE_DECK}")
    status, headers, body = client.request("POST", "/play/", form_defaults(html))
    assert status == 302, body.decode()[:2000]
    solo_path = urllib.parse.urlsplit(headers["Location"]).path

    pages = [
        "/",
        "/sets/BS/",
        "/cards/",
        "/cards/?q=pos%3AFW+shoot%3E%3D5",
        "/cards/BS-001/",
        "/cards/bulk.json",
        "/decks/",
        f"/decks/{SAMPLE_DECK}/",
        f"/decks/{SAMPLE_DECK}/versions/",
        f"/decks/{SAMPLE_DECK}/print/",
        f"/decks/{SAMPLE_DECK}/export.txt",
        f"/decks/{SAMPLE_DECK}/export.json",
        "/decks/new/",
        "/decks/import/",
        f"/users/{username}/",
        "/simulations/",
        batch_path,
        f"/simulations/{batch_id}/progress/",
        f"/simulations/{batch_id}/results.json",
        solo_path,
        "/play/",
        "/replays/upload/",
        "/lab/touchdown/",
        "/accounts/password_change/",
        "/api/docs/",
        "/api/schema/",
        "/api/sets/",
        "/api/cards/?q=set%3ABS",
        "/api/decks/",
        "/api/simulations/",
        "/admin/login/",
        "/media/BS-001.png",
    ]
    if replay:
        pages.append(replay.group(1).decode())
    if share:
        pages.append(share.group(1).decode())
    for path in pages:
        get(path)
    anonymous = Browserless(stack["base"])
    for path in ("/accounts/login/", "/accounts/password_reset/", "/no-such-page/"):
        seen[path] = anonymous.get(path)[0]
    return {
        "seen": seen,
        "pages": pages,
        "replay": bool(replay),
        "user": (username, password),
        "client": client,
    }


def test_make_serve_runs_every_check_and_serves_every_page_kind_without_a_5xx(stack, journey):
    log = stack["log"].read_text()
    assert "System check identified no issues" in log, log[-3000:]
    failures = {path: status for path, status in journey["seen"].items() if status >= 500}
    assert failures == {}, stack["log"].read_text()[-4000:]
    assert journey["seen"]["/no-such-page/"] == 404
    assert journey["replay"], "the finished batch links no sample match replay"
    ok = [p for p, s in journey["seen"].items() if p != "/no-such-page/" and s != 200]
    assert ok == [], journey["seen"]


def test_the_stacks_beat_and_control_worker_run_the_reconciler_so_health_is_ok(stack, journey):
    client = journey["client"]
    answers = []

    def healthy() -> bool:
        answers.append(client.get("/api/health/"))
        return answers[-1][0] == 200

    try:
        wait_until(healthy, timeout=60, interval=1, what="/api/health/ to answer 200")
    except AssertionError:
        pass  # the assertions below say what was not ok
    status, _, body = answers[-1]
    health = json.loads(body)
    assert status == 200, health
    assert health["database"]["ok"] and health["broker"]["ok"] and health["reconciler"]["ok"]


def test_the_stack_serves_collected_static_files_media_and_a_content_security_policy(
    stack, journey
):
    client = journey["client"]
    status, headers, html = client.get("/")
    assert status == 200
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    css = re.search(rb'href="(/static/css/site\.[0-9a-f]{12}\.css)"', html)
    assert css, "pages link hashed static files (collectstatic's manifest)"
    status, headers, _ = client.get(css.group(1).decode())
    assert status == 200 and "max-age=315360000" in headers.get("Cache-Control", "")
    status, headers, body = client.get("/media/BS-001.png")
    assert (status, headers["Content-Type"], body) == (200, "image/png", PNG)
    # Scans go only through the app's permission-checking view (catalog.contributions.views).
    assert client.get("/media/scans/BS-001.png")[0] == 404
    assert client.get("/media/../manage.py")[0] in (400, 404)


@pytest.mark.browser
def test_chromium_shows_no_csp_violation_or_script_error_on_any_page(stack, journey, browser):
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By

    from tests.browser_waits import browser_wait, page_settled

    base = stack["base"]
    browser.get(base + "/accounts/login/")
    username, password = journey["user"]
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys(password)
    browser.find_element(By.CSS_SELECTOR, "main form [type=submit]").click()
    try:
        browser_wait(browser, 10).until(lambda b: "/accounts/login/" not in b.current_url)
    except TimeoutException:
        pytest.fail("Chromium could not log in")
    problems = {}
    html_pages = [
        p
        for p in journey["pages"]
        if not re.search(r"\.(json|txt|png)$|/api/(?!docs)|/progress/$", p)
    ]
    for path in html_pages:
        browser.get(base + path)
        # Deferred scripts, htmx requests and charts have run: a solo game's bot step starts
        # 700 ms after the page loads, so the network must stay quiet a little longer.
        browser_wait(browser, 20).until(page_settled(quiet_ms=800))
        messages = [
            entry["message"]
            for entry in browser.get_log("browser")
            if entry["level"] == "SEVERE"
            or "Content Security Policy" in entry["message"]
            or "Uncaught" in entry["message"]
        ]
        if messages:
            problems[path] = messages
    assert problems == {}
