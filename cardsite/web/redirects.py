"""Where a `next` parameter may send a user: a path on this site, never another site.

A hand-written "starts with / but not //" check lets `/\\evil.example` through, which browsers
read as `//evil.example`. Django's `url_has_allowed_host_and_scheme` knows these tricks
(backslashes, schemes, tabs); with no allowed host, anything naming a host is
refused, so only paths of this site pass.
"""

from django.utils.http import url_has_allowed_host_and_scheme


def same_site_path(target) -> str | None:
    """Return `target` if it is a path on this site (`/decks/?x=1#y`), else None."""
    if not isinstance(target, str) or not target.startswith("/"):
        return None
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in target):
        return None  # a line break would split the Location header; a tab hides a host
    return target if url_has_allowed_host_and_scheme(target, allowed_hosts=None) else None
