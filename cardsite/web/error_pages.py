"""Error pages in the site's layout: the 500 page, and a page for a GET on a POST-only address.

Django renders 403.html and 404.html itself, with the request. A 500 must render even when
the database, the session or the URLconf is what failed, so `server_error` renders 500.html
with no request and no context processors, and falls back to plain text if even that fails;
the 503 page of a database outage is made the same way (cardsite/web/database_outage.py, which
is handler500 and passes every other error on to `server_error`).
Django's `require_POST` answers a 405 with an empty body, which browsers show as their own
bare error; `MethodNotAllowedPageMiddleware` gives such a 405 a page that explains, with a
link back. /api/ keeps its JSON errors (request_edges.ApiErrorMiddleware).
"""

from __future__ import annotations

import logging

from django.http import HttpResponse
from django.shortcuts import render
from django.template import loader
from django.utils.http import url_has_allowed_host_and_scheme

from cardsite.web.request_edges import is_api

logger = logging.getLogger("cardsite.errors")


def standalone_page(template_name: str, *, status: int, fallback: str) -> HttpResponse:
    """Return a page rendered without a request or the database; plain text if even that fails."""
    try:
        return HttpResponse(loader.get_template(template_name).render(), status=status)
    except Exception:  # the page must not raise in place of the error it reports
        logger.exception("The page %s could not be rendered", template_name)
        return HttpResponse(fallback, status=status, content_type="text/plain; charset=utf-8")


def server_error(request, template_name: str = "500.html") -> HttpResponse:
    """Return the 500 page, rendered without the request."""
    return standalone_page(template_name, status=500, fallback="Server error (500)")


def _back(request) -> str:
    """Return the page the visitor came from, when it is on this site."""
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return referer
    return ""


class MethodNotAllowedPageMiddleware:
    """Give an empty 405 outside /api/ the site's page, keeping its status and Allow header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or is_api(request) or response.streaming:
            return response
        if response.content:  # a view that explained itself keeps its words
            return response
        page = render(request, "405.html", {"back": _back(request)}, status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
