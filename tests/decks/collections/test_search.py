"""The collection search terms decks registers in the catalog's parser: `is:owned`,
`-is:owned`, `owned>=2` (and friends), for the signed-in user only."""

import pytest
from django.contrib.auth.models import AnonymousUser

from catalog.extensions import user_search_terms
from catalog.search.query import QuerySyntaxError
from catalog.search.selectors import card_search
from decks.collections.services import collection_entry_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def owned(alice):
    collection_entry_set(owner=alice, card_id="BS-001", quantity=1)
    collection_entry_set(owner=alice, card_id="BS-002", quantity=2)
    collection_entry_set(owner=alice, card_id="BS-002", quantity=1, language="ja")
    return alice


def ids(query, user):
    return set(card_search(query=f"set:BS {query}", user=user).values_list("id", flat=True))


def test_decks_registers_the_owned_term_in_the_catalog():
    assert "owned" in user_search_terms


def test_is_owned_finds_the_cards_the_user_owns(owned):
    assert ids("is:owned", owned) == {"BS-001", "BS-002"}


def test_minus_is_owned_finds_every_other_card(owned, bob):
    others = ids("-is:owned", owned)
    assert "BS-001" not in others and "BS-003" in others
    assert len(others) == len(ids("", owned)) - 2
    assert ids("not:owned", owned) == others


def test_owned_compares_copies_over_every_variant(owned):
    assert ids("owned>=2", owned) == {"BS-002"}
    assert ids("owned=3", owned) == {"BS-002"}
    assert ids("owned>3", owned) == set()
    assert "BS-003" in ids("owned<1", owned) and "BS-001" in ids("owned<2", owned)
    assert "BS-002" not in ids("owned<2", owned)


def test_each_user_sees_their_own_collection(owned, bob):
    collection_entry_set(owner=bob, card_id="BS-005", quantity=1)
    assert ids("is:owned", bob) == {"BS-005"}


def test_anonymous_users_own_nothing(owned):
    assert ids("is:owned", AnonymousUser()) == set()
    assert ids("is:owned", None) == set()
    assert len(ids("-is:owned", AnonymousUser())) == len(ids("", None))


def test_owned_needs_a_number():
    with pytest.raises(QuerySyntaxError, match="needs a number"):
        card_search(query="owned>=many")


def test_the_search_page_and_api_answer_for_the_signed_in_user(owned, alice_client, bob_client):
    page = alice_client.get("/cards/", {"q": "set:BS is:owned"})
    assert page.status_code == 200 and b"BS-001" in page.content
    api = alice_client.get("/api/cards/", {"q": "set:BS is:owned"}).json()
    assert {c["id"] for c in api["results"]} == {"BS-001", "BS-002"}
    # Not answered from the first user's cached response.
    other = bob_client.get("/api/cards/", {"q": "set:BS is:owned"}).json()
    assert other["results"] == []


@pytest.mark.parametrize(
    ("query", "english", "japanese"),
    [
        ("is:owned", "in your collection", "コレクションにある"),
        ("-is:owned", "not in your collection", "コレクションにない"),
        ("not:owned", "not in your collection", "コレクションにない"),
        ("owned>=2", "copies owned ≥ 2", "所持枚数 ≥ 2"),
        ("-owned>=2", "copies owned < 2", "所持枚数 < 2"),
        ("owned=0", "copies owned = 0", "所持枚数 = 0"),
    ],
)
def test_the_owned_terms_describe_themselves_in_the_readers_language(
    alice, query, english, japanese
):
    from django.utils import translation

    from catalog.search.query import parse_query

    parsed = parse_query(query, user=alice)
    assert parsed.description == english
    with translation.override("ja"):
        assert parse_query(query, user=alice).description == japanese
        # A query parsed in English is described in the language of whoever reads it.
        if query.endswith("is:owned") or query.startswith("not:"):
            assert parsed.description == japanese


def test_a_misspelt_is_value_suggests_owned():
    with pytest.raises(QuerySyntaxError, match=r'did you mean "owned"\? known: .*, owned\)'):
        card_search(query="is:ownd")


def test_the_search_page_help_lists_the_owned_terms_for_signed_in_users(alice_client, anon_client):
    html = alice_client.get("/cards/").content.decode()
    assert "<code>is:owned</code> <code>owned&gt;=2</code> <code>-is:owned</code>" in html
    assert "by copies owned" in html
    assert "is:owned" not in anon_client.get("/cards/").content.decode()
    alice_client.cookies["django_language"] = "ja"
    html = alice_client.get("/cards/").content.decode()
    assert "<code>is:owned</code>" in html and "所持枚数（すべての種類の合計）" in html
