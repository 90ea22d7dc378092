"""Shared API plumbing (cardsite/web/api_errors.py) and the Redis cache that tolerates an outage."""

import threading
from types import SimpleNamespace

import pytest
from django.core.cache import cache

from cardsite.web.throttles import AtomicScopedRateThrottle
from cardsite.web.tolerant_cache import TolerantRedisCache

# Nothing listens here: one of this project's private test ports, never the shared Redis.
DEAD_REDIS = "redis://127.0.0.1:6393/0"


def throttle_with(rate: str, cache_backend=None) -> AtomicScopedRateThrottle:
    throttle = AtomicScopedRateThrottle()
    throttle.THROTTLE_RATES = {"creates": rate}
    if cache_backend is not None:
        throttle.cache = cache_backend
    return throttle


def test_parallel_requests_pass_the_throttle_exactly_as_often_as_its_rate(alice):
    view = SimpleNamespace(throttle_scope="creates")
    request = SimpleNamespace(user=alice, META={"REMOTE_ADDR": "127.0.0.1"})
    start = threading.Barrier(48)
    allowed = []

    def attempt():
        throttle = throttle_with("30/hour")
        start.wait()
        allowed.append(throttle.allow_request(request, view))

    threads = [threading.Thread(target=attempt) for _ in range(48)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert allowed.count(True) == 30
    assert allowed.count(False) == 18
    denied = throttle_with("30/hour")
    assert denied.allow_request(request, view) is False
    assert 0 < denied.wait() <= 3600


def test_a_view_without_a_scope_is_not_throttled(alice):
    request = SimpleNamespace(user=alice, META={"REMOTE_ADDR": "127.0.0.1"})
    assert throttle_with("1/hour").allow_request(request, SimpleNamespace()) is True


def test_with_redis_down_the_cache_misses_and_the_throttle_allows_instead_of_failing(alice):
    dead = TolerantRedisCache(DEAD_REDIS, {"OPTIONS": {"socket_connect_timeout": 0.5}})
    assert dead.get("anything", "fallback") == "fallback"
    dead.set("key", 1)  # skipped, no exception
    assert dead.add("key", 1) is False
    assert dead.get_many(["a", "b"]) == {}
    view = SimpleNamespace(throttle_scope="creates")
    request = SimpleNamespace(user=alice, META={"REMOTE_ADDR": "127.0.0.1"})
    throttle = throttle_with("1/hour", dead)
    assert [throttle.allow_request(request, view) for _ in range(3)] == [True, True, True]


@pytest.mark.django_db
def test_the_suites_cache_still_counts_when_it_is_up(alice):
    view = SimpleNamespace(throttle_scope="creates")
    request = SimpleNamespace(user=alice, META={"REMOTE_ADDR": "127.0.0.1"})
    cache.clear()
    results = [throttle_with("2/hour").allow_request(request, view) for _ in range(3)]
    assert results == [True, True, False]
