"""Request throttles of the API, counted atomically in the cache (one counter per identity and
window), so a burst of parallel requests cannot all pass a limit they each read as not reached."""

from __future__ import annotations

import logging

from rest_framework import permissions
from rest_framework.throttling import ScopedRateThrottle, UserRateThrottle

from cardsite.web.client_address import client_address
from cardsite.web.tolerant_cache import CacheUnavailable

log = logging.getLogger("cardsite.api")


class AtomicWindowMixin:
    """Count requests in a fixed window with the cache's atomic add + incr (Redis INCR).

    DRF's own throttles read the request history, then write it back: parallel requests all
    read the same history and all pass (48 parallel creates went through a 30/hour limit).
    Here every request increments one counter per identity and window, so exactly `rate`
    requests pass per window however many arrive at once. While the cache is unreachable the
    request is allowed (logged): a cache outage must not turn into a 500 or lock users out.
    """

    def allow_request(self, request, view):
        if getattr(self, "scope_attr", None) and not getattr(view, self.scope_attr, None):
            return True  # ScopedRateThrottle on a view without a scope
        if hasattr(self, "scope_attr"):
            self.scope = getattr(view, self.scope_attr)
            self.rate = self.get_rate()
            self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        self._wait = (window + 1) * self.duration - now
        counter = f"{key}:w{window}"
        try:
            self.cache.add(counter, 0, self.duration + 1)
            count = self.cache.incr(counter)
        except (CacheUnavailable, ValueError) as exc:  # ValueError: evicted between add and incr
            log.warning("Throttle %s not counted (%s); allowing the request", key, exc)
            return True
        return count <= self.num_requests

    def wait(self):
        return getattr(self, "_wait", None)

    def get_ident(self, request):
        """Return the client's address as TRUSTED_PROXIES decides it (never NUM_PROXIES)."""
        return client_address(request)


class AtomicScopedRateThrottle(AtomicWindowMixin, ScopedRateThrottle):
    """ScopedRateThrottle (the view's `throttle_scope` rate), counted atomically."""


class AtomicUserRateThrottle(AtomicWindowMixin, UserRateThrottle):
    """UserRateThrottle (the class's `scope` rate), counted atomically."""


class WriteRateThrottle(AtomicUserRateThrottle):
    """Throttle writes (the `writes` rate in settings); reads are not throttled."""

    scope = "writes"

    def allow_request(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        return super().allow_request(request, view)
