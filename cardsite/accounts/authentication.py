"""API authentication: DRF's token scheme, refusing keys that cannot be tokens unqueried, and
counting every token attempt against the client's address as the login throttle does."""

import re

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header

from cardsite.accounts.throttle import login_attempt
from cardsite.web.client_address import client_address


class StrictTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, throttled like a login and never querying for a key that
    cannot be a token (a key with a NUL character would otherwise reach PostgreSQL as a 500).

    A request that sends a token is one login attempt from its address (counted first, taken
    back when the token is good): wrong tokens use up the same failures per address as wrong
    passwords, and past the limit the answer is a 429 without looking the key up.
    """

    def authenticate(self, request):
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != self.keyword.lower().encode():
            return None  # no token: nothing to count
        attempt = login_attempt(address=client_address(request))
        if attempt.refused:
            raise exceptions.Throttled(detail="Too many failed logins from this address.")
        result = super().authenticate(request)
        attempt.succeeded()
        return result

    def authenticate_credentials(self, key):
        if not re.fullmatch(r"[0-9a-f]{40}", key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(key)
