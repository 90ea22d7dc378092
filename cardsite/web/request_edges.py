"""Request edges: refuse input no view should ever see, and keep /api/ errors in JSON.

`RequestBoundsMiddleware` answers 400 before any view runs when the path, a query parameter or
a form field holds a NUL character (PostgreSQL cannot store or compare one: the query would
fail with a 500), or when the query string is absurdly long. `ApiErrorMiddleware` makes every
error under /api/ the JSON error object of cardsite/web/api_errors.py, including a URL that
matches no route and an exception no view caught (a 500).
"""

from __future__ import annotations

import logging

from django.http import HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

logger = logging.getLogger("cardsite.errors")

MAX_QUERY_STRING = 8_000


def is_api(request) -> bool:
    """The API, or a page's own JSON door asked for JSON (a script's fetch says Accept)."""
    return request.path_info.startswith("/api/") or request.headers.get("Accept", "").startswith(
        "application/json"
    )


def bad_request(request, message: str) -> HttpResponse:
    """Return a 400 in the caller's language: the JSON error object for the API, else a page."""
    if is_api(request):
        return JsonResponse({"message": message, "errors": []}, status=400)
    from django.shortcuts import render

    try:
        return render(request, "400.html", {"message": message}, status=400)
    except Exception:  # the page itself must not turn a 400 into a 500
        return HttpResponse(escape(message), status=400, content_type="text/plain")


def _nul_in(query_dict) -> str | None:
    for key, values in query_dict.lists():
        if "\x00" in key or any(isinstance(v, str) and "\x00" in v for v in values):
            return key.replace("\x00", "\\0")
    return None


class RequestBoundsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        problem = self.problem(request)
        if problem:
            return bad_request(request, problem)
        return self.get_response(request)

    def problem(self, request) -> str | None:
        if "\x00" in request.path_info or "%00" in request.META.get("PATH_INFO", ""):
            return _("The address holds a NUL character.")
        if len(request.META.get("QUERY_STRING", "")) > MAX_QUERY_STRING:
            return _("The query string is longer than %(limit)s characters.") % {
                "limit": MAX_QUERY_STRING
            }
        field = _nul_in(request.GET)
        if field is not None:
            return _("The parameter %(field)s holds a NUL character.") % {"field": field}
        if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ):
            try:
                field = _nul_in(request.POST)
            except Exception as exc:  # a malformed or oversized form body
                return _("The form data could not be read: %(reason)s") % {"reason": exc}
            if field is not None:
                return _("The field %(field)s holds a NUL character.") % {"field": field}
        return None


class ApiErrorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            is_api(request)
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
            and not request.path_info.startswith("/api/docs/")
        ):
            return JsonResponse(
                {"message": _error_message(response.status_code), "errors": []},
                status=response.status_code,
            )
        return response

    def process_exception(self, request, exception):
        if not is_api(request):
            return None
        logger.exception("Unhandled error on %s %s", request.method, request.path)
        return JsonResponse(
            {"message": "Internal server error; the error was logged.", "errors": []},
            status=500,
        )


def _error_message(status: int) -> str:
    return {
        400: "Bad request.",
        403: "You do not have permission to do this.",
        404: "Not found.",
        405: "Method not allowed.",
        413: "The request body is too large.",
    }.get(status, "Server error." if status >= 500 else "Request refused.")
