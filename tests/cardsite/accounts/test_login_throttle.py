"""The login throttle (cardsite/accounts/throttle.py, backends.py) on every way in: counted before
the password is checked, so parallel guesses cannot pass the limit; the admin's login and API
tokens under the same counts; a stranger cannot lock the owner out; X-Forwarded-For only from
trusted proxies."""

import threading

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.db import connections
from django.test import Client, RequestFactory
from rest_framework.authtoken.models import Token

from cardsite.accounts.throttle import login_attempt

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-1"  # alice's (tests/conftest.py)


def login(client, username, password, address="10.0.0.1", **headers):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
    )


def test_parallel_guesses_are_counted_before_the_password_so_only_the_limit_are_checked(
    settings,
):
    settings.LOGIN_FAILURE_LIMIT_ACCOUNT = 5
    start = threading.Barrier(14)
    refused = []

    def guess(number):
        request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="10.0.0.1")
        try:
            start.wait()
            user = authenticate(request, username="alice", password=f"guess-{number}")
            assert user is None
            refused.append(getattr(request, "login_throttled", False))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(14)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(refused) == 14
    assert refused.count(False) == 5  # checked against the password
    assert refused.count(True) == 9  # refused unchecked


def test_parallel_counts_are_exact_in_the_cache(settings):
    settings.LOGIN_FAILURE_LIMIT_ADDRESS = 7
    start = threading.Barrier(20)
    outcomes = []

    def attempt():
        start.wait()
        outcomes.append(login_attempt(address="10.0.0.9").refused)

    threads = [threading.Thread(target=attempt) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count(None) == 7 and outcomes.count("address") == 13


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("root", password=PASSWORD, is_staff=True)


def admin_login(client, password, address="10.0.0.1"):
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": "root", "password": password},
        REMOTE_ADDR=address,
    )


def test_the_admin_login_is_throttled_even_for_the_right_password(staff, settings):
    settings.LOGIN_FAILURE_LIMIT_ACCOUNT = 5
    client = Client()
    for _ in range(30):
        admin_login(client, "wrong")
    refused = admin_login(client, PASSWORD)
    assert refused.status_code == 200 and "Too many failed logins" in refused.content.decode()
    assert "_auth_user_id" not in client.session
    assert admin_login(Client(), PASSWORD, address="10.0.0.2").status_code == 302


def test_admin_failures_count_toward_the_site_login(staff, settings):
    settings.LOGIN_FAILURE_LIMIT_ACCOUNT = 3
    for _ in range(3):
        admin_login(Client(), "wrong")
    assert login(Client(), "root", PASSWORD).status_code == 429


def test_a_strangers_failures_from_other_addresses_leave_the_owner_in(alice, settings):
    settings.LOGIN_FAILURE_LIMIT_ACCOUNT = 5
    for _ in range(20):
        login(Client(), "alice", "wrong", address="203.0.113.66")
    assert login(Client(), "alice", PASSWORD, address="198.51.100.7").status_code == 302


def test_guesses_from_many_addresses_lock_the_account_but_not_for_its_known_address(
    alice, settings
):
    settings.LOGIN_ACCOUNT_ADDRESS_LIMIT = 3
    assert login(Client(), "alice", PASSWORD, address="198.51.100.7").status_code == 302
    for host in range(1, 6):
        login(Client(), "alice", "wrong", address=f"203.0.113.{host}")
    assert login(Client(), "alice", PASSWORD, address="192.0.2.44").status_code == 429
    assert login(Client(), "alice", PASSWORD, address="198.51.100.7").status_code == 302


def test_a_success_does_not_count_toward_the_address_limit(alice, bob, settings):
    settings.LOGIN_FAILURE_LIMIT_ADDRESS = 2
    for _ in range(5):
        assert login(Client(), "alice", PASSWORD).status_code == 302
    assert login(Client(), "bob", "correct-horse-2").status_code == 302


def test_behind_a_trusted_proxy_each_client_has_its_own_count(alice, bob, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.LOGIN_FAILURE_LIMIT_ADDRESS = 3
    for name in ("carol", "dave", "erin"):
        login(Client(), name, "wrong", address="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5")
    via_proxy = {"address": "127.0.0.1"}
    stranger = login(Client(), "bob", "x", HTTP_X_FORWARDED_FOR="203.0.113.5", **via_proxy)
    assert stranger.status_code == 429
    other = login(
        Client(), "bob", "correct-horse-2", HTTP_X_FORWARDED_FOR="198.51.100.1", **via_proxy
    )
    assert other.status_code == 302


def test_a_rotating_forwarded_header_from_an_untrusted_peer_changes_nothing(alice, settings):
    settings.TRUSTED_PROXIES = []
    settings.LOGIN_FAILURE_LIMIT_ACCOUNT = 3
    for host in range(3):
        login(Client(), "alice", "wrong", HTTP_X_FORWARDED_FOR=f"198.51.100.{host}")
    assert login(Client(), "alice", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.1").status_code == 429


def api_get(token: str, address: str = "10.0.0.1"):
    return Client().get("/api/decks/", HTTP_AUTHORIZATION=f"Token {token}", REMOTE_ADDR=address)


def test_wrong_tokens_use_up_the_addresss_failed_logins(alice, settings):
    settings.LOGIN_FAILURE_LIMIT_ADDRESS = 3
    good = Token.objects.create(user=alice).key
    for _ in range(3):
        assert api_get("0" * 40).status_code == 401
    refused = api_get(good)
    assert refused.status_code == 429 and "Too many failed logins" in refused.json()["message"]
    assert api_get(good, address="10.0.0.2").status_code == 200
    assert login(Client(), "alice", PASSWORD).status_code == 429  # one count for every way in


def test_a_good_token_never_uses_up_the_limit(alice, settings):
    settings.LOGIN_FAILURE_LIMIT_ADDRESS = 2
    good = Token.objects.create(user=alice).key
    assert [api_get(good).status_code for _ in range(6)] == [200] * 6
