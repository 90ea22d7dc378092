"""Changesets: many cards of one set proposed at once, reviewed card by card, applied at once,
all or nothing (issue #24 item 2, and the paste of item 1)."""

from unittest.mock import patch

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from catalog.contributions import changesets
from catalog.contributions.services import ProposalError, proposal_create
from catalog.models import Card, CardProposal, CardRevision, Changeset
from decks.content import DeckContent
from decks.services import deck_create
from tests.decks.conftest import ten_persons

pytestmark = pytest.mark.django_db

HEADER = "set\tnumber\tname\tname_ja\tkind\tposition\tshoot\tkeep\tdefense"


def tsv(*lines: str) -> str:
    return "\n".join([HEADER, *lines]) + "\n"


THREE = tsv(
    "BS\t12\tReal Twelve\t本物十二\tplayer\tFW\t7\t2\t1",
    "BS\t13\tReal Thirteen\t\tplayer\tMF\t5\t4\t3",
    "BS\t14\tReal Fourteen\t\tplayer\tDF\t1\t5\t8",
)


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


def send(client, rows: str, source="my binder", **extra):
    return client.post("/changesets/new/", {"rows": rows, "source": source, **extra})


def test_pasted_rows_become_one_changeset_of_the_cards_that_differ(alice_client):
    answer = send(alice_client, THREE)
    assert answer.status_code == 302
    changeset = Changeset.objects.get()
    assert answer["Location"] == changeset.get_absolute_url()
    assert changeset.card_set_id == "BS" and changeset.source == "my binder"
    proposals = list(changeset.proposals.order_by("number"))
    assert [p.card_id for p in proposals] == ["BS-012", "BS-013", "BS-014"]
    assert proposals[0].data["name_ja"] == "本物十二" and proposals[0].status == "pending"
    page = alice_client.get(changeset.get_absolute_url()).content.decode()
    assert "3 cards proposed in one changeset." in page and "Real Thirteen" in page
    assert 'id="changeset-review"' in page and 'name="action-' not in page  # no review for her


def test_comma_separated_rows_are_read_too(alice_client):
    rows = "set,number,name,kind,position\nBS,20,Comma Card,player,FW\n"
    assert send(alice_client, rows).status_code == 302
    assert Changeset.objects.get().proposals.get().card_id == "BS-020"


@pytest.mark.parametrize(
    ("rows", "named"),
    [
        (
            tsv("BS\t12\tGood\t\tplayer\tFW\t7\t2\t1", "BS\t13\tBad\t\tplayer\tMF\t500\t4\t3"),
            "line 3, shoot",
        ),
        (
            tsv("BS\t12\tA\t\tplayer\tFW\t1\t1\t1", "BS\t12\tB\t\tplayer\tFW\t1\t1\t1"),
            "given twice",
        ),
        (tsv("BS\t12\tA\t\tplayer\tFW\t1\t1\t1", "2ND\t12\tB\t\tplayer\tFW\t1\t1\t1"), "one set"),
        (tsv("BS\t9999999999999\tA\t\tplayer\tFW\t1\t1\t1"), "number"),
        ("name\tcolour\nA\tred\n", "unknown column"),
        ("", "nothing was pasted"),
        (HEADER + "\n", "no card rows"),
    ],
    ids=[
        "bad-stat",
        "twice",
        "two-sets",
        "huge-number",
        "unknown-column",
        "empty",
        "header-only",
    ],
)
def test_a_bad_row_saves_nothing_and_names_the_row_and_field(alice_client, rows, named):
    answer = send(alice_client, rows)
    assert answer.status_code == 400
    body = answer.content.decode()
    assert 'id="changeset-problems"' in body and named in body, body[body.find("problems") :][:600]
    assert not Changeset.objects.exists() and not CardProposal.objects.exists()


def test_a_nul_byte_is_refused_and_saves_nothing(alice, alice_client):
    answer = send(alice_client, tsv("BS\t12\tA\x00B\t\tplayer\tFW\t1\t1\t1"))
    assert answer.status_code == 400  # refused at the door (cardsite/web/request_edges.py)
    with pytest.raises(ProposalError, match="NUL"):  # and by the service itself
        changesets.rows_from_text(tsv("BS\t12\tA\x00B\t\tplayer\tFW\t1\t1\t1"))
    assert not Changeset.objects.exists() and not CardProposal.objects.exists()


def test_limits_hold_before_anything_is_saved(alice_client, settings):
    settings.CHANGESET_MAX_ROWS = 2
    assert "at most 2" in send(alice_client, THREE).content.decode()
    settings.CHANGESET_MAX_ROWS = 300
    settings.CHANGESET_MAX_BYTES = 100
    assert "at most 100" in send(alice_client, THREE).content.decode()
    settings.CHANGESET_MAX_BYTES = 300_000
    settings.CHANGESETS_PER_DAY = 1
    assert send(alice_client, THREE).status_code == 302
    refused = send(alice_client, tsv("BS\t30\tAnother\t\tplayer\tFW\t1\t1\t1"))
    assert refused.status_code == 400 and "1 changesets a day" in refused.content.decode()
    assert Changeset.objects.count() == 1
    assert send(alice_client, THREE, source="").status_code == 400  # the source is required


def test_rows_the_same_as_the_catalogue_are_left_out(alice, editor):
    first, _ = changesets.changeset_create(
        proposer=alice, rows=changesets.rows_from_text(THREE), source="binder"
    )
    decisions = {p.pk: changesets.Decision("accept") for p in first.proposals.all()}
    changesets.changeset_review(
        changeset=first, reviewer=editor, decisions=decisions, seen_version=1
    )
    again = THREE.replace("Real Fourteen", "Real Fourteen (fixed)")
    second, unchanged = changesets.changeset_create(
        proposer=alice, rows=changesets.rows_from_text(again), source="binder"
    )
    assert unchanged == 2 and [p.card_id for p in second.proposals.all()] == ["BS-014"]
    with pytest.raises(ProposalError, match="same as the catalogue"):
        changesets.changeset_create(
            proposer=alice, rows=changesets.rows_from_text(THREE), source="binder"
        )


def test_the_editor_accepts_some_and_rejects_others_in_one_transaction(
    alice, alice_client, editor_client
):
    keeper = Card.objects.filter(card_set_id="BS", kind="goalkeeper").order_by("number").first()
    legal_content = DeckContent(goalkeeper=keeper.id, deck={c.id: 6 for c in ten_persons()})
    held = sorted(legal_content.deck)[:2]
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    numbers = [int(card_id.split("-")[1]) for card_id in held]
    rows = tsv(
        *[f"BS\t{n}\tHeld {n}\t\tplayer\tFW\t7\t2\t1" for n in numbers],
        "BS\t200\tNot Held\t\tplayer\tFW\t7\t2\t1",
    )
    assert send(alice_client, rows).status_code == 302
    changeset = Changeset.objects.get()
    proposals = {p.card_id: p for p in changeset.proposals.all()}
    page = editor_client.get(changeset.get_absolute_url()).content.decode()
    assert page.count('value="accept" checked') == 3
    form = {"version": "1"}
    for card_id, proposal in proposals.items():
        form[f"action-{proposal.pk}"] = "reject" if card_id == "BS-200" else "accept"
    form[f"reason-{proposals['BS-200'].pk}"] = "blurry scan"
    answer = editor_client.post(f"/changesets/{changeset.pk}/review/", form)
    assert answer.status_code == 302
    changeset.refresh_from_db()
    assert changeset.status == "reviewed" and changeset.reviewer.username == "erin"
    for card_id in held:
        card = Card.objects.get(id=card_id)
        assert not card.is_sample and card.name.startswith("Held ")
        revision = CardRevision.objects.get(card=card)
        assert (revision.source, revision.proposed_by, revision.accepted_by.username) == (
            "my binder",
            alice,
            "erin",
        )
    assert Card.objects.get(id="BS-200").is_sample
    assert CardProposal.objects.get(card_id="BS-200").reason == "blurry scan"
    # One new deck version for the whole changeset, naming both changed cards.
    versions = deck.versions.filter(catalog_change=True)
    assert versions.count() == 1 and all(card_id in versions.get().summary for card_id in held)


def test_a_rejection_needs_a_reason_and_a_bad_review_applies_nothing(alice_client, editor_client):
    send(alice_client, THREE)
    changeset = Changeset.objects.get()
    ids = list(changeset.proposals.values_list("pk", flat=True))
    form = {"version": "1", **{f"action-{pk}": "accept" for pk in ids}}
    form[f"action-{ids[0]}"] = "reject"
    answer = editor_client.post(f"/changesets/{changeset.pk}/review/", form)
    assert answer.status_code == 400 and "give a reason to reject it" in answer.content.decode()
    missing = editor_client.post(f"/changesets/{changeset.pk}/review/", {"version": "1"})
    assert missing.status_code == 400 and "decide every card" in missing.content.decode()
    assert Card.objects.filter(id__in=["BS-012", "BS-013", "BS-014"], is_sample=True).count() == 3
    assert Changeset.objects.get().status == "pending"


def test_a_failure_while_applying_undoes_every_card(alice, editor):
    changeset, _ = changesets.changeset_create(
        proposer=alice, rows=changesets.rows_from_text(THREE), source="binder"
    )
    decisions = {p.pk: changesets.Decision("accept") for p in changeset.proposals.all()}
    with (
        patch.object(CardProposal.objects, "bulk_update", side_effect=RuntimeError("disk full")),
        pytest.raises(RuntimeError),
    ):
        changesets.changeset_review(
            changeset=changeset, reviewer=editor, decisions=decisions, seen_version=1
        )
    assert Card.objects.filter(id__in=["BS-012", "BS-013", "BS-014"], is_sample=True).count() == 3
    assert not CardRevision.objects.exists()


def test_a_stale_review_is_refused_with_409(alice_client, editor_client, editor):
    send(alice_client, THREE)
    changeset = Changeset.objects.get()
    decisions = {p.pk: changesets.Decision("accept") for p in changeset.proposals.all()}
    changesets.changeset_review(
        changeset=changeset, reviewer=editor, decisions=decisions, seen_version=1
    )
    form = {"version": "1", **{f"action-{pk}": "accept" for pk in decisions}}
    answer = editor_client.post(f"/changesets/{changeset.pk}/review/", form)
    assert answer.status_code == 409 and 'id="changeset-stale"' in answer.content.decode()


def test_the_editor_sees_other_pending_proposals_for_the_same_cards(
    alice_client, bob, editor_client
):
    single = proposal_create(
        proposer=bob,
        data={
            "set": "BS",
            "number": "13",
            "name": "Bob's Thirteen",
            "kind": "player",
            "position": "MF",
        },
        source="bob's card",
    )
    send(alice_client, THREE)
    changeset = Changeset.objects.get()
    page = editor_client.get(changeset.get_absolute_url()).content.decode()
    conflicts = page.split('id="changeset-conflicts"')[1].split("</div>")[0]
    assert "BS-013" in conflicts and single.get_absolute_url() in conflicts
    queue = editor_client.get("/review/").content.decode()
    assert 'id="changeset-queue"' in queue and changeset.get_absolute_url() in queue
    assert "/proposals/" + str(changeset.proposals.first().pk) + "/" not in queue


def test_who_may_see_and_review_a_changeset(alice_client, bob_client, anon_client):
    send(alice_client, THREE)
    changeset = Changeset.objects.get()
    url = changeset.get_absolute_url()
    assert bob_client.get(url).status_code == 404
    assert anon_client.get(url).status_code == 302
    assert alice_client.post(f"{url}review/", {"version": "1"}).status_code == 403
    assert alice_client.get(f"{url}review/").status_code == 405
    member = changeset.proposals.first()
    from catalog.contributions.services import proposal_reject

    editor = get_user_model().objects.create_superuser("root", "r@example.com", "pw-123456")
    with pytest.raises(ProposalError, match="changeset"):
        proposal_reject(proposal=member, reviewer=editor, reason="no")


def test_the_changeset_pages_speak_japanese(alice_client, editor_client):
    from tests.test_japanese_pages import _data_words, english_in

    send(alice_client, THREE, source="わたしのバインダー")
    changeset = Changeset.objects.get()
    editor_client.cookies["django_language"] = "ja"
    page = editor_client.get(changeset.get_absolute_url()).content.decode()
    assert "承認したカードを適用" in page and "サンプルを置き換え" in page
    proposed = {p.data["name"] for p in changeset.proposals.all()}
    assert english_in(page, _data_words() | proposed) == []
    queue = editor_client.get("/review/").content.decode()
    assert "変更セット" in queue and english_in(queue, _data_words()) == []
