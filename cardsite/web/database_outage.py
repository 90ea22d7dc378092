"""Database down → 503: while the database cannot be reached, pages and the API say so.

A request that meets `django.db.OperationalError` or `InterfaceError` (a refused connection, a
dropped one, a server shutting down) answers 503 with `Retry-After` instead of a 500: under
/api/ the API's one JSON error object, elsewhere a page in the site's layout and the visitor's
language. The page is rendered without the request: the user, the session and the messages all
live in the database. Writes run in transactions (the services' `transaction.atomic`), so a
request cut off by the outage leaves nothing half-saved. /api/health/ answers its own 503.

`DatabaseUnavailableMiddleware.process_exception` answers for views and their templates (DRF
views hand their unexpected errors on to it: cardsite/web/api_errors.py). It stands outside the
session and authentication middleware, inside `ApiErrorMiddleware` (whose JSON 500 it must come
before). Django turns an exception raised by another middleware (the session saved on the way
out) or by an error page (the 404 page's lookup of the user) into a response before any
middleware sees it, through handler500, or handler400 for a session update that failed:
`server_error` and `bad_request` give an outage there the same 503.

An outage is logged once when it starts and once when the database answers again (a new
connection is made), with the number of requests answered 503 meanwhile; not a line, nor a stack
trace, per request.
"""

from __future__ import annotations

import logging
import sys
import threading
import time

from django.contrib.sessions.exceptions import SessionInterrupted
from django.db import InterfaceError, OperationalError
from django.db.backends.signals import connection_created
from django.http import HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults

from cardsite.web import error_pages
from cardsite.web.api_errors import error_body
from cardsite.web.request_edges import is_api

logger = logging.getLogger("cardsite.errors")

RETRY_AFTER_SECONDS = 30


def is_database_unavailable(exc: BaseException | None) -> bool:
    """Return whether `exc` says the database cannot be reached or used for now."""
    return isinstance(exc, (OperationalError, InterfaceError))


class OutageLog:
    """One warning when the database stops answering, one when it answers again."""

    def __init__(self):
        self._lock = threading.Lock()
        self.since: float | None = None
        self.answered = 0

    def failed(self, exc: BaseException) -> None:
        with self._lock:
            starts = self.since is None
            if starts:
                self.since, self.answered = time.monotonic(), 0
            self.answered += 1
        if starts:
            reason = " ".join(f"{type(exc).__name__}: {exc}".split())  # psycopg's are multi-line
            logger.warning(
                "Database unavailable (%s); answering 503 until it answers again", reason
            )

    def recovered(self) -> None:
        if self.since is None:  # every new connection asks: no lock while all is well
            return
        with self._lock:
            if self.since is None:
                return
            seconds, answered = time.monotonic() - self.since, self.answered
            self.since, self.answered = None, 0
        logger.warning(
            "Database answers again after %.0f s; %d requests were answered 503", seconds, answered
        )


outage_log = OutageLog()


def _database_answers(sender, connection, **kwargs) -> None:
    outage_log.recovered()


connection_created.connect(_database_answers, dispatch_uid="cardsite.web.database_outage")


def unavailable_response(request, exc: BaseException) -> HttpResponse:
    """Return the 503 for `request`: JSON under /api/, else the page, with Retry-After."""
    outage_log.failed(exc)
    # The visitor's language as LocaleMiddleware reads it (the language cookie, Accept-Language).
    with translation.override(translation.get_language_from_request(request)):
        if is_api(request):
            message = _("The database is unavailable for the moment; try again in %(seconds)s s.")
            response = JsonResponse(
                error_body(message % {"seconds": RETRY_AFTER_SECONDS}), status=503
            )
        else:
            response = error_pages.standalone_page(
                "503.html", status=503, fallback="Service unavailable (503)"
            )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    # Django logs every response of 400 and up (and the trace of an exception turned into one)
    # unless it is marked as logged: the outage is logged above, once.
    response._has_been_logged = True
    return response


class DatabaseUnavailableMiddleware:
    """Answer 503 to a view or template that finds the database unreachable."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if is_database_unavailable(exception):
            return unavailable_response(request, exception)
        return None


def bad_request(request, exception) -> HttpResponse:
    """handler400: a session that could not be saved for an outage is a 503, not a 400."""
    # The session middleware reports any failed save as SessionInterrupted (a 400), raised
    # while it handles the UpdateError that the database's error became.
    if isinstance(exception, SessionInterrupted):
        cause = exception.__context__
        while cause is not None and not is_database_unavailable(cause):
            cause = cause.__cause__ or cause.__context__
        if cause is not None:
            return unavailable_response(request, cause)
    return defaults.bad_request(request, exception)


def server_error(request, template_name: str = "500.html") -> HttpResponse:
    """handler500: an outage met outside a view is a 503 too; anything else the 500 page."""
    exc = sys.exc_info()[1]  # Django calls handler500 while it handles the exception
    if is_database_unavailable(exc):
        return unavailable_response(request, exc)
    return error_pages.server_error(request, template_name)
