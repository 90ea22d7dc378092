"""Login throttling by account and by address, on Django's cache with atomic counters.

Why not django-axes: it adds its own tables, middleware and an authentication backend to audit
every attempt; here two counters are enough, and Django's cache (Redis in production) already
gives an atomic `incr`. Each failed login increments a counter for the account (the lower-cased
user name) and one for the client address, both expiring LOGIN_FAILURE_WINDOW seconds after
the first failure; while either is at its limit, logging in is refused without checking the
password. A success clears the account's counter.

The cache is an aid, not a dependency: when it cannot be reached, logging in works unthrottled
and the outage is logged, rather than a cache outage becoming a 500 on the login page.
"""

from __future__ import annotations

import hashlib
import logging

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger("decks.login")


def _limits() -> dict[str, int]:
    return {
        "account": getattr(settings, "LOGIN_FAILURE_LIMIT_ACCOUNT", 5),
        "address": getattr(settings, "LOGIN_FAILURE_LIMIT_ADDRESS", 20),
    }


def _window() -> int:
    return getattr(settings, "LOGIN_FAILURE_WINDOW", 900)


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.strip().lower().encode("utf-8", "replace")).hexdigest()[:32]
    return f"login-fail:{kind}:{digest}"


def _keys(*, username: str, address: str) -> dict[str, str]:
    return {"account": _key("account", username), "address": _key("address", address)}


def login_blocked(*, username: str, address: str) -> bool:
    """Return whether this account or this address has used up its failed logins."""
    keys = _keys(username=username, address=address)
    try:
        counts = cache.get_many(list(keys.values()))
    except Exception:
        logger.warning("Login throttle: the cache is unreachable; not throttling", exc_info=True)
        return False
    limits = _limits()
    return any(counts.get(keys[kind], 0) >= limits[kind] for kind in keys)


def login_failed(*, username: str, address: str) -> None:
    """Count a failed login against the account and the address (atomically)."""
    try:
        for key in _keys(username=username, address=address).values():
            cache.add(key, 0, timeout=_window())
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.add(key, 1, timeout=_window())
    except Exception:
        logger.warning("Login throttle: the cache is unreachable; not counting", exc_info=True)


def login_succeeded(*, username: str) -> None:
    try:
        cache.delete(_key("account", username))
    except Exception:
        logger.warning("Login throttle: the cache is unreachable", exc_info=True)
