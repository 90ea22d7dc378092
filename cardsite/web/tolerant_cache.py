"""The Redis cache, made to degrade instead of failing requests while Redis is unreachable.

The cache holds only things that can be recomputed (search answers, throttle windows), so with
Redis down a read is a miss and a write is skipped, with a warning in the log, rather than a
500 on every page and API call that touches the cache. Short socket timeouts keep a hung Redis
from holding requests.
"""

import logging
import time

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger("cardsite.cache")  # the name it always logged under
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)
_WARN_EVERY = 30.0


class TolerantRedisCache(RedisCache):
    """RedisCache whose operations answer "nothing cached" while Redis is unreachable."""

    _last_warning = 0.0

    def _unavailable(self, operation: str, exc: Exception) -> None:
        now = time.monotonic()
        if now - TolerantRedisCache._last_warning > _WARN_EVERY:
            TolerantRedisCache._last_warning = now
            log.warning("Cache unavailable (%s: %s); serving without it", operation, exc)

    def add(self, key, value, timeout=None, version=None):
        try:
            return super().add(key, value, timeout, version)
        except UNAVAILABLE as exc:
            self._unavailable("add", exc)
            return False

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except UNAVAILABLE as exc:
            self._unavailable("get", exc)
            return default

    def set(self, key, value, timeout=None, version=None):
        try:
            super().set(key, value, timeout, version)
        except UNAVAILABLE as exc:
            self._unavailable("set", exc)

    def touch(self, key, timeout=None, version=None):
        try:
            return super().touch(key, timeout, version)
        except UNAVAILABLE as exc:
            self._unavailable("touch", exc)
            return False

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except UNAVAILABLE as exc:
            self._unavailable("delete", exc)
            return False

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except UNAVAILABLE as exc:
            self._unavailable("get_many", exc)
            return {}

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except UNAVAILABLE as exc:
            self._unavailable("has_key", exc)
            return False

    def incr(self, key, delta=1, version=None):
        # A missing key raises ValueError as usual; an outage raises CacheUnavailable, which
        # callers that count (throttles) treat as "no count available".
        try:
            return super().incr(key, delta, version)
        except UNAVAILABLE as exc:
            self._unavailable("incr", exc)
            raise CacheUnavailable(str(exc)) from exc

    def set_many(self, data, timeout=None, version=None):
        try:
            return super().set_many(data, timeout, version)
        except UNAVAILABLE as exc:
            self._unavailable("set_many", exc)
            return list(data)

    def delete_many(self, keys, version=None):
        try:
            return super().delete_many(keys, version)
        except UNAVAILABLE as exc:
            self._unavailable("delete_many", exc)
            return None

    def clear(self):
        try:
            return super().clear()
        except UNAVAILABLE as exc:
            self._unavailable("clear", exc)
            return False


class CacheUnavailable(RuntimeError):
    """The cache server could not be reached."""
