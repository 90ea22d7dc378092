"""The client's address (cardsite/web/client_address.py): X-Forwarded-For is believed only from
the proxies TRUSTED_PROXIES names, for the API throttles as for the login throttle."""

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.test import RequestFactory

from cardsite.web.client_address import client_address
from cardsite.web.throttles import AtomicScopedRateThrottle

factory = RequestFactory()


def request_from(peer: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return factory.get("/", **extra)


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = []
    assert client_address(request_from("203.0.113.9", "198.51.100.1")) == "203.0.113.9"


def test_a_trusted_proxy_names_the_client(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert client_address(request_from("127.0.0.1", "198.51.100.1")) == "198.51.100.1"


def test_a_client_cannot_name_itself_through_a_trusted_proxy(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    # The client wrote "1.2.3.4"; the trusted proxies appended what they saw, right to left.
    chain = "1.2.3.4, 198.51.100.1, 10.1.2.3"
    assert client_address(request_from("127.0.0.1", chain)) == "198.51.100.1"


def test_the_header_from_an_untrusted_peer_is_ignored(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_address(request_from("203.0.113.9", "10.0.0.1")) == "203.0.113.9"


@pytest.mark.parametrize("forwarded", ["", "not-an-address", "1.2.3.4, junk"])
def test_a_header_without_a_usable_address_leaves_the_nearest_trusted_hop(settings, forwarded):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert client_address(request_from("127.0.0.1", forwarded)) == "127.0.0.1"


def test_ipv6_proxies_and_clients(settings):
    settings.TRUSTED_PROXIES = ["::1", "fd00::/8"]
    assert client_address(request_from("::1", "2001:db8::7, fd00::1")) == "2001:db8::7"


def test_a_rotating_header_does_not_escape_the_api_throttle(settings, db):
    settings.TRUSTED_PROXIES = []
    throttle = AtomicScopedRateThrottle()
    throttle.THROTTLE_RATES = {"reads": "3/hour"}
    view = SimpleNamespace(throttle_scope="reads")
    answers = []
    for index in range(6):
        request = request_from("203.0.113.9", f"198.51.100.{index}")
        request.user = SimpleNamespace(is_authenticated=False)
        answers.append(throttle.allow_request(request, view))
    assert answers == [True, True, True, False, False, False]


def test_behind_a_trusted_proxy_clients_are_throttled_apart(settings, db):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    throttle = AtomicScopedRateThrottle()
    throttle.THROTTLE_RATES = {"reads": "1/hour"}
    view = SimpleNamespace(throttle_scope="reads")
    answers = []
    for client in ("198.51.100.1", "198.51.100.2", "198.51.100.1"):
        request = request_from("127.0.0.1", client)
        request.user = SimpleNamespace(is_authenticated=False)
        answers.append(throttle.allow_request(request, view))
    assert answers == [True, True, False]


def test_a_setting_that_is_not_an_address_fails_at_start():
    environment = {**os.environ, "TRUSTED_PROXIES": "127.0.0.1, proxy.example"}
    result = subprocess.run(
        [sys.executable, "-c", "import cardsite.settings"],
        env=environment,
        capture_output=True,
        text=True,
        cwd=django_settings.BASE_DIR,
    )
    assert result.returncode != 0 and "'proxy.example' is not an IP address" in result.stderr
