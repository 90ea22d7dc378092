"""Proposals and their review: permissions, the one check, limits, revisions, history."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from catalog.contributions.services import (
    ProposalError,
    proposal_accept,
    proposal_create,
    proposal_reject,
    proposal_request_changes,
    proposal_resubmit,
)
from catalog.models import Card, CardProposal, CardRevision, ProposalEdit

pytestmark = pytest.mark.django_db

REAL_12 = {
    "set": "BS",
    "number": "12",
    "name": "Real Striker",
    "name_ja": "本物 ストライカー",
    "kind": "player",
    "position": "FW",
    "team": "kashima",
    "shoot": "7",
    "keep": "2",
    "defense": "1",
    "rarity": "R",
}


def grant(user, *codenames):
    for codename in codenames:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    return get_user_model().objects.get(pk=user.pk)  # drop the permission cache


@pytest.fixture
def editor(db):
    user = get_user_model().objects.create_user("erin", "erin@example.com", "correct-horse-3")
    return grant(user, "review_proposal")


@pytest.fixture
def editor_client(editor):
    client = Client()
    client.force_login(editor)
    return client


def propose(user, **changes):
    return proposal_create(proposer=user, data={**REAL_12, **changes}, source="my own card")


def test_accepting_a_proposal_makes_the_sample_real_in_place_and_records_a_revision(alice, editor):
    proposal = propose(alice)
    proposal_accept(proposal=proposal, reviewer=editor)
    card = Card.objects.get(id="BS-012")
    assert (card.name, card.is_sample, card.shoot, card.source) == (
        "Real Striker",
        False,
        7,
        "my own card",
    )
    revision = CardRevision.objects.get(card=card)
    assert (revision.proposed_by, revision.accepted_by, revision.source) == (
        alice,
        editor,
        "my own card",
    )
    assert revision.data["name_ja"] == "本物 ストライカー" and revision.proposal == proposal
    proposal.refresh_from_db()
    assert proposal.status == "accepted" and proposal.reviewer == editor


def test_the_proposal_form_refuses_what_import_cards_refuses(alice_client):
    count = CardProposal.objects.count()
    response = alice_client.post(
        "/cards/propose/", {**REAL_12, "name": "N" * 101, "shoot": "100", "source": "x"}
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert "is 101 characters long (at most 100)" in text
    assert "100 is out of range (0–99)" in text
    assert CardProposal.objects.count() == count


def test_anonymous_cannot_propose(anon_client):
    response = anon_client.post("/cards/propose/", {**REAL_12, "source": "x"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not CardProposal.objects.exists()


def test_a_signed_in_user_proposes_through_the_form(alice_client, alice):
    response = alice_client.post("/cards/propose/", {**REAL_12, "source": "starter booklet"})
    assert response.status_code == 302
    proposal = CardProposal.objects.get()
    assert (proposal.proposer, proposal.card_id, proposal.status) == (alice, "BS-012", "pending")
    assert Card.objects.get(id="BS-012").is_sample  # nothing applied before review


def test_only_editors_see_the_review_queue(alice_client, editor_client, alice):
    propose(alice)
    assert alice_client.get("/review/").status_code == 403
    response = editor_client.get("/review/")
    assert response.status_code == 200 and "BS-012" in response.content.decode()


def test_a_user_who_is_not_an_editor_cannot_review(alice, bob, bob_client):
    proposal = propose(alice)
    with pytest.raises(ProposalError, match="Only editors"):
        proposal_accept(proposal=proposal, reviewer=bob)
    assert bob_client.get(proposal.get_absolute_url()).status_code == 404
    response = bob_client.post(f"/proposals/{proposal.pk}/review/", {"action": "accept"})
    assert response.status_code in (403, 404)
    assert CardProposal.objects.get().status == "pending"


def test_staff_are_editors(alice, bob):
    bob.is_staff = True
    bob.save()
    proposal_accept(proposal=propose(alice), reviewer=bob)
    assert not Card.objects.get(id="BS-012").is_sample


def test_an_editor_cannot_accept_their_own_proposal(editor):
    proposal = propose(editor)
    with pytest.raises(ProposalError, match="cannot accept your own"):
        proposal_accept(proposal=proposal, reviewer=editor)
    assert Card.objects.get(id="BS-012").is_sample


def test_a_trusted_editor_applies_their_own_proposal_at_once_and_it_is_recorded(editor):
    trusted = grant(editor, "apply_own_proposal")
    proposal = proposal_create(proposer=trusted, data=REAL_12, source="my own card", apply_now=True)
    assert proposal.status == "accepted"
    revision = CardRevision.objects.get(card_id="BS-012")
    assert revision.proposed_by == revision.accepted_by == trusted


def test_rejecting_needs_a_reason_and_the_proposer_sees_it_on_their_profile(
    alice, alice_client, editor
):
    proposal = propose(alice)
    with pytest.raises(ProposalError, match="reason"):
        proposal_reject(proposal=proposal, reviewer=editor, reason="  ")
    proposal_reject(proposal=proposal, reviewer=editor, reason="The scan shows shoot 6, not 7.")
    assert Card.objects.get(id="BS-012").is_sample
    page = alice_client.get("/users/alice/").content.decode()
    assert "The scan shows shoot 6, not 7." in page and "Rejected" in page


def test_asking_for_changes_lets_the_proposer_send_again(alice, alice_client, editor):
    proposal = propose(alice, shoot="6")
    proposal_request_changes(proposal=proposal, reviewer=editor, reason="Check the shoot value.")
    response = alice_client.post(
        f"/proposals/{proposal.pk}/edit/", {**REAL_12, "source": "my own card, again"}
    )
    assert response.status_code == 302
    proposal.refresh_from_db()
    assert (proposal.status, proposal.data["shoot"]) == ("pending", "7")


def test_a_second_proposal_for_the_same_number_is_shown_beside_the_first(alice, bob, editor_client):
    first = propose(alice)
    propose(bob, name="Other Striker")
    page = editor_client.get(first.get_absolute_url()).content.decode()
    assert "Other pending proposals for this number" in page and "Other Striker" in page


def test_the_review_page_shows_the_field_difference(alice, editor_client):
    proposal = propose(alice)
    page = editor_client.get(proposal.get_absolute_url()).content.decode()
    sample = Card.objects.get(id="BS-012")
    assert 'id="review-diff"' in page and sample.name in page and "Real Striker" in page


def test_the_daily_limit_is_enforced(alice, settings):
    settings.PROPOSALS_PER_DAY = 2
    propose(alice)
    propose(alice, number="13")
    with pytest.raises(ProposalError, match="2 proposals a day"):
        propose(alice, number="14")
    assert CardProposal.objects.filter(proposer=alice).count() == 2


def edit(user, proposal, **changes):
    return proposal_resubmit(
        proposal=proposal, user=user, data={**REAL_12, **changes}, source="my own card"
    )


def test_edits_count_against_the_daily_limit_as_new_proposals_do(alice, settings):
    settings.PROPOSALS_PER_DAY = 3
    proposal = propose(alice)
    edit(alice, proposal, shoot="8")
    edit(alice, proposal, shoot="9")
    with pytest.raises(ProposalError, match="You can send or edit 3 proposals a day"):
        edit(alice, proposal, shoot="5")
    with pytest.raises(ProposalError, match="3 proposals a day"):
        propose(alice, number="13")
    proposal.refresh_from_db()
    assert proposal.data["shoot"] == "9"  # the refused edit changed nothing
    assert ProposalEdit.objects.filter(proposal=proposal).count() == 2
    assert CardProposal.objects.filter(proposer=alice).count() == 1


def test_answering_changes_requested_is_an_edit_too(alice, editor, settings):
    settings.PROPOSALS_PER_DAY = 2
    proposal = propose(alice, shoot="5")
    proposal_request_changes(proposal=proposal, reviewer=editor, reason="Check the shoot value.")
    edit(alice, proposal, shoot="6")
    proposal_request_changes(proposal=proposal, reviewer=editor, reason="Check it again.")
    with pytest.raises(ProposalError, match="2 proposals a day"):
        edit(alice, proposal)
    proposal.refresh_from_db()
    assert (proposal.status, proposal.data["shoot"]) == ("changes", "6")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "You can send or edit 2 proposals a day (each edit counts as one)"),
        ("ja", "提案の送信と編集は1日に2件までです"),
    ],
)
def test_the_edit_form_past_the_limit_is_a_400_naming_the_limit(
    alice, alice_client, settings, language, words
):
    settings.PROPOSALS_PER_DAY = 2
    proposal = edit(alice, propose(alice, shoot="5"), shoot="6")
    alice_client.cookies["django_language"] = language
    response = alice_client.post(
        f"/proposals/{proposal.pk}/edit/", {**REAL_12, "source": "my own card, again"}
    )
    assert response.status_code == 400
    assert words in response.content.decode()
    proposal.refresh_from_db()
    assert proposal.data["shoot"] == "6" and ProposalEdit.objects.count() == 1


def test_an_edit_of_a_proposal_accepted_meanwhile_is_refused(alice, editor):
    proposal = propose(alice)
    shown = CardProposal.objects.get(pk=proposal.pk)  # the edit page, opened before the review
    proposal_accept(proposal=proposal, reviewer=editor)
    with pytest.raises(ProposalError, match="reviewed already"):
        edit(alice, shown, shoot="9")
    proposal.refresh_from_db()
    assert (proposal.status, proposal.data["shoot"]) == ("accepted", "7")
    assert not ProposalEdit.objects.exists()


def test_card_page_shows_history_and_two_revisions_compare(alice, editor, client):
    proposal_accept(proposal=propose(alice), reviewer=editor)
    proposal_accept(proposal=propose(alice, shoot="8"), reviewer=editor)
    page = client.get("/cards/BS-012/").content.decode()
    assert "r1" in page and "r2" in page and "my own card" in page
    compare = client.get("/cards/BS-012/history/?a=1&b=2").content.decode()
    assert "r1 → r2" in compare.replace("&rarr;", "→")


def test_history_api_lists_revisions(alice, editor, client):
    proposal_accept(proposal=propose(alice), reviewer=editor)
    data = client.get("/api/cards/bs-012/history/").json()
    assert data[0]["number"] == 1 and data[0]["proposed_by"] == "alice"
    assert data[0]["accepted_by"] == "erin" and data[0]["card"]["name"] == "Real Striker"
    assert "/api/cards/{id}/history/" in client.get("/api/schema/").content.decode()


def test_set_page_checklist_counts_real_pending_and_sample(alice, editor, client):
    proposal_accept(proposal=propose(alice), reviewer=editor)
    propose(alice, number="13")
    page = client.get("/sets/BS/").content.decode()
    assert "Basic Set: 1 of 239 real cards" in page
    assert "/cards/propose/?set=BS&amp;number=14" in page
    home = client.get("/").content.decode()
    assert "Basic Set: 1 of 239 real cards" in home


def test_is_pending_finds_the_cards_with_a_proposal_waiting(alice, editor, client):
    from catalog.search.selectors import card_search

    client.get("/api/cards/?q=is:pending")  # cached while empty
    propose(alice)
    assert list(card_search(query="is:pending").values_list("id", flat=True)) == ["BS-012"]
    assert "BS-012" not in card_search(query="-is:pending").values_list("id", flat=True)
    api = client.get("/api/cards/?q=is:pending").json()
    assert [c["id"] for c in api["results"]] == ["BS-012"]
    proposal_accept(proposal=CardProposal.objects.get(), reviewer=editor)
    assert not card_search(query="is:pending").exists()
    assert "BS-012" in card_search(query="-is:sample").values_list("id", flat=True)
    assert "BS-012" not in card_search(query="is:sample").values_list("id", flat=True)


@pytest.mark.django_db(transaction=True)
def test_the_daily_limit_holds_under_concurrent_proposals(settings):
    """Eight requests at once for a user with two left: exactly two are saved (PostgreSQL)."""
    import threading

    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every write anyway)")
    settings.PROPOSALS_PER_DAY = 2
    from catalog.services import catalog_load

    catalog_load()
    user = get_user_model().objects.create_user("carol", "carol@example.com", "correct-horse-4")
    barrier = threading.Barrier(8)
    outcomes = []

    def send(number):
        try:
            barrier.wait()
            propose(user, number=str(number))
            outcomes.append("saved")
        except ProposalError:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(20 + i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 6 + ["saved"] * 2
    assert CardProposal.objects.filter(proposer=user).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_daily_limit_holds_under_concurrent_edits_and_proposals(settings):
    """Eight requests at once, edits of two proposals and new proposals, for a user with two
    left: exactly two go through, whichever they are (PostgreSQL)."""
    import threading

    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite serialises every write anyway)")
    settings.PROPOSALS_PER_DAY = 4
    from catalog.services import catalog_load

    catalog_load()
    user = get_user_model().objects.create_user("carol", "carol@example.com", "correct-horse-4")
    first, second = propose(user), propose(user, number="13")
    barrier = threading.Barrier(8)
    outcomes = []

    def send(index):
        try:
            barrier.wait()
            if index < 3:
                edit(user, first, shoot=str(index))
            elif index < 6:
                edit(user, second, number="13", shoot=str(index))
            else:
                propose(user, number=str(20 + index))
            outcomes.append("saved")
        except ProposalError:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 6 + ["saved"] * 2
    edits = ProposalEdit.objects.filter(editor=user).count()
    assert CardProposal.objects.filter(proposer=user).count() + edits == 4


def test_members_of_the_card_editors_group_are_editors(alice, bob):
    from django.contrib.auth.models import Group

    from catalog.contributions.services import is_editor, is_trusted

    Group.objects.get(name="Card editors").user_set.add(bob)
    bob = get_user_model().objects.get(pk=bob.pk)
    assert is_editor(bob) and not is_trusted(bob)
    proposal_accept(proposal=propose(alice), reviewer=bob)
    assert not Card.objects.get(id="BS-012").is_sample


def test_the_queue_marks_numbers_with_several_pending_proposals(alice, bob, editor_client):
    propose(alice)
    propose(bob, name="Other Striker")
    propose(bob, number="13")
    page = editor_client.get("/review/").content.decode()
    assert page.count("×2") == 2 and "×1" not in page


def test_editors_find_the_review_queue_in_the_menu(alice_client, editor_client):
    assert 'href="/review/"' in editor_client.get("/").content.decode()
    assert 'href="/review/"' not in alice_client.get("/").content.decode()


def _diff_rows(page: str, table: str) -> dict[str, tuple[str, str]]:
    """Return {row label: (before, after)} of a difference table of a page."""
    import re

    body = page.split(table)[1].split("</table>")[0]
    rows = re.findall(
        r'data-field="(\w+)"><th scope="row">([^<]*)</th><td class="before">([^<]*)</td>'
        r'<td class="after">([^<]*)</td>',
        body,
    )
    return {field: (label, before, after) for field, label, before, after in rows}


def test_the_review_difference_and_revision_compare_speak_japanese(alice, editor, editor_client):
    from catalog.models import Team

    sample = Card.objects.get(id="BS-012")
    proposal = propose(alice)
    editor_client.cookies["django_language"] = "ja"
    page = editor_client.get(proposal.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ja")
    rows = _diff_rows(page.content.decode(), 'id="review-diff"')
    kashima = Team.objects.get(code="kashima")
    assert rows["shoot"][0] == "シュート" and rows["kind"][0] == "種類"
    assert rows["kind"][2] == "フィールドプレーヤー" and rows["team"][2] == kashima.name_ja
    assert rows["name"][1:] == (sample.name, "Real Striker")
    labels = " ".join(label for label, _, _ in rows.values())
    assert not any(raw in labels for raw in ("name_ja", "defense", "rarity", "player"))

    proposal_accept(proposal=proposal, reviewer=editor)
    proposal_accept(proposal=propose(alice, shoot="8", team=""), reviewer=editor)
    compare = editor_client.get("/cards/BS-012/history/?a=1&b=2", HTTP_ACCEPT_LANGUAGE="ja")
    rows = _diff_rows(compare.content.decode(), 'class="diff"')
    assert rows["shoot"] == ("シュート", "7", "8") and rows["team"] == (
        "チーム",
        kashima.name_ja,
        "—",
    )
    editor_client.cookies["django_language"] = "en"
    english = _diff_rows(
        editor_client.get("/cards/BS-012/history/?a=1&b=2").content.decode(), 'class="diff"'
    )
    assert english["team"] == ("Team", kashima.name, "—") and english["kind"][2] == "player"


def test_a_review_of_a_version_edited_since_is_refused_and_shows_what_changed(alice, editor_client):
    proposal = propose(alice)
    page = editor_client.get(proposal.get_absolute_url()).content.decode()
    assert 'name="version" value="1"' in page  # the version the editor saw
    edit(alice, proposal, name="Edited Striker", shoot="9")  # meanwhile, by the proposer
    url = f"/proposals/{proposal.pk}/review/"
    stale = editor_client.post(url, {"action": "accept", "version": "1"})
    assert stale.status_code == 409
    body = stale.content.decode()
    assert "changed since you opened it (version 1 → 2)" in body
    changed = _diff_rows(body, 'id="changed-diff"')
    assert changed["name"][1:] == ("Real Striker", "Edited Striker")
    assert changed["shoot"][1:] == ("7", "9") and "kind" not in changed
    assert 'name="version" value="2"' in body  # the form now names what is shown
    assert Card.objects.get(id="BS-012").is_sample  # nothing applied
    proposal.refresh_from_db()
    assert proposal.status == "pending" and proposal.version == 2

    refused = editor_client.post(url, {"action": "reject", "reason": "blurry", "version": "1"})
    assert refused.status_code == 409 and ">blurry</textarea>" in refused.content.decode()
    assert CardProposal.objects.get(pk=proposal.pk).status == "pending"

    accepted = editor_client.post(url, {"action": "accept", "version": "2"})
    assert accepted.status_code == 302
    assert Card.objects.get(id="BS-012").name == "Edited Striker"


def test_a_review_must_name_the_version_it_saw(alice, editor_client):
    proposal = propose(alice)
    url = f"/proposals/{proposal.pk}/review/"
    for bad in ({}, {"version": ""}, {"version": "0"}, {"version": "²"}, {"version": "9" * 40}):
        answer = editor_client.post(url, {"action": "accept", **bad})
        assert answer.status_code == 400, bad
        assert "version" in answer.content.decode()
    assert CardProposal.objects.get(pk=proposal.pk).status == "pending"


def test_the_services_refuse_a_stale_review_under_the_lock(alice, editor):
    from catalog.contributions.services import ProposalChanged

    proposal = propose(alice)
    edit(alice, proposal, name="Edited Striker")
    for review in (
        lambda: proposal_accept(proposal=proposal, reviewer=editor, seen_version=1),
        lambda: proposal_reject(proposal=proposal, reviewer=editor, reason="x", seen_version=1),
        lambda: proposal_request_changes(
            proposal=proposal, reviewer=editor, reason="x", seen_version=1
        ),
    ):
        with pytest.raises(ProposalChanged):
            review()
    proposal.refresh_from_db()
    assert proposal.status == "pending" and proposal.edits.get().previous["data"]["name"] == (
        "Real Striker"
    )
