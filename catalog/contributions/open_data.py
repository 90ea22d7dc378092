"""Another instance's open-data export becomes one changeset for review, never applied directly.

The export is checked whole first (catalog/opendata_import.py); then every card of it is marked
new, same, different (with the fields that differ) or kept (a sample there whose number is a
real card here: a sample never replaces a real card). Only new and different cards become
proposals of the changeset; same and kept cards are listed on the changeset (`origin`) and make
no proposal. The changeset records the source instance, the export's licence, format version
and checksums; accepting it applies the accepted cards in one transaction like any changeset
(decks holding them are re-validated once, with a version naming the changed cards) and carries
the source's history onto their revisions.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from catalog.cache import catalog_bump
from catalog.card_format import PROPOSAL_FIELDS
from catalog.contributions.changesets import _lock_user_and_check_limit
from catalog.contributions.services import ProposalError, clean_text, is_editor
from catalog.importer import RowProblem
from catalog.models import CardProposal, Changeset
from catalog.opendata_import import DIFFERENT, KEPT, NEW, SAME, Export


def import_changeset(*, proposer, export: Export, instance: str, note: str = "") -> Changeset:
    """Record a checked export as one changeset of its new and different cards; return it.

    `instance` says where the export came from (the other site's URL or name). ProposalError
    when the proposer may not import, the instance is not said, or nothing differs; nothing is
    saved then.
    """
    if not is_editor(proposer):
        raise ProposalError([RowProblem(0, "", _("Only editors import another site's export."))])
    instance = clean_text(instance, "instance", 150, required=True)
    note = clean_text(note, "note", 2000, required=False)
    proposed = [entry for entry in export.cards if entry.mark in (NEW, DIFFERENT)]
    if not proposed:
        raise ProposalError(
            [
                RowProblem(
                    0,
                    "",
                    _("Every card of the export is the same as this catalogue: nothing to review."),
                )
            ]
        )
    source = _("Open data from %(instance)s") % {"instance": instance}
    origin = {
        "instance": {
            "instance": instance,
            "licence": export.licence,
            "version": export.version,
            "checksum": _one_checksum(export),
        },
        "files": export.files,
        "sets": export.sets,
        "counts": export.counts(),
        "same": [e.card_id for e in export.cards if e.mark == SAME],
        "kept": [e.card_id for e in export.cards if e.mark == KEPT],
    }
    with transaction.atomic():
        _lock_user_and_check_limit(proposer)
        changeset = Changeset.objects.create(
            proposer=proposer,
            card_set_id=export.sets[0] if len(export.sets) == 1 else None,
            source=source[:200],
            note=note,
            origin=origin,
        )
        CardProposal.objects.bulk_create(
            (
                CardProposal(
                    proposer=proposer,
                    changeset=changeset,
                    card_set_id=entry.row["set"],
                    number=entry.row["number"],
                    card_id=entry.card_id,
                    data={name: entry.row[name] for name in PROPOSAL_FIELDS},
                    source=(entry.row["source"] or source)[:200],
                    note=note,
                    origin={
                        "card": entry.row,
                        "revision": entry.revision,
                        "provenance": entry.provenance,
                        "mark": entry.mark,
                        "diff": entry.diff,
                        "notes": entry.notes,
                        "printings": entry.printings,
                    },
                )
                for entry in proposed
            ),
            batch_size=500,
        )
        catalog_bump()  # `is:pending` answers change with the proposals
    return changeset


def _one_checksum(export: Export) -> str:
    """The checksum that stands for the whole export: the index's, else the one set file's."""
    if "index.json" in export.files:
        return export.files["index.json"]
    return next(iter(export.files.values()))
