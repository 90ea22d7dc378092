"""API error shape: every error from /api/ is one JSON object (docs/api-errors.md).

    {"message": "The deck text has errors; nothing was saved.",
     "errors": [{"field": "text", "line": 3, "message": "quantity 0 is not from 1 to 60"},
                {"field": "deck[2].quantity", "message": "Ensure this value is ..."}]}

`message` is always there and reads as a sentence; `errors` is always a list (empty when the
error is not about particular fields) of objects with the `field` they concern (a dotted path
into the request body, `null` for the request as a whole), a `message`, and for deck texts the
`line`. Parse errors, field errors, permission errors, 404s, 500s and 503s all use it.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from cardsite.web.numbers import whole_number_or

log = logging.getLogger("cardsite.api")  # the name it always logged under


class StrictPageNumberPagination(PageNumberPagination):
    """Page numbers as documented: a `page` that is not a whole number from 1 is a 400."""

    def paginate_queryset(self, queryset, request, view=None):
        raw = request.query_params.get(self.page_query_param)
        if raw is not None and whole_number_or(raw, None) is None:
            raise exceptions.ValidationError({"page": ["A page is a whole number from 1."]})
        return super().paginate_queryset(queryset, request, view)


def flatten_errors(detail, field: str | None = None) -> list[dict]:
    """Return DRF's nested error detail as a flat list of {field, message}."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            name = None if key in ("non_field_errors", "detail") else str(key)
            path = f"{field}.{name}" if field and name else (name or field)
            out += flatten_errors(value, path)
        return out
    if isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            return [{"field": field, "message": str(item)} for item in detail]
        out = []
        for index, item in enumerate(detail):
            if isinstance(item, dict) and not item:
                continue
            out += flatten_errors(item, f"{field or ''}[{index}]")
        return out
    return [{"field": field, "message": str(detail)}]


def error_body(message: str, errors: list[dict] | None = None) -> dict:
    return {"message": message, "errors": errors or []}


def exception_handler(exc, context):
    """Return every API error as the one JSON error object; leave an unexpected one to the
    middleware (cardsite/web/database_outage.py, request_edges.ApiErrorMiddleware)."""
    if isinstance(exc, RequestDataTooBig):
        # DRF reads a JSON body through request.body, which refuses one over Django's
        # DATA_UPLOAD_MAX_MEMORY_SIZE before the bounded parser sees it: the same 400.
        limit = min(settings.API_MAX_JSON_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 1 << 62)
        exc = exceptions.ParseError(f"The request body is larger than {limit:,} bytes.")
    if isinstance(exc, exceptions.AuthenticationFailed):
        # A bad or malformed token is an authentication failure even on a public GET (401);
        # the session authenticator first in the list would otherwise make it a 403.
        response = Response(error_body(str(exc.detail)), status=status.HTTP_401_UNAUTHORIZED)
        response["WWW-Authenticate"] = 'Token realm="api"'
        return response
    response = drf_exception_handler(exc, context)
    if response is None:
        # Not an API error: DRF raises it again, for the middleware that answers every view's
        # unexpected errors (a 503 while the database is down, else the logged JSON 500).
        return None
    data = response.data
    if isinstance(data, dict) and set(data) == {"message", "errors"}:
        return response
    if isinstance(exc, exceptions.ValidationError):
        errors = flatten_errors(data)
        response.data = error_body(_summary(errors), errors)
    elif isinstance(data, dict) and "detail" in data:
        response.data = error_body(str(data["detail"]))
    else:
        errors = flatten_errors(data)
        response.data = error_body(_summary(errors) if errors else "Request refused.", errors)
    return response


def _summary(errors: list[dict]) -> str:
    if len(errors) == 1:
        error = errors[0]
        return f"{error['field']}: {error['message']}" if error["field"] else error["message"]
    return "Invalid input: see errors."


ERROR_SCHEMA = {
    "type": "object",
    "description": "The API's one error object (docs/api-errors.md).",
    "required": ["message", "errors"],
    "properties": {
        "message": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["message"],
                "properties": {
                    "field": {"type": "string", "nullable": True},
                    "line": {"type": "integer"},
                    "message": {"type": "string"},
                },
            },
        },
    },
}
ERROR_RESPONSES = {
    "400": "Bad input: a parse error or field errors, each naming its field (or line).",
    "401": "A bad or malformed token.",
    "403": "Not allowed (an anonymous write, or another user's deck).",
    "404": "No such object that you can see.",
    "405": "Method not allowed.",
    "409": "The deck changed since the version your If-Match names.",
    "415": "Unsupported media type.",
    "429": "Too many requests (write throttle), or too many failed logins from this address.",
    "500": "Unexpected server error (logged).",
    "503": "The database is unavailable for the moment; try again after Retry-After seconds.",
}


def add_error_responses(result, generator, request, public):
    """Document the error object and the error statuses every operation may answer."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for code, description in ERROR_RESPONSES.items():
                responses.setdefault(code, {"description": description, "content": ref})
    return result
