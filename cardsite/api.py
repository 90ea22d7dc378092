"""API error shape: every error is a JSON object with a `message` (and field details)."""

from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
    """Return DRF's error response with a top-level human-readable `message` added."""
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and "detail" in data and len(data) == 1:
        response.data = {"message": str(data["detail"])}
    elif isinstance(data, dict) and "message" not in data:
        response.data = {"message": "Invalid input.", "errors": data}
    elif isinstance(data, list):
        response.data = {"message": " ".join(str(item) for item in data)}
    return response
