"""API authentication: DRF's token scheme, refusing keys that cannot be tokens unqueried."""

import re

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication


class StrictTokenAuthentication(TokenAuthentication):
    """DRF's token authentication that never queries for a key that cannot be a token.

    A key with a NUL character would otherwise reach PostgreSQL and fail as a 500.
    """

    def authenticate_credentials(self, key):
        if not re.fullmatch(r"[0-9a-f]{40}", key):
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(key)
