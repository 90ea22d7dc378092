"""The card file format's fields are defined once and reach every list of card fields."""

import pytest

from catalog import card_format
from catalog.admin import CardAdminForm
from catalog.contributions.forms import ProposalForm
from catalog.contributions.selectors import DIFF_FIELDS, field_diff
from catalog.contributions.services import PROPOSAL_FIELDS, proposal_create
from catalog.importer import FIELDS, MODEL_FIELDS, ROW_FIELDS, card_row, export_csv
from catalog.models import Card, CardProposal

CONTENT = [f.name for f in card_format.FIELDS if f.content]


def test_every_format_field_is_a_column_of_the_importer_and_the_bulk_rows():
    assert list(FIELDS) == [f.name for f in card_format.FIELDS]
    assert list(ROW_FIELDS) == list(FIELDS)
    assert export_csv([]).strip().split(",") == list(FIELDS)


def test_every_stored_format_field_is_written_by_the_importer():
    stored = {f.model for f in card_format.FIELDS if f.model and f.name != "id"}
    assert set(MODEL_FIELDS) == stored
    assert stored <= {f.attname for f in Card._meta.concrete_fields}


def test_every_stored_format_field_is_on_the_admin_card_form():
    admin_fields = set(CardAdminForm._meta.fields)
    for f in card_format.FIELDS:
        if f.model:
            assert f.model.removesuffix("_id") in admin_fields, f.name


def test_every_content_field_is_proposed_diffed_and_on_the_proposal_form():
    assert list(PROPOSAL_FIELDS) == ["set", "number", *CONTENT]
    assert list(DIFF_FIELDS) == CONTENT
    form_fields = set(ProposalForm.base_fields)
    for name in PROPOSAL_FIELDS:
        assert name in form_fields, name


def test_the_reading_is_in_every_list_that_once_lacked_it():
    for fields in (FIELDS, MODEL_FIELDS, PROPOSAL_FIELDS, DIFF_FIELDS, ProposalForm.base_fields):
        assert "name_kana" in fields
    assert "name_kana" in CardAdminForm._meta.fields


@pytest.mark.django_db
def test_a_proposed_reading_is_kept_diffed_and_applied(alice):
    data = {
        "set": "BS",
        "number": "12",
        "name": "Real Striker",
        "name_ja": "鈴木 一郎",
        "name_kana": "すずき いちろう",
        "kind": "player",
        "position": "FW",
        "shoot": "7",
    }
    proposal = proposal_create(proposer=alice, data=data, source="my own card")
    assert CardProposal.objects.get(pk=proposal.pk).data["name_kana"] == "すずき いちろう"
    before = card_row(Card.objects.get(id="BS-012"))
    rows = {row["field"]: row for row in field_diff(before, proposal.data)}
    assert rows["name_kana"]["after"] == "すずき いちろう"
    assert rows["name_kana"]["changed"]


@pytest.mark.django_db
def test_the_proposal_form_starts_a_correction_with_every_content_field():
    card = Card.objects.filter(is_sample=True, kind="player").first()
    card.is_sample = False
    initial = ProposalForm.initial_for(card)
    assert set(initial) == set(PROPOSAL_FIELDS)
    assert initial["name_kana"] == card.name_kana


@pytest.mark.django_db
def test_proposing_the_real_card_for_a_sample_starts_from_the_sample(client, django_user_model):
    """#24: "propose it" on a sample card used to start blank but for set and number, so a
    field the proposer did not retype (the team) was silently dropped."""
    card = Card.objects.filter(is_sample=True, kind="player").exclude(team=None).first()
    initial = ProposalForm.initial_for(card)
    assert set(initial) == set(PROPOSAL_FIELDS)
    assert initial["team"] == card.team_id and initial["name"] == card.name
    assert ProposalForm.initial_for(None, set_code="BS", number=7) == {
        "set": "BS",
        "number": 7,
        "kind": "player",
    }
    client.force_login(django_user_model.objects.create_user("pia", password="x" * 12))
    page = client.get(f"/cards/propose/?card={card.id}").content.decode()
    assert f'<option value="{card.team_id}" selected>' in page
    assert f'name="name" value="{card.name}"' in page
    assert "sample placeholder" in page and card.id in page
