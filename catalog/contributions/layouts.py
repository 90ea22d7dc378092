"""A set's layout, marked once on a straightened scan and reviewed like a card (issue #25, 1.).

A user sends a scan of a card of the set; the worker straightens it (catalog.readings, a
"straighten" job); on that picture the user marks where the name, the kana reading, the card
number, each stat box and the art are. `layout_proposal_create` checks the regions
(catalog.reading.layout.Layout.from_dict: each inside the card, none empty) and records a
LayoutProposal with its own copy of the picture; an editor accepts it (it becomes the set's
SetLayout, one version more), rejects it or asks for changes with a reason, naming the version
they saw, as for a card (catalog.contributions.services). A trusted editor may apply their own
at once. The accepted proposals of a set are its layout's history.
"""

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog.contributions.services import (
    ProposalError,
    check_reviewer,
    clean_text,
    count_against_daily_limit,
    is_trusted,
)
from catalog.importer import RowProblem
from catalog.models import CardSet, LayoutProposal, ReadingJob, SetLayout


class LayoutChanged(Exception):
    """A review of a version of the layout proposal that is no longer the current one."""

    def __init__(self, proposal: LayoutProposal, seen: int):
        super().__init__(f"Layout proposal {proposal.pk} is at version {proposal.version}.")
        self.proposal = proposal
        self.seen = seen


def _problem(field: str, message: str) -> ProposalError:
    return ProposalError([RowProblem(0, field, message)])


def regions_check(card_set: CardSet, regions) -> dict:
    """Return the regions as the layout stores them, or ProposalError naming the region."""
    from catalog.reading.errors import ReadingError
    from catalog.reading.layout import Layout

    try:
        layout = Layout.from_dict({"set": card_set.code, "regions": regions})
    except ReadingError as exc:
        raise _problem(exc.field, str(exc)) from None
    return layout.as_dict()["regions"]


def generated_regions(card_set: CardSet) -> dict:
    """The regions of the app's generated faces of the set: a start to move from."""
    from catalog.reading.layout import generated_face_layout

    return generated_face_layout(card_set.code).as_dict()["regions"]


def _straightened(job: ReadingJob, proposer) -> bytes:
    if (
        job.user_id != proposer.pk
        or job.kind != ReadingJob.Kind.STRAIGHTEN
        or job.status != ReadingJob.Status.DONE
        or not job.image
    ):
        raise _problem("scan", _("Mark the layout on a scan of yours that has been straightened."))
    from catalog.readings import image_png

    try:
        return image_png(job)
    except (OSError, ValueError):
        raise _problem(
            "scan", _("The straightened scan is no longer kept; send the scan again.")
        ) from None


def layout_proposal_create(
    *, proposer, job: ReadingJob, regions, source: str, note: str = "", apply_now: bool = False
) -> LayoutProposal:
    """Record the regions marked on the job's straightened card; apply them now for a trusted
    editor who asks. Raise ProposalError (nothing saved) naming what is wrong."""
    if not proposer.is_authenticated:
        raise _problem("", _("Sign in to mark a layout."))
    regions = regions_check(job.card_set, regions)
    source = clean_text(source, "source", 200, required=True)
    note = clean_text(note, "note", 2000, required=False)
    if apply_now and not is_trusted(proposer):
        raise _problem("", _("Only trusted editors can apply at once."))
    png = _straightened(job, proposer)
    with transaction.atomic():
        count_against_daily_limit(proposer)
        current = SetLayout.objects.filter(card_set=job.card_set).first()
        proposal = LayoutProposal(
            proposer=proposer,
            card_set=job.card_set,
            regions=regions,
            source=source,
            note=note,
            base_version=current.version if current else 0,
        )
        proposal.template.save("template.png", ContentFile(png), save=False)
        proposal.save()
        if apply_now:
            return layout_proposal_accept(proposal=proposal, reviewer=proposer)
    return proposal


def layout_proposal_resubmit(
    *, proposal: LayoutProposal, editor, regions, source: str, note: str = ""
) -> LayoutProposal:
    """The proposer moves their regions and sends the proposal again (pending, one version
    more): after "changes requested", or while it waits."""
    if editor.pk != proposal.proposer_id:
        raise _problem("", _("Only the proposer can change this layout."))
    regions = regions_check(proposal.card_set, regions)
    source = clean_text(source, "source", 200, required=True)
    note = clean_text(note, "note", 2000, required=False)
    with transaction.atomic():
        count_against_daily_limit(editor)
        locked = LayoutProposal.objects.select_for_update().get(pk=proposal.pk)
        if locked.status not in (
            LayoutProposal.Status.PENDING,
            LayoutProposal.Status.CHANGES_REQUESTED,
        ):
            said = {"status": locked.get_status_display()}
            raise _problem("", _("This layout is %(status)s already.") % said)
        locked.regions, locked.source, locked.note = regions, source, note
        locked.status, locked.reason = LayoutProposal.Status.PENDING, ""
        locked.reviewer, locked.reviewed_at = None, None
        locked.version += 1
        locked.save()
    return locked


def _lock_pending(proposal: LayoutProposal, seen_version: int | None) -> LayoutProposal:
    locked = LayoutProposal.objects.select_for_update().get(pk=proposal.pk)
    if locked.status != LayoutProposal.Status.PENDING:
        raise _problem(
            "", _("This layout is %(status)s already.") % {"status": locked.get_status_display()}
        )
    if seen_version is not None and seen_version != locked.version:
        raise LayoutChanged(locked, seen_version)
    return locked


def layout_proposal_accept(
    *, proposal: LayoutProposal, reviewer, seen_version: int | None = None
) -> LayoutProposal:
    """Make the proposal the set's layout (one version more) and keep its picture as the
    template later scans are aligned on. Art hashes made with the old layout are made again
    (catalog.readings.reference_hashes compares each scan's key)."""
    check_reviewer(proposal, reviewer, accepting=True)
    with transaction.atomic():
        locked = _lock_pending(proposal, seen_version)
        regions = regions_check(locked.card_set, locked.regions)  # checked again, as a card is
        current = SetLayout.objects.select_for_update().filter(card_set=locked.card_set).first()
        if current is None:
            current = SetLayout(card_set=locked.card_set, version=0)
        current.regions = regions
        current.template = locked.template.name  # the file is the proposal's, shared
        current.proposal = locked
        current.version += 1
        current.save()
        locked.status = LayoutProposal.Status.ACCEPTED
        locked.reviewer = reviewer
        locked.reviewed_at = timezone.now()
        locked.save()
    return locked


def _refuse(proposal, reviewer, reason, status, seen_version) -> LayoutProposal:
    check_reviewer(proposal, reviewer, accepting=False)
    reason = clean_text(reason, "reason", 2000, required=False)
    if not reason:
        raise _problem("reason", _("is required: tell the proposer why"))
    with transaction.atomic():
        locked = _lock_pending(proposal, seen_version)
        locked.status, locked.reason = status, reason
        locked.reviewer, locked.reviewed_at = reviewer, timezone.now()
        locked.save()
    return locked


def layout_proposal_reject(*, proposal, reviewer, reason: str, seen_version=None):
    return _refuse(proposal, reviewer, reason, LayoutProposal.Status.REJECTED, seen_version)


def layout_proposal_request_changes(*, proposal, reviewer, reason: str, seen_version=None):
    return _refuse(
        proposal, reviewer, reason, LayoutProposal.Status.CHANGES_REQUESTED, seen_version
    )


def layout_history(card_set: CardSet):
    """The set's accepted layouts, newest first (who marked, who accepted, when)."""
    return (
        LayoutProposal.objects.filter(card_set=card_set, status=LayoutProposal.Status.ACCEPTED)
        .select_related("proposer", "reviewer")
        .order_by("-reviewed_at", "-id")
    )


def layout_queue():
    """The layouts waiting for an editor's review, oldest first."""
    return (
        LayoutProposal.objects.filter(status=LayoutProposal.Status.PENDING)
        .select_related("proposer", "card_set")
        .order_by("created_at", "id")
    )
