"""The password check every login goes through (the site's login form, the admin's, any other
caller of `django.contrib.auth.authenticate` with a request), with the login throttle around it."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from cardsite.accounts.throttle import login_attempt
from cardsite.web.client_address import client_address

UserModel = get_user_model()


class ThrottledModelBackend(ModelBackend):
    """Django's ModelBackend, counting each attempt first and refusing one past the limits.

    A refused attempt never reaches the password hasher; `request.login_throttled` tells the
    form to say why. A failure raises PermissionDenied, so Django does not ask the plain
    ModelBackend (listed after this one for sessions that name it) to check the password again.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:  # not a web login (a test client's login, a shell)
            return super().authenticate(request, username, password, **kwargs)
        name = username if username is not None else kwargs.get(UserModel.USERNAME_FIELD)
        attempt = login_attempt(address=client_address(request), username=str(name or ""))
        if attempt.refused:
            request.login_throttled = True
            raise PermissionDenied
        user = super().authenticate(request, username, password, **kwargs)
        if user is None:
            raise PermissionDenied
        attempt.succeeded()
        return user
