"""Migration catalog 0011_printing_proposal_review on rows made at the state before it: every
printing proposal stays valid (version 1, its times filled), and the new review states and
constraints hold afterwards."""

from datetime import UTC, date, datetime

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("catalog", "0010_reading")]
AFTER = [("catalog", "0011_printing_proposal_review")]

# Transactional: schema changes cannot run inside the test's transaction on SQLite.
pytestmark = pytest.mark.django_db(transaction=True)

SENT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
REVIEWED = datetime(2026, 1, 3, 4, 5, 6, tzinfo=UTC)


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_existing_printing_proposals_stay_valid_and_gain_a_version():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(BEFORE)
    User = old.get_model("auth", "User")
    CardSet = old.get_model("catalog", "CardSet")
    Card = old.get_model("catalog", "Card")
    Proposal = old.get_model("catalog", "PrintingProposal")
    proposer = User.objects.create(username="pia")
    editor = User.objects.create(username="ed")
    zm = CardSet.objects.create(
        code="ZQ",
        name="Migration",
        name_ja="移行",
        released=date(2001, 1, 1),
        kind="expansion",
        kinds_count=2,
        display_order=991,
    )
    card = Card.objects.create(
        id="ZQ-001", card_set=zm, number=1, name="Event", kind="event", effect="draw:1"
    )
    common = {"proposer": proposer, "card": card, "card_set": zm, "source": "binder"}
    made = {
        "pending": Proposal.objects.create(number=5, kind="promo", **common),
        "rejected": Proposal.objects.create(
            number=6,
            kind="reprint",
            status="rejected",
            reason="No such reprint.",
            reviewer=editor,
            reviewed_at=REVIEWED,
            **common,
        ),
        # The old schema let a reviewed row lack its review time; the new one does not.
        "untimed": Proposal.objects.create(number=7, kind="promo", status="accepted", **common),
    }
    Proposal.objects.update(created_at=SENT)

    new = _migrate(AFTER)
    Proposal = new.get_model("catalog", "PrintingProposal")
    rows = {name: Proposal.objects.get(pk=row.pk) for name, row in made.items()}
    assert {row.version for row in rows.values()} == {1}
    assert {row.note for row in rows.values()} == {""}
    assert (rows["pending"].status, rows["pending"].reviewed_at) == ("pending", None)
    assert rows["pending"].updated_at == SENT
    assert (rows["rejected"].reason, rows["rejected"].updated_at) == ("No such reprint.", REVIEWED)
    assert rows["untimed"].reviewed_at == SENT
    Edit = new.get_model("catalog", "PrintingProposalEdit")
    Edit.objects.create(proposal=rows["pending"], editor_id=proposer.pk, previous={"version": 1})
    Proposal.objects.filter(pk=rows["pending"].pk).update(
        status="changes", reason="A photo?", reviewed_at=REVIEWED
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Proposal.objects.filter(pk=rows["pending"].pk).update(reason="")  # changes need one
    with pytest.raises(IntegrityError), transaction.atomic():
        Proposal.objects.filter(pk=rows["rejected"].pk).update(reviewed_at=None)

    _migrate(leaves)  # back to the latest state for the tests after this one
