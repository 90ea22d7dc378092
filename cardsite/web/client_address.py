"""The address a request comes from, as the login throttle and the API throttles count it.

Behind a TLS proxy every request arrives from the proxy's address, so the client's address
must come from `X-Forwarded-For`; but a client can write that header itself. It is believed
only from the proxies named in TRUSTED_PROXIES (addresses or networks): reading the header
from its right end, each entry a trusted proxy appended is skipped, and the first address that
is not a trusted proxy is the client. With TRUSTED_PROXIES empty (the default) the header is
ignored and the peer address (REMOTE_ADDR) is the client. DRF's own `NUM_PROXIES` is not used:
with it unset, DRF believes the whole header, so a client rotating it escapes every limit.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings

# More hops than any real chain of proxies; the rest of a longer header is the client's own.
MAX_HOPS = 16


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _address(text: str):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _is_trusted(address, networks) -> bool:
    return address is not None and any(address in network for network in networks)


def client_address(request) -> str:
    """Return the client's address: the peer, or what trusted proxies say they received from."""
    peer = request.META.get("REMOTE_ADDR", "") or ""
    networks = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))
    hop = _address(peer)
    if not _is_trusted(hop, networks):
        return peer
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "") or ""
    for entry in reversed(forwarded.split(",")[-MAX_HOPS:]):
        address = _address(entry)
        if address is None:
            break  # not an address a proxy appends: the last trusted hop is all we know
        if not _is_trusted(address, networks):
            return str(address)
        hop = address
    return str(hop)
