"""Login throttling for every way in (the site's login, the admin's, API tokens), counted first.

Why not django-axes: it keeps its own tables and middleware to audit every attempt, and its
cache handler checks before it counts. Here a few counters in Django's cache (Redis in
production, whose INCR is atomic) are enough, and they tolerate a cache outage.

Every attempt is counted *before* the password is checked, and refused if its own count is past
the limit: parallel guesses each get a different count, so exactly the limit pass (checking
first and counting after let 14 parallel guesses through a limit of 5). A success takes its
count back. The counters, in fixed windows:

- per account *and* address: LOGIN_FAILURE_LIMIT_ACCOUNT (5) failures in LOGIN_FAILURE_WINDOW
  (15 minutes). A stranger's guesses lock only the stranger's own address out of the account;
- per address: LOGIN_FAILURE_LIMIT_ADDRESS (20) failures, whatever the accounts (spraying);
- per account, the addresses that failed: past LOGIN_ACCOUNT_ADDRESS_LIMIT (10) addresses in
  LOGIN_ACCOUNT_WINDOW (an hour), a guess spread over many addresses, the account is locked for
  every address except those it logged in from before (LOGIN_KNOWN_ADDRESS_DAYS), so the owner
  still gets in from home while a botnet is held at a few guesses an hour.

The address is `client_address` (TRUSTED_PROXIES decides what X-Forwarded-For is worth). While
the cache is unreachable logging in works unthrottled and the outage is logged: a cache outage
must not turn into a 500 on the login page or lock everyone out.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger("decks.login")  # the name it always logged under


def _setting(name: str, default: int) -> int:
    return getattr(settings, name, default)


def _digest(*parts: str) -> str:
    text = "\x1f".join(part.strip().lower() for part in parts)
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


def _window_key(kind: str, digest: str, seconds: int) -> str:
    # One key per fixed window: a counter that lost its expiry still ends with its window.
    return f"login:{kind}:{digest}:{int(time.time() // seconds)}"


def _count(key: str, seconds: int) -> int:
    """Increment a window counter atomically and return its new value."""
    cache.add(key, 0, timeout=seconds + 1)
    try:
        return cache.incr(key)
    except ValueError:  # evicted between add and incr
        cache.add(key, 1, timeout=seconds + 1)
        return 1


@dataclass
class LoginAttempt:
    """One counted attempt: refused (and why), or allowed and waiting for its outcome."""

    refused: str | None = None  # "account", "address" or "spread"; None when allowed
    _undo: list[str] = field(default_factory=list)
    _forget: list[str] = field(default_factory=list)
    _known: str | None = None

    def succeeded(self) -> None:
        """Take back the attempt's count: a login that succeeded was no failure."""
        try:
            for key in self._forget:
                cache.delete(key)
            for key in self._undo:
                try:
                    cache.decr(key)
                except ValueError:  # the window ended meanwhile
                    pass
            if self._known:
                days = _setting("LOGIN_KNOWN_ADDRESS_DAYS", 30)
                cache.set(self._known, 1, timeout=days * 86400)
        except Exception:
            logger.warning("Login throttle: the cache is unreachable", exc_info=True)


def login_attempt(*, address: str, username: str | None = None) -> LoginAttempt:
    """Count a login attempt from `address` (for `username`, unless it is a token) and return
    it, refused when a count is past its limit."""
    try:
        return _login_attempt(address=address, username=username)
    except Exception:
        logger.warning("Login throttle: the cache is unreachable; not throttling", exc_info=True)
        return LoginAttempt()


def _login_attempt(*, address: str, username: str | None) -> LoginAttempt:
    window = _setting("LOGIN_FAILURE_WINDOW", 900)
    address_key = _window_key("address", _digest(address), window)
    attempt = LoginAttempt(_undo=[address_key])
    over_address = _count(address_key, window) > _setting("LOGIN_FAILURE_LIMIT_ADDRESS", 20)
    if username is None:  # an API token: no account to count against
        attempt.refused = "address" if over_address else None
        return attempt
    pair_key = _window_key("pair", _digest(username, address), window)
    pair = _count(pair_key, window)
    attempt._forget.append(pair_key)
    account_window = _setting("LOGIN_ACCOUNT_WINDOW", 3600)
    spread_key = _window_key("spread", _digest(username), account_window)
    if pair == 1:  # the first failure of this address for this account: one more address
        spread = _count(spread_key, account_window)
        attempt._undo.append(spread_key)
    else:
        spread = cache.get(spread_key, 0)
    attempt._known = f"login:known:{_digest(username, address)}"
    if pair > _setting("LOGIN_FAILURE_LIMIT_ACCOUNT", 5):
        attempt.refused = "account"
    elif over_address:
        attempt.refused = "address"
    elif spread > _setting("LOGIN_ACCOUNT_ADDRESS_LIMIT", 10) and not cache.get(attempt._known):
        attempt.refused = "spread"
    return attempt
