"""Contributed printings (issue #24 item 4): a signed-in user proposes a printing of a card with
its source from the card page; every bad field is named (English and Japanese) and nothing is
saved; an editor (not the proposer) accepts it, which makes the printing after checking it
again, or rejects it with a reason; others get 403."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from catalog.contributions.printings import (
    PrintingProposalError,
    printing_proposal_accept,
    printing_proposal_create,
    printing_proposal_reject,
)
from catalog.models import Printing, PrintingProposal
from catalog.search.selectors import card_search

pytestmark = pytest.mark.django_db

GOOD = {
    "set": "CD00",
    "number": "99",
    "kind": "promo",
    "label": "Shop promo",
    "source": "my binder",
}


@pytest.fixture
def editor(db):
    user = get_user_model().objects.create_user("erin", "erin@example.com", "correct-horse-3")
    user.user_permissions.add(Permission.objects.get(codename="review_proposal"))
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def editor_client(editor):
    client = Client()
    client.force_login(editor)
    return client


def test_a_bad_proposal_names_every_field_and_saves_nothing(alice):
    bad = {"set": "ZZZZ", "number": "0", "kind": "first", "label": "x" * 101, "source": ""}
    with pytest.raises(PrintingProposalError) as caught:
        printing_proposal_create(proposer=alice, card_id="BS-001", data=bad)
    assert set(caught.value.problems) == {"set", "number", "kind", "label", "source"}
    with pytest.raises(PrintingProposalError) as caught:  # the printing's own checks
        printing_proposal_create(
            proposer=alice, card_id="BS-001", data={**GOOD, "set": "BS", "number": "2"}
        )
    assert set(caught.value.problems) == {"number"}  # BS-002 is another card's number
    assert not PrintingProposal.objects.exists()


def test_an_accepted_proposal_makes_the_printing_and_search_finds_it(alice, editor):
    proposal = printing_proposal_create(proposer=alice, card_id="bs-001", data=GOOD)
    assert (proposal.code, proposal.status) == ("CD00-099", "pending")
    assert "BS-001" not in set(card_search(query="is:promo").values_list("id", flat=True))
    with pytest.raises(PrintingProposalError):  # a proposer cannot accept their own
        printing_proposal_accept(proposal_id=proposal.pk, reviewer=alice)
    printing = printing_proposal_accept(proposal_id=proposal.pk, reviewer=editor)
    assert (printing.code, printing.card_id, printing.kind, printing.label) == (
        "CD00-099",
        "BS-001",
        "promo",
        "Shop promo",
    )
    assert printing.is_sample is True  # BS-001 is a sample card
    proposal.refresh_from_db()
    assert (proposal.status, proposal.printing, proposal.reviewer) == ("accepted", printing, editor)
    assert "BS-001" in set(card_search(query="is:promo").values_list("id", flat=True))


def test_a_proposal_is_checked_again_on_accept(alice, bob, editor):
    first = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    second = printing_proposal_create(proposer=bob, card_id="BS-001", data=GOOD)
    printing_proposal_accept(proposal_id=first.pk, reviewer=editor)
    with pytest.raises(PrintingProposalError) as caught:
        printing_proposal_accept(proposal_id=second.pk, reviewer=editor)
    assert set(caught.value.problems) == {"number"}
    second.refresh_from_db()
    assert second.status == "pending"
    assert Printing.objects.filter(code="CD00-099").count() == 1


def test_a_rejection_needs_a_reason(alice, editor):
    proposal = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    with pytest.raises(PrintingProposalError) as caught:
        printing_proposal_reject(proposal_id=proposal.pk, reviewer=editor, reason=" ")
    assert set(caught.value.problems) == {"reason"}
    printing_proposal_reject(proposal_id=proposal.pk, reviewer=editor, reason="No such promo.")
    proposal.refresh_from_db()
    assert (proposal.status, proposal.reason) == ("rejected", "No such promo.")
    assert not Printing.objects.filter(code="CD00-099").exists()


def test_the_card_page_proposes_and_an_editor_reviews_there(alice_client, editor_client, alice):
    page = alice_client.post("/cards/BS-001/printings/propose/", GOOD, follow=True)
    html = page.content.decode()
    assert "Your printing is sent for review." in html
    assert "<code>CD00-099</code></a> Promo · Shop promo" in html
    proposal = PrintingProposal.objects.get()
    assert 'name="action" value="accept"' not in html  # not the proposer's to review
    review = f"/printing-proposals/{proposal.pk}/review/"
    accept = {"action": "accept", "version": "1"}
    assert alice_client.post(review, accept).status_code == 403
    html = editor_client.get("/cards/BS-001/").content.decode()
    assert 'name="action" value="accept"' in html and 'name="version" value="1"' in html
    page = editor_client.post(review, accept, follow=True)
    assert "Printing CD00-099 added." in page.content.decode()
    assert 'data-printing="CD00-099"' in page.content.decode()


def test_bad_fields_are_named_on_the_page_in_japanese(alice_client):
    alice_client.cookies["django_language"] = "ja"
    bad = {**GOOD, "number": "1000", "kind": "shiny", "source": ""}
    html = alice_client.post("/cards/BS-001/printings/propose/", bad, follow=True)
    html = html.content.decode()
    assert "何も送信していません。" in html
    assert "セット内の番号：1〜999 の整数で指定してください。" in html
    assert "種類：" in html and "必須です。" in html
    assert not PrintingProposal.objects.exists()


def test_anonymous_users_cannot_propose(anon_client):
    response = anon_client.post("/cards/BS-001/printings/propose/", GOOD)
    assert response.status_code == 302 and "/login" in response["Location"]
    assert not PrintingProposal.objects.exists()


def test_the_review_queue_lists_proposed_printings(alice, editor_client):
    printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    html = editor_client.get("/review/").content.decode()
    assert 'id="printing-queue"' in html and "<code>CD00-099</code></a> Promo" in html
    assert 'href="/cards/BS-001/#printing-proposals"' in html
