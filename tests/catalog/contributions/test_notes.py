"""Errata and rulings: proposed, reviewed like card proposals, shown on the card page, in the
card API and found by `has:errata` / `has:ruling`; bad input named by field, nothing saved."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import IntegrityError, transaction
from django.test import Client
from django.utils import timezone

from catalog.contributions.notes import note_accept, note_check, note_create, note_refuse
from catalog.contributions.services import ProposalChanged, ProposalError
from catalog.models import Card, CardNoteEdit, CardNoteProposal, Erratum, Ruling
from catalog.search.query import QuerySyntaxError
from catalog.search.selectors import card_search

pytestmark = pytest.mark.django_db

CARD = "BS-012"
ERRATUM = {
    "printed_text": "Draw 2 cards.",
    "current_text": "Draw 1 card.",
    "source": "Publisher FAQ, 2002-05",
}
RULING = {
    "text": "Its effect ends at the end of the play phase.",
    "ruling_date": "2002-04-01",
    "source": "Official judge answer",
}


def grant(user, *codenames):
    for codename in codenames:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def editor(db):
    user = get_user_model().objects.create_user("erin", "erin@example.com", "correct-horse-3")
    return grant(user, "review_proposal")


@pytest.fixture
def editor_client(editor):
    client = Client()
    client.force_login(editor)
    return client


def make_real(card_id: str) -> Card:
    Card.objects.filter(id=card_id).update(is_sample=False, source="my own card")
    return Card.objects.get(id=card_id)


@pytest.fixture(autouse=True)
def card(db):
    """BS-012 as a real card (errata and rulings are for real cards, not samples)."""
    return make_real(CARD)


def saved_rows() -> tuple[int, int, int, int]:
    return (
        CardNoteProposal.objects.count(),
        CardNoteEdit.objects.count(),
        Erratum.objects.count(),
        Ruling.objects.count(),
    )


# --- models ---------------------------------------------------------------------------------


def test_the_database_refuses_a_note_with_the_other_kinds_fields(alice, card):
    with pytest.raises(IntegrityError), transaction.atomic():
        CardNoteProposal.objects.create(
            kind="erratum", card=card, proposer=alice, text="a ruling's text", source="x"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        CardNoteProposal.objects.create(
            kind="ruling", card=card, proposer=alice, text="t", source="x"
        )  # no date
    with pytest.raises(IntegrityError), transaction.atomic():
        Erratum.objects.create(card=card, printed_text="a", current_text="b", source="")


def test_an_accepted_note_keeps_its_provenance_as_a_revision_does(alice, editor, card):
    proposal = note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM)
    erratum = note_accept(proposal=proposal, reviewer=editor, seen_version=1)
    assert (erratum.card, erratum.proposal, erratum.created_by, erratum.accepted_by) == (
        card,
        proposal,
        alice,
        editor,
    )
    assert (erratum.printed_text, erratum.current_text, erratum.source) == (
        "Draw 2 cards.",
        "Draw 1 card.",
        "Publisher FAQ, 2002-05",
    )
    proposal.refresh_from_db()
    assert proposal.status == "accepted" and proposal.reviewer == editor
    assert proposal.reviewed_at is not None


# --- propose → review → page and API ---------------------------------------------------------


def test_an_erratum_and_a_ruling_go_from_proposal_to_the_card_page_and_api(
    alice_client, editor_client, client
):
    response = alice_client.post(
        f"/cards/{CARD}/notes/propose/?kind=erratum", {**ERRATUM, "kind": "erratum"}
    )
    assert response.status_code == 302
    erratum = CardNoteProposal.objects.get(kind="erratum")
    response = alice_client.post(f"/cards/{CARD}/notes/propose/", {**RULING, "kind": "ruling"})
    assert response.status_code == 302
    ruling = CardNoteProposal.objects.get(kind="ruling")

    # The editor reviewing an erratum sees the card's effect as the catalog has it now.
    review = editor_client.get(erratum.get_absolute_url()).content.decode()
    now = review[review.index('id="card-now"') : review.index('id="note-fields"')]
    card = Card.objects.get(id=CARD)
    assert (card.effect or "—") in now and "none yet" in now

    # Pending: on the queue, not on the page or in the API.
    queue = editor_client.get("/review/").content.decode()
    assert erratum.get_absolute_url() in queue and ruling.get_absolute_url() in queue
    assert client.get(f"/api/cards/{CARD}/").json()["errata"] == []
    page = client.get(f"/cards/{CARD}/").content.decode()
    assert "Draw 1 card." not in page and "2 errata or rulings are waiting for review" in page

    for proposal in (erratum, ruling):
        response = editor_client.post(
            f"/notes/{proposal.pk}/review/", {"action": "accept", "version": "1"}
        )
        assert response.status_code == 302 and response["Location"] == f"/cards/{CARD}/"

    page = client.get(f"/cards/{CARD}/").content.decode()
    errata_section = page[page.index('id="errata"') : page.index('id="rulings"')]
    assert "Draw 2 cards." in errata_section and "Draw 1 card." in errata_section
    assert "Publisher FAQ, 2002-05" in errata_section
    rulings_section = page[page.index('id="rulings"') : page.index('id="history"')]
    assert "2002-04-01" in rulings_section and "Official judge answer" in rulings_section
    assert "Its effect ends at the end of the play phase." in rulings_section

    data = client.get(f"/api/cards/{CARD.lower()}/").json()
    assert [(e["printed_text"], e["current_text"], e["source"]) for e in data["errata"]] == [
        ("Draw 2 cards.", "Draw 1 card.", "Publisher FAQ, 2002-05")
    ]
    assert [(r["text"], r["date"], r["source"]) for r in data["rulings"]] == [
        ("Its effect ends at the end of the play phase.", "2002-04-01", "Official judge answer")
    ]
    # The list keeps its shape (no per-card lookups); a card alone adds the arrays.
    listed = client.get("/api/cards/", {"q": f"id:{CARD}"}).json()["results"][0]
    assert "errata" not in listed and {**listed, "errata": data["errata"]} == {
        k: v for k, v in data.items() if k not in ("rulings", "printings")
    }


def test_the_card_api_documents_errata_and_rulings_in_the_order_it_writes_them(client):
    from catalog.api import CardDetailSerializer, CardSerializer

    documented = list(CardDetailSerializer().fields)
    assert documented == [*CardSerializer().fields, "printings", "errata", "rulings"]
    assert list(client.get(f"/api/cards/{CARD}/").json()) == documented
    schema = client.get("/api/schema/").content.decode()
    assert "CardDetail" in schema and "printed_text" in schema


def test_a_rejected_or_sent_back_note_never_shows_and_needs_a_reason(alice, editor, card):
    proposal = note_create(proposer=alice, card=card, kind="ruling", data=RULING)
    with pytest.raises(ProposalError) as caught:
        note_refuse(proposal=proposal, reviewer=editor, reason="  ", status="rejected")
    assert caught.value.problems[0].field == "reason"
    note_refuse(proposal=proposal, reviewer=editor, reason="No source given", status="changes")
    proposal.refresh_from_db()
    assert proposal.status == "changes" and proposal.reason == "No source given"
    assert not Ruling.objects.exists()


# --- permissions -----------------------------------------------------------------------------


def test_anonymous_users_are_sent_to_sign_in_and_save_nothing(anon_client, alice, card):
    response = anon_client.post(f"/cards/{CARD}/notes/propose/", {**ERRATUM, "kind": "erratum"})
    assert response.status_code == 302 and "/login" in response["Location"]
    proposal = note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM)
    response = anon_client.post(
        f"/notes/{proposal.pk}/review/", {"action": "accept", "version": "1"}
    )
    assert response.status_code == 302 and "/login" in response["Location"]
    assert saved_rows() == (1, 0, 0, 0)


def test_only_editors_review_and_no_one_accepts_their_own(alice, bob_client, editor, card):
    proposal = note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM)
    # Another user who is not an editor does not even see it.
    assert bob_client.get(proposal.get_absolute_url()).status_code == 404
    response = bob_client.post(
        f"/notes/{proposal.pk}/review/", {"action": "accept", "version": "1"}
    )
    assert response.status_code == 404
    alice_client = Client()
    alice_client.force_login(alice)
    assert alice_client.get(proposal.get_absolute_url()).status_code == 200
    assert (
        alice_client.post(
            f"/notes/{proposal.pk}/review/", {"action": "accept", "version": "1"}
        ).status_code
        == 403
    )
    own = note_create(proposer=editor, card=card, kind="erratum", data=ERRATUM)
    with pytest.raises(ProposalError):
        note_accept(proposal=own, reviewer=editor)
    assert not Erratum.objects.exists()


# --- stale review ----------------------------------------------------------------------------


def test_a_review_of_an_older_version_is_a_409_showing_what_changed(
    alice, alice_client, editor_client, card
):
    proposal = note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM)
    response = alice_client.post(
        f"/notes/{proposal.pk}/edit/", {**ERRATUM, "current_text": "Draw 1 card, then discard 1."}
    )
    assert response.status_code == 302
    response = editor_client.post(
        f"/notes/{proposal.pk}/review/", {"action": "accept", "version": "1"}
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert 'id="changed-since"' in page and "version 1 → 2" in page
    assert "Draw 1 card." in page and "Draw 1 card, then discard 1." in page
    assert not Erratum.objects.exists()
    with pytest.raises(ProposalChanged):
        note_accept(
            proposal=proposal,
            reviewer=get_user_model().objects.get(username="erin"),
            seen_version=1,
        )
    response = editor_client.post(
        f"/notes/{proposal.pk}/review/", {"action": "accept", "version": "2"}
    )
    assert response.status_code == 302
    assert Erratum.objects.get().current_text == "Draw 1 card, then discard 1."


def test_a_review_version_that_is_not_a_number_is_a_400(alice, editor_client, card):
    proposal = note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM)
    for version in ("9" * 5000, "²", "x\x01"):
        response = editor_client.post(
            f"/notes/{proposal.pk}/review/", {"action": "accept", "version": version}
        )
        assert response.status_code == 400
    assert not Erratum.objects.exists()


# --- daily limit -----------------------------------------------------------------------------


def test_notes_and_their_edits_count_against_the_daily_proposal_limit(alice, card, settings):
    settings.PROPOSALS_PER_DAY = 3
    first = note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM)
    note_create(proposer=alice, card=card, kind="ruling", data=RULING)
    from catalog.contributions.notes import note_resubmit

    note_resubmit(proposal=first, user=alice, data={**ERRATUM, "source": "another"})
    with pytest.raises(ProposalError) as caught:
        note_create(proposer=alice, card=card, kind="ruling", data=RULING)
    assert "3 proposals a day" in str(caught.value)
    with pytest.raises(ProposalError):
        note_resubmit(proposal=first, user=alice, data=ERRATUM)
    assert saved_rows() == (2, 1, 0, 0)
    # The one budget: a card proposal is refused too.
    from catalog.contributions.services import proposal_create

    with pytest.raises(ProposalError):
        proposal_create(
            proposer=alice,
            data={
                "set": "BS",
                "number": "12",
                "name": "X",
                "kind": "player",
                "position": "FW",
                "person": "X",
                "shoot": "1",
                "keep": "1",
                "defense": "1",
            },
            source="s",
        )


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "field", "value", "words"),
    [
        ("erratum", "printed_text", "Draw\x00 2", "control characters"),
        ("erratum", "current_text", "x" * 2001, "2001 characters long (at most 2000)"),
        ("erratum", "current_text", "", "required"),
        ("erratum", "current_text", "Draw 2 cards.", "same as the printed text"),
        ("erratum", "source", "s" * 201, "at most 200"),
        ("erratum", "source", "  ", "required"),
        ("erratum", "printed_text", "caf\ufffd latin-1", "not UTF-8"),
        ("ruling", "text", "", "required"),
        ("ruling", "text", "a\x07b", "control characters"),
        ("ruling", "ruling_date", "2002-02-30", "YYYY-MM-DD"),
        ("ruling", "ruling_date", "9" * 5000, "YYYY-MM-DD"),
        ("ruling", "ruling_date", "２００２-０４-０１", "YYYY-MM-DD"),
        ("ruling", "ruling_date", "1800-01-01", "from 1990-01-01 to today"),
        ("ruling", "ruling_date", "", "required"),
        ("ruling", "note", "n\x00", "control characters"),
    ],
    ids=lambda value: value[:20].replace("\x00", "NUL") if isinstance(value, str) else value,
)
def test_each_bad_field_is_named_and_nothing_is_saved(
    alice_client, alice, card, kind, field, value, words
):
    data = {**(ERRATUM if kind == "erratum" else RULING), field: value}
    with pytest.raises(ProposalError) as caught:
        note_create(proposer=alice, card=card, kind=kind, data=data)
    assert [(p.field, words in p.message) for p in caught.value.problems] == [(field, True)]
    if "\x00" not in value:  # a NUL is refused before any view (RequestBoundsMiddleware)
        response = alice_client.post(
            f"/cards/{CARD}/notes/propose/?kind={kind}", {**data, "kind": kind}
        )
        assert response.status_code == 400
        errors = response.content.decode()
        assert f'data-field="{field}"' in errors
    assert saved_rows() == (0, 0, 0, 0)


def test_a_nul_byte_in_the_form_is_a_400_naming_the_field_before_the_view(alice_client):
    response = alice_client.post(
        f"/cards/{CARD}/notes/propose/", {**ERRATUM, "printed_text": "a\x00b", "kind": "erratum"}
    )
    assert response.status_code == 400 and b"printed_text" in response.content
    assert saved_rows() == (0, 0, 0, 0)


def test_bytes_of_another_encoding_in_the_body_are_refused_clearly(alice_client):
    # "café" once in UTF-8 and once in Latin-1, percent-encoded as a browser sends it.
    body = "kind=erratum&printed_text=caf%C3%A9+caf%E9&current_text=Draw+1&source=FAQ"
    response = alice_client.post(
        f"/cards/{CARD}/notes/propose/",
        body,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    assert b"not UTF-8" in response.content
    assert saved_rows() == (0, 0, 0, 0)


def test_every_wrong_field_is_named_at_once(alice, card):
    with pytest.raises(ProposalError) as caught:
        note_create(
            proposer=alice,
            card=card,
            kind="ruling",
            data={"text": "", "ruling_date": "soon", "source": "\x00"},
        )
    assert [p.field for p in caught.value.problems] == ["source", "text", "ruling_date"]
    with pytest.raises(ProposalError) as caught:
        note_check("nonsense", {})
    assert caught.value.problems[0].field == "kind"


def test_a_sample_card_takes_no_errata_and_its_page_offers_none(alice, client):
    sample = Card.objects.get(id="BS-014")
    assert sample.is_sample
    with pytest.raises(ProposalError) as caught:
        note_create(proposer=alice, card=sample, kind="erratum", data=ERRATUM)
    assert caught.value.problems[0].field == "card"
    assert saved_rows() == (0, 0, 0, 0)
    assert 'id="errata"' not in client.get("/cards/BS-014/").content.decode()
    alice_client = Client()
    alice_client.force_login(alice)
    page = alice_client.get("/cards/BS-014/notes/propose/").content.decode()
    assert 'id="sample-card"' in page and 'id="note-form"' not in page
    response = alice_client.post("/cards/BS-014/notes/propose/", {**ERRATUM, "kind": "erratum"})
    assert response.status_code == 400 and "generated sample" in response.content.decode()
    assert saved_rows() == (0, 0, 0, 0)


def test_a_ruling_of_tomorrow_is_refused(alice, card):
    tomorrow = (timezone.localdate() + datetime.timedelta(days=1)).isoformat()
    with pytest.raises(ProposalError) as caught:
        note_create(
            proposer=alice, card=card, kind="ruling", data={**RULING, "ruling_date": tomorrow}
        )
    assert caught.value.problems[0].field == "ruling_date"


# --- search ----------------------------------------------------------------------------------


def test_has_errata_and_has_ruling_find_cards_with_accepted_notes(alice, editor, card):
    pending = note_create(proposer=alice, card=make_real("BS-013"), kind="ruling", data=RULING)
    note_accept(
        proposal=note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM),
        reviewer=editor,
    )
    assert [c.id for c in card_search(query="has:errata")] == [CARD]
    assert [c.id for c in card_search(query="has:ruling")] == []  # pending is not accepted
    note_accept(proposal=pending, reviewer=editor)
    assert [c.id for c in card_search(query="has:rulings")] == ["BS-013"]
    assert [c.id for c in card_search(query="has:errata or has:ruling")] == [CARD, "BS-013"]
    everything = card_search(query="").count()
    assert card_search(query="-has:errata").count() == everything - 1
    assert card_search(query="has!=ruling").count() == everything - 1
    assert CARD not in {c.id for c in card_search(query="-has:errata set:BS")}


def test_an_unknown_has_value_is_a_syntax_error_with_the_known_values():
    with pytest.raises(QuerySyntaxError) as caught:
        list(card_search(query="has:erata"))
    assert 'Unknown value "erata" for "has"' in str(caught.value)
    assert "errata" in caught.value.hint
    with pytest.raises(QuerySyntaxError):
        list(card_search(query="has>errata"))


def test_the_search_page_and_api_take_has_terms(client, alice, editor, card):
    note_accept(
        proposal=note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM),
        reviewer=editor,
    )
    data = client.get("/api/cards/", {"q": "has:errata"}).json()
    assert [c["id"] for c in data["results"]] == [CARD]
    assert client.get("/api/cards/", {"q": "has:nothing"}).status_code == 400


# --- Japanese --------------------------------------------------------------------------------


def test_the_card_page_with_errata_and_rulings_reads_in_japanese(client, alice, editor, card):
    note_accept(
        proposal=note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM),
        reviewer=editor,
    )
    note_accept(
        proposal=note_create(proposer=alice, card=card, kind="ruling", data=RULING),
        reviewer=editor,
    )
    page = client.get(f"/cards/{CARD}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    for words in ("エラッタ", "裁定", "印刷時のテキスト", "現在のテキスト", "エラッタを提案する"):
        assert words in page


def test_the_note_form_names_its_fields_in_japanese(alice_client):
    response = alice_client.post(
        f"/cards/{CARD}/notes/propose/?kind=ruling",
        {**RULING, "ruling_date": "2002-13-01", "kind": "ruling"},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "裁定の日付" in page and "YYYY-MM-DD" in page


# --- the hostile-input and permission audits over the new paths -----------------------------


def _note_paths(pk: int) -> list[str]:
    return [
        f"/cards/{CARD}/notes/propose/?kind=erratum",
        f"/cards/{CARD}/notes/propose/?kind=ruling",
        f"/notes/{pk}/",
        f"/notes/{pk}/edit/",
        f"/notes/{pk}/review/",
    ]


def test_who_may_do_what_on_every_note_path(anon_client, alice, bob_client, editor, card):
    proposal = note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM)
    alice_client = Client()
    alice_client.force_login(alice)
    editor_client = Client()
    editor_client.force_login(editor)
    before = saved_rows()
    for path in _note_paths(proposal.pk):
        for method in ("get", "post"):
            response = getattr(anon_client, method)(path)
            assert response.status_code in (302, 405), (method, path)
            if response.status_code == 302:
                assert "/login" in response["Location"], (method, path)
    expected = {  # (GET, POST with an empty body) by who asks
        "bob": {"detail": (404, 405), "edit": (404, 404), "review": (405, 404)},
        "alice": {"detail": (200, 405), "edit": (200, 400), "review": (405, 403)},
        "editor": {"detail": (200, 405), "edit": (404, 404), "review": (405, 400)},
    }
    for who, client in (("bob", bob_client), ("alice", alice_client), ("editor", editor_client)):
        for name, path in zip(
            ("detail", "edit", "review"), _note_paths(proposal.pk)[2:], strict=True
        ):
            got = (client.get(path).status_code, client.post(path, {}).status_code)
            assert got == expected[who][name], (who, path, got)
    assert saved_rows() == before


def test_hostile_bodies_on_the_note_paths_are_never_a_5xx_nor_a_write(alice, editor, card):
    from tests.test_hostile_input import FORM_BODY, FORM_NUL, JSON_BODIES, OVERSIZED

    proposal = note_create(proposer=alice, card=card, kind="ruling", data=RULING)
    clients = []
    for user in (alice, editor):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        clients.append(client)
    hostile = {**FORM_BODY, "kind": "ruling", "ruling_date": "9" * 5000, "version": "9" * 5000}
    before = saved_rows()
    for client in clients:
        for path in _note_paths(proposal.pk):
            answers = [
                client.post(path, hostile),
                client.post(path, FORM_NUL),
                client.post(path, {**RULING, "text": "a\x00b", "kind": "ruling"}),
                client.post(path, OVERSIZED, content_type="application/x-www-form-urlencoded"),
                *(
                    client.post(path, body, content_type="application/json")
                    for body in JSON_BODIES.values()
                ),
            ]
            assert all(a.status_code < 500 for a in answers), (
                path,
                [a.status_code for a in answers],
            )
    assert saved_rows() == before
    proposal.refresh_from_db()
    assert (proposal.status, proposal.version) == ("pending", 1)


def test_a_deleted_erratum_leaves_cached_searches_at_once(client, alice, editor, card):
    erratum = note_accept(
        proposal=note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM),
        reviewer=editor,
    )
    assert client.get("/api/cards/", {"q": "has:errata"}).json()["count"] == 1
    assert client.get("/api/cards/", {"q": "has:errata"}).json()["count"] == 1  # from cache
    erratum.delete()  # as the admin does
    assert client.get("/api/cards/", {"q": "has:errata"}).json()["count"] == 0


def test_the_admin_shows_notes_read_only(alice, editor, card):
    erratum = note_accept(
        proposal=note_create(proposer=alice, card=card, kind="erratum", data=ERRATUM),
        reviewer=editor,
    )
    staff = get_user_model().objects.create_superuser("root", "root@example.com", "x-y-z-1")
    client = Client()
    client.force_login(staff)
    for path in (
        "/admin/catalog/erratum/",
        "/admin/catalog/ruling/",
        "/admin/catalog/cardnoteproposal/",
        f"/admin/catalog/erratum/{erratum.pk}/change/",
    ):
        assert client.get(path).status_code == 200, path
    response = client.post(
        f"/admin/catalog/erratum/{erratum.pk}/change/", {"current_text": "changed"}
    )
    assert response.status_code == 403
    erratum.refresh_from_db()
    assert erratum.current_text == "Draw 1 card."


def test_the_proposer_sees_their_notes_and_the_reasons_on_their_profile(
    alice, alice_client, bob_client, editor, card
):
    proposal = note_create(proposer=alice, card=card, kind="ruling", data=RULING)
    note_refuse(proposal=proposal, reviewer=editor, reason="Which judge?", status="changes")
    page = alice_client.get("/users/alice/").content.decode()
    assert 'id="my-notes"' in page and "Which judge?" in page
    assert proposal.get_absolute_url() in page
    assert "Which judge?" not in bob_client.get("/users/alice/").content.decode()
    ja = alice_client.get("/users/alice/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "自分のエラッタと裁定" in ja and "裁定" in ja
