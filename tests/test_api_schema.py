"""Property test of the whole API against its own OpenAPI schema (schemathesis), as an
anonymous caller and with a token: no server error and no response outside the schema."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle
from schemathesis.checks import (
    content_type_conformance,
    missing_required_header,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from cardsite.wsgi import application

pytestmark = pytest.mark.slow

# The checks run on every response: no 5xx, only documented statuses, content types, headers
# and bodies matching the schema, schema-invalid input refused, unsupported methods and
# missing required headers refused. Left out: "positive data accepted" (business rules rightly
# refuse some schema-valid bodies, e.g. an unknown card id, with the 400 error object) and
# "ignored auth" (with a valid token, a generated garbage session cookie is simply no session).
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    unsupported_method,
    missing_required_header,
]


schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """Keep the test's database connection across WSGI requests, as Django's test client does."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def no_throttles(monkeypatch):
    for scope in list(SimpleRateThrottle.THROTTLE_RATES):
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, "1000000/minute")


@pytest.fixture
def token(alice):
    return Token.objects.create(user=alice).key


@schema.parametrize()
@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.django_db
def test_the_api_keeps_to_its_schema_anonymously(case):
    case.call_and_validate(checks=CHECKS)


@schema.parametrize()
@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.django_db
def test_the_api_keeps_to_its_schema_with_a_token(case, token):
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
