"""Printing proposals reviewed as card proposals are: "changes requested", edit and resend by
the proposer, a review that names the version it saw (a stale one is refused with 409 and
shows what changed), edits counted against the daily limit, and a visible history."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from catalog.contributions.printings import (
    PrintingProposalError,
    printing_proposal_accept,
    printing_proposal_create,
    printing_proposal_refuse,
    printing_proposal_resubmit,
)
from catalog.contributions.services import ProposalChanged
from catalog.models import Printing, PrintingProposal, PrintingProposalEdit

pytestmark = pytest.mark.django_db

GOOD = {"set": "CD00", "number": "99", "kind": "promo", "label": "Shop promo", "source": "binder"}
CHANGES = PrintingProposal.Status.CHANGES_REQUESTED


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


def test_changes_requested_then_edited_and_accepted_at_the_new_version(alice, editor):
    proposal = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    assert proposal.version == 1 and proposal.note == ""
    printing_proposal_refuse(
        proposal_id=proposal.pk, reviewer=editor, reason="Which shop?", status=CHANGES
    )
    proposal.refresh_from_db()
    assert (proposal.status, proposal.reason, proposal.reviewer) == (
        "changes",
        "Which shop?",
        editor,
    )
    with pytest.raises(PrintingProposalError):  # not pending: nothing to accept
        printing_proposal_accept(proposal_id=proposal.pk, reviewer=editor)
    edited = printing_proposal_resubmit(
        proposal_id=proposal.pk,
        user=alice,
        data={**GOOD, "label": "Tokyo shop promo", "note": "The Tokyo shop, 2002."},
    )
    assert (edited.status, edited.version, edited.label) == ("pending", 2, "Tokyo shop promo")
    assert (edited.reason, edited.reviewer) == ("", None)  # the answered review is history now
    [edit] = PrintingProposalEdit.objects.filter(proposal=proposal)
    assert edit.previous["status"] == "changes" and edit.previous["reason"] == "Which shop?"
    assert edit.previous["fields"]["label"] == "Shop promo"
    with pytest.raises(ProposalChanged):  # the editor saw version 1
        printing_proposal_accept(proposal_id=proposal.pk, reviewer=editor, seen_version=1)
    assert not Printing.objects.filter(code="CD00-099").exists()
    printing = printing_proposal_accept(proposal_id=proposal.pk, reviewer=editor, seen_version=2)
    assert printing.label == "Tokyo shop promo"


def test_only_the_proposer_edits_only_while_it_is_open_and_bad_edits_save_nothing(
    alice, bob, editor
):
    proposal = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    with pytest.raises(PrintingProposalError):
        printing_proposal_resubmit(proposal_id=proposal.pk, user=bob, data=GOOD)
    with pytest.raises(PrintingProposalError) as caught:
        printing_proposal_resubmit(
            proposal_id=proposal.pk,
            user=alice,
            data={**GOOD, "number": "5000", "kind": "first", "source": "", "note": "a\x00b"},
        )
    assert set(caught.value.problems) == {"number", "kind", "source", "note"}
    with pytest.raises(PrintingProposalError) as caught:
        printing_proposal_resubmit(
            proposal_id=proposal.pk, user=alice, data={**GOOD, "number": "9" * 5000}
        )
    assert set(caught.value.problems) == {"number"}
    proposal.refresh_from_db()
    assert (proposal.version, proposal.number) == (1, 99)
    assert not PrintingProposalEdit.objects.exists()
    printing_proposal_refuse(
        proposal_id=proposal.pk, reviewer=editor, reason="Not a promo.", status="rejected"
    )
    with pytest.raises(PrintingProposalError):
        printing_proposal_resubmit(proposal_id=proposal.pk, user=alice, data=GOOD)


def test_a_refusal_needs_a_known_status_and_a_reason(alice, editor):
    proposal = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    for status, reason in (("accepted", "x"), (CHANGES, "  ")):
        with pytest.raises(PrintingProposalError):
            printing_proposal_refuse(
                proposal_id=proposal.pk, reviewer=editor, reason=reason, status=status
            )
    proposal.refresh_from_db()
    assert proposal.status == "pending"


def test_edits_count_against_the_daily_limit_as_new_proposals_do(alice, settings):
    settings.PROPOSALS_PER_DAY = 2
    proposal = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    printing_proposal_resubmit(proposal_id=proposal.pk, user=alice, data={**GOOD, "label": "b"})
    with pytest.raises(PrintingProposalError) as caught:
        printing_proposal_resubmit(proposal_id=proposal.pk, user=alice, data={**GOOD, "label": "c"})
    assert "2 proposals a day" in " ".join(caught.value.messages)
    proposal.refresh_from_db()
    assert (proposal.version, proposal.label) == (2, "b")


def test_a_stale_review_on_the_page_is_409_and_shows_what_changed(alice, editor_client):
    proposal = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    page = editor_client.get(proposal.get_absolute_url()).content.decode()
    assert 'name="version" value="1"' in page and 'id="review-form"' in page
    printing_proposal_resubmit(
        proposal_id=proposal.pk, user=alice, data={**GOOD, "number": "98", "source": "receipt"}
    )
    answer = editor_client.post(
        f"/printing-proposals/{proposal.pk}/review/", {"action": "accept", "version": "1"}
    )
    html = answer.content.decode()
    assert answer.status_code == 409 and 'id="changed-since"' in html
    assert 'data-field="number"' in html and "receipt" in html
    assert not Printing.objects.filter(card_id="BS-001", kind="promo").exists()
    answer = editor_client.post(
        f"/printing-proposals/{proposal.pk}/review/", {"action": "changes", "version": "2"}
    )
    assert answer.status_code == 400  # a request for changes needs a reason
    assert PrintingProposal.objects.get().status == "pending"
    answer = editor_client.post(
        f"/printing-proposals/{proposal.pk}/review/",
        {"action": "changes", "version": "2", "reason": "A photo, please."},
    )
    assert answer.status_code == 302
    assert PrintingProposal.objects.get().status == "changes"


def test_the_proposer_edits_on_the_page_and_the_history_says_who_did_what(
    alice, alice_client, editor, anon_client, bob
):
    proposal = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    printing_proposal_refuse(
        proposal_id=proposal.pk, reviewer=editor, reason="Which shop?", status=CHANGES
    )
    profile = alice_client.get("/users/alice/").content.decode()
    assert 'id="my-printings"' in profile and proposal.get_absolute_url() in profile
    assert "Which shop?" in profile
    others = Client()
    others.force_login(bob)
    assert 'id="my-printings"' not in others.get("/users/alice/").content.decode()
    card_page = alice_client.get("/cards/BS-001/").content.decode()
    assert "Which shop?" in card_page and f"/printing-proposals/{proposal.pk}/edit/" in card_page
    edit = f"/printing-proposals/{proposal.pk}/edit/"
    form = alice_client.get(edit).content.decode()
    assert 'value="Shop promo"' in form and "Which shop?" in form
    bad = alice_client.post(edit, {**GOOD, "label": "x" * 101})
    said = bad.content.decode()
    assert bad.status_code == 400 and "data-error-summary" in said
    assert '<a href="#printing-label">Label</a>: is 101 characters long' in said
    assert 'id="printing-label" aria-invalid="true"' in said
    assert PrintingProposal.objects.get().version == 1
    done = alice_client.post(edit, {**GOOD, "label": "Tokyo"}, follow=True)
    html = done.content.decode()
    assert "Changed; your proposal is waiting for review again." in html
    printing_proposal_accept(proposal_id=proposal.pk, reviewer=editor, seen_version=2)
    html = anon_client.get(proposal.get_absolute_url()).content.decode()
    events = [
        line.split('data-event="')[1].split('"')[0]
        for line in html.split("<li")
        if 'data-event="' in line
    ]
    assert events == ["sent", "changes", "edited", "accepted"]
    assert "changes asked by erin (version 1)" in html and "edited by alice (version 2)" in html
    assert "accepted by erin (version 2)" in html and "Which shop?" in html
    assert 'id="review-form"' not in html and edit not in html
    assert Client().get(edit).status_code == 302  # sign in first
    other = Client()
    other.force_login(bob)
    assert other.get(edit).status_code == 404  # not bob's
    assert other.post(f"/printing-proposals/{proposal.pk}/review/", {}).status_code == 403


def test_the_pages_speak_japanese(alice, alice_client, editor_client):
    proposal = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    editor_client.cookies["django_language"] = "ja"
    html = editor_client.get(proposal.get_absolute_url()).content.decode()
    assert "BS-001 の刷り CD00-099 の提案" in html and "修正を依頼" in html
    assert "が送信" in html
    alice_client.cookies["django_language"] = "ja"
    form = alice_client.get(f"/printing-proposals/{proposal.pk}/edit/").content.decode()
    assert "BS-001 の刷りの提案を修正" in form and "編集者へのメモ（任意）" in form


def test_the_admin_shows_a_proposal_with_its_edits(alice, admin_client):
    proposal = printing_proposal_create(proposer=alice, card_id="BS-001", data=GOOD)
    printing_proposal_resubmit(proposal_id=proposal.pk, user=alice, data={**GOOD, "label": "b"})
    page = admin_client.get(f"/admin/catalog/printingproposal/{proposal.pk}/change/")
    html = page.content.decode()
    assert page.status_code == 200 and "Shop promo" in html  # the edit's `previous`
    listing = admin_client.get("/admin/catalog/printingproposal/").content.decode()
    assert "CD00" in listing
