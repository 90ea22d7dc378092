"""Accounts: confusable user names are refused at sign-up; failed logins are throttled (more in
test_login_throttle.py)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from cardsite.accounts.forms import username_problem

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-1"


def signup(client, username):
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )


@pytest.mark.parametrize("username", ["\u0430lice", "\u0430\u0441\u0435", "\u0396eus", "ΡΑΧ"])
def test_a_homoglyph_user_name_is_refused_with_a_message(alice, username):
    response = signup(Client(), username)
    assert response.status_code == 400  # refused with its reason, as every form page
    assert "could pass for another" in response.content.decode()
    assert not get_user_model().objects.filter(username=username).exists()


@pytest.mark.parametrize("username", ["alice2", "Иван", "田中タロウ", "たなか", "bob_99"])
def test_names_in_one_script_are_fine(username):
    assert username_problem(username) is None


def test_a_full_width_twin_of_an_existing_name_is_refused(alice):
    response = signup(Client(), "ａｌｉｃｅ")
    assert "already exists" in response.content.decode()
    assert get_user_model().objects.filter(username__iexact="alice").count() == 1


def login(client, username, password, address="10.0.0.1"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_wrong_passwords_lock_the_account_from_that_address_even_for_the_right_one(alice, settings):
    settings.LOGIN_FAILURE_LIMIT_ACCOUNT = 5
    client = Client()
    for _ in range(5):
        assert login(client, "alice", "wrong").status_code == 400
    refused = login(client, "alice", PASSWORD)
    assert refused.status_code == 429 and "Too many failed logins" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_many_accounts_from_one_address_are_throttled_by_address(alice, bob, settings):
    settings.LOGIN_FAILURE_LIMIT_ADDRESS = 3
    client = Client()
    for name in ("carol", "dave", "erin"):
        login(client, name, "wrong")
    assert login(client, "bob", "correct-horse-2").status_code == 429
    assert login(client, "bob", "correct-horse-2", address="10.0.0.2").status_code == 302


def test_a_success_resets_the_account_counter(alice, settings):
    settings.LOGIN_FAILURE_LIMIT_ACCOUNT = 3
    for _ in range(2):
        login(Client(), "alice", "wrong")
    assert login(Client(), "alice", PASSWORD).status_code == 302
    for _ in range(2):
        login(Client(), "alice", "wrong")
    assert login(Client(), "alice", PASSWORD).status_code == 302


def test_a_cache_outage_leaves_login_working_unthrottled(alice, monkeypatch):
    from django.core.cache.backends.redis import RedisCache

    # Nothing listens on port 1: every cache call fails as in a Redis outage.
    monkeypatch.setattr("cardsite.accounts.throttle.cache", RedisCache("redis://127.0.0.1:1/0", {}))
    assert login(Client(), "alice", "wrong").status_code == 400
    assert login(Client(), "alice", PASSWORD).status_code == 302
