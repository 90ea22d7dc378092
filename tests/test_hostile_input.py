"""Hostile input on every URL pattern and every API operation: never a 5xx, never a write.

Each pattern of the root URLconf (Django's admin aside) is requested with NUL characters,
integers of thousands of digits and absurd values in its path and query, and sent form and
JSON bodies that are deeply nested, hold NaN, NUL or 5,000-digit numbers, or are larger than
any limit. Every answer must be below 500, and no row of the app's tables may change. Several
of these failed only on PostgreSQL (NUL in a query, smallint overflow): run this module there.
"""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.throttling import SimpleRateThrottle

from decks.models import Deck
from decks.selectors import deck_content
from decks.services import deck_create

pytestmark = pytest.mark.django_db

NUL = "%00"
HUGE = "9" * 5000
WIDE = "99999999999999999999"
DEEP = "[" * 20_000 + "]" * 20_000

HOSTILE_QUERY = (
    f"?q={NUL}&page={HUGE}&deck={NUL}&n={HUGE}&k={WIDE}&a={HUGE}&b={WIDE}&step={HUGE}&kind={NUL}"
)
FORM_BODY = {
    "name": "n" * 5000,
    "description": "d" * 50_000,
    "visibility": "private",
    "draft": DEEP,
    "text": "deck:\n" + HUGE + " BS-012\n" + "60 BS-013\n" * 600,
    "deck": HUGE,
    "deck_a": HUGE,
    "deck_b": WIDE,
    "runs": HUGE,
    "seed": HUGE,
    "kind": "pk",
    "base_version": HUGE,
    "action": DEEP[:5000],
    "username": "u" * 5000,
    "password": "p",
    "log": DEEP,
    "effects": DEEP,
}
FORM_NUL = {"name": "a\x00b", "q": "\x00", "draft": '{"deck": {"BS-\x00": 1}}'}
JSON_BODIES = {
    "deep": DEEP,
    "huge-int": (
        '{"name": "x", "kind": "pk", "runs": 1' + "0" * 5000 + ', "seed": 1' + "0" * 5000 + ","
        ' "deck": [{"card": "BS-012", "quantity": 1' + "0" * 5000 + "}]}"
    ),
    "smallint": '{"name": "x", "deck": ['
    + ",".join(['{"card": "BS-012", "quantity": 60}'] * 551)
    + "]}",
    "nan": '{"name": NaN, "runs": NaN, "seed": Infinity,'
    ' "deck": [{"card": "BS-012", "quantity": NaN}]}',
    "nul": '{"name": "a\\u0000", "deck_a": "\\u0000", "kind": "pk", "runs": 1, "text": "\\u0000"}',
    "wrong-types": '{"name": [], "deck": "x", "bench": 5, "goalkeeper": {}, "runs": "many",'
    ' "kind": [], "variants": "x", "text": 5}',
}
OVERSIZED = "x" * 3_000_000
# POSTs that take no input and act on the deck in their path (copy it, delete it): any POST
# is a valid request there, so rows change; they must still never answer 5xx.
INPUT_FREE_ACTIONS = {"decks/<slug:slug>/copy/", "decks/<slug:slug>/delete/"}
# The hostile form body also carries `visibility: private`, a valid value: the collection's
# sharing setting is rightly saved from it.
INPUT_FREE_ACTIONS |= {"collection/settings/"}
# The health check answers 503 by design when a dependency is down (no beat runs in tests).
HEALTH_ROUTE = "/api/health/"


def _patterns(patterns, prefix=""):
    for pattern in patterns:
        route = str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if route.startswith("admin"):
                continue
            yield from _patterns(pattern.url_patterns, prefix + route)
        elif isinstance(pattern, URLPattern):
            if "(?P<format>" in route or "<drf_format_suffix" in route:
                continue  # the same views again, with a format suffix
            yield prefix + route


def concrete(route: str, value: str) -> str:
    """Return a path for a route (path() or regex syntax) with every parameter set to value."""
    path = re.sub(r"<(?:\w+:)?\w+>", value, route)
    path = re.sub(r"\(\?P<\w+>[^)]*\)", value, path)
    path = path.replace("^", "").replace("$", "").replace("\\", "").replace("/?", "/")
    return "/" + path


ROUTES = sorted(set(_patterns(get_resolver().url_patterns)))


def _row_counts() -> dict[str, int]:
    labels = {"catalog", "decks", "play", "auth", "authtoken"}
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in labels
    }


@pytest.fixture(autouse=True)
def no_throttles(monkeypatch):
    """Let every request reach its view: the write and simulation rates are not under test."""
    for scope in list(SimpleRateThrottle.THROTTLE_RATES):
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, "1000000/minute")


def _check(response, what: str, failures: list[str]) -> None:
    if response.status_code == 503 and what.startswith(f"GET {HEALTH_ROUTE} "):
        return
    if response.status_code >= 500:
        failures.append(f"{what} -> {response.status_code}")


@pytest.mark.parametrize("route", ROUTES)
def test_no_hostile_request_is_a_server_error_or_a_write(route, alice):
    sample = Deck.objects.filter(is_sample=True).order_by("slug").first()
    deck = deck_create(owner=alice, name="Target", content=deck_content(sample))
    anon, signed_in = Client(raise_request_exception=False), Client(raise_request_exception=False)
    signed_in.force_login(alice)
    before = _row_counts()
    failures: list[str] = []
    values = [NUL, HUGE, WIDE, deck.slug]
    for value in values:
        path = concrete(route, value)
        for name, client in (("anon", anon), ("alice", signed_in)):
            _check(client.get(path + HOSTILE_QUERY), f"GET {path[:60]} as {name}", failures)
    path = concrete(route, deck.slug)
    for name, client in (("anon", anon), ("alice", signed_in)):
        _check(client.post(path, FORM_BODY), f"POST form {path} as {name}", failures)
        _check(client.post(path, FORM_NUL), f"POST NUL form {path} as {name}", failures)
        for kind, body in JSON_BODIES.items():
            response = client.post(path, body, content_type="application/json")
            _check(response, f"POST {kind} JSON {path} as {name}", failures)
        response = client.post(path, OVERSIZED, content_type="application/x-www-form-urlencoded")
        _check(response, f"POST oversized {path} as {name}", failures)
    if route.startswith("api/"):
        for method in ("put", "patch", "delete"):
            for kind, body in JSON_BODIES.items():
                response = getattr(signed_in, method)(path, body, content_type="application/json")
                _check(response, f"{method.upper()} {kind} JSON {path}", failures)
            response = getattr(signed_in, method)(
                path, "{" + OVERSIZED + "}", content_type="application/json"
            )
            _check(response, f"{method.upper()} oversized {path}", failures)
    after = _row_counts()
    changed = {
        label: (before[label], after[label]) for label in before if before[label] != after[label]
    }
    assert not failures, failures
    if route not in INPUT_FREE_ACTIONS:
        assert not changed, f"rows written: {changed}"


def test_the_walk_covers_the_api_and_the_pages():
    for expected in (
        "api/^decks/$",
        "decks/<slug:slug>/edit/",
        "replays/upload/",
        "logs/<str:token>.json",
    ):
        assert expected in ROUTES
    assert len(ROUTES) > 50
