"""`next` sends a user only to a path of this site (cardsite/web/redirects.py), on every page that
reads it: the collection's forms, the login pages, log-out and the language switch."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from cardsite.web.redirects import same_site_path

pytestmark = pytest.mark.django_db

ELSEWHERE = [
    "/\\evil.example",
    "//evil.example",
    "https://evil.example",
    "/\\/evil.example/",
    "///evil.example",
    "/\t/evil.example",
    "javascript:alert(1)",
    "/decks/\r\nSet-Cookie: x=1",
]


@pytest.mark.parametrize("target", ELSEWHERE)
def test_only_paths_of_this_site_pass(target):
    assert same_site_path(target) is None


@pytest.mark.parametrize("target", ["/decks/", "/collection/?set=BS#grid", "/cards/BS-001/"])
def test_paths_of_this_site_pass_unchanged(target):
    assert same_site_path(target) == target


def stays_here(response) -> bool:
    location = response.get("Location", "")
    return location.startswith("/") and not location.startswith("//") and "\\" not in location


@pytest.mark.parametrize("target", ELSEWHERE)
def test_the_collection_forms_never_send_a_user_elsewhere(target, alice_client):
    for path, data in (
        ("/collection/grid/", {"qty-BS-001": "1"}),
        ("/collection/cards/BS-001/", {"quantity": "1"}),
    ):
        response = alice_client.post(path, {**data, "next": target})
        assert response.status_code == 302 and stays_here(response), (path, response["Location"])


def test_the_collection_forms_go_back_to_a_path_of_this_site(alice_client):
    response = alice_client.post(
        "/collection/cards/BS-001/", {"quantity": "1", "next": "/cards/BS-001/#collection"}
    )
    assert response["Location"] == "/cards/BS-001/#collection"


@pytest.mark.parametrize("target", ELSEWHERE)
def test_logging_in_never_sends_a_user_elsewhere(target, alice):
    response = Client().post(
        "/accounts/login/", {"username": "alice", "password": "correct-horse-1", "next": target}
    )
    assert response.status_code == 302 and stays_here(response)


@pytest.mark.parametrize("target", ELSEWHERE)
def test_the_admin_login_never_sends_a_user_elsewhere(target):
    get_user_model().objects.create_user("root", password="correct-horse-9", is_staff=True)
    response = Client().post(
        "/admin/login/", {"username": "root", "password": "correct-horse-9", "next": target}
    )
    assert response.status_code == 302 and stays_here(response)


@pytest.mark.parametrize("target", ELSEWHERE)
def test_logging_out_and_switching_language_never_send_a_user_elsewhere(target, alice_client):
    response = alice_client.post("/accounts/logout/", {"next": target})
    assert response.status_code == 302 and stays_here(response)
    response = Client().post("/i18n/setlang/", {"language": "ja", "next": target})
    assert response.status_code == 302 and stays_here(response)
