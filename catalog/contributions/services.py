"""Write paths of contributions: propose a card, review it (accept, reject, ask for changes).

A proposal is checked by `validate_card`, the same function as `import_cards`; accepting one
applies it through `apply_rows`, the same path as an import, in one transaction: the card is
written in place (a sample becomes real under its own id), a revision is recorded and decks
holding the card re-validate themselves (catalog.extensions.cards_changed).
"""

import unicodedata
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalog.cache import catalog_bump
from catalog.card_format import PROPOSAL_FIELDS
from catalog.importer import CardRules, RowProblem, apply_rows, validate_card
from catalog.models import (
    Card,
    CardNoteEdit,
    CardNoteProposal,
    CardProposal,
    LayoutProposal,
    Printing,
    PrintingProposal,
    PrintingProposalEdit,
    ProposalEdit,
    ScanUpload,
)
from catalog.scans import ScanError, scan_upload_store


class ProposalError(Exception):
    """A proposal or review that cannot be done; `problems` name the field and the reason."""

    def __init__(self, problems: list[RowProblem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


def is_editor(user) -> bool:
    """Return whether the user may review proposals (staff, or the review permission)."""
    return bool(
        user.is_authenticated and (user.is_staff or user.has_perm("catalog.review_proposal"))
    )


def is_trusted(user) -> bool:
    """Return whether the user's own proposals may be applied at once (trusted editor)."""
    return bool(user.is_authenticated and user.has_perm("catalog.apply_own_proposal"))


def proposal_check(data: dict) -> dict:
    """Return the card row a proposal's data makes, or raise ProposalError naming every field."""
    raw = {name: data.get(name, "") for name in PROPOSAL_FIELDS}
    row, problems = validate_card({**raw, "is_sample": False}, rules=CardRules.load())
    if problems:
        raise ProposalError(problems)
    return row


def lock_user(user) -> None:
    """Lock the user's row for this transaction: it serialises one user's concurrent sends,
    so a daily count read after it cannot race."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").get()


def proposals_today(user) -> int:
    """Return how many proposals and edits the user sent in the last day: card proposals
    (outside changesets, which have their own limit), their edits, errata and rulings
    proposed or edited (catalog.contributions.notes) and printings proposed or edited
    (catalog.contributions.printings), and set layouts marked (catalog.contributions.layouts)
    — one daily budget for every change."""
    since = timezone.now() - timedelta(days=1)
    # Cards sent in a changeset count against its own limit (catalog.contributions.changesets).
    sent = CardProposal.objects.filter(
        proposer=user, created_at__gte=since, changeset__isnull=True
    ).count()
    edited = ProposalEdit.objects.filter(editor=user, created_at__gte=since).count()
    notes = CardNoteProposal.objects.filter(proposer=user, created_at__gte=since).count()
    notes_edited = CardNoteEdit.objects.filter(editor=user, created_at__gte=since).count()
    printings = PrintingProposal.objects.filter(proposer=user, created_at__gte=since).count()
    printings_edited = PrintingProposalEdit.objects.filter(
        editor=user, created_at__gte=since
    ).count()
    layouts = LayoutProposal.objects.filter(proposer=user, created_at__gte=since).count()
    return sent + edited + notes + notes_edited + printings + printings_edited + layouts


def count_against_daily_limit(user) -> None:
    """Lock the user's row and refuse one more proposal or edit beyond `PROPOSALS_PER_DAY`
    (call inside the transaction that writes it)."""
    # An edit is checked (and its scans processed) again: it counts as a proposal.
    lock_user(user)
    limit = settings.PROPOSALS_PER_DAY
    if proposals_today(user) >= limit:
        message = _(
            "You can send or edit %(limit)s proposals a day (each edit counts as one); "
            "try again tomorrow."
        )
        raise ProposalError([RowProblem(0, "", message % {"limit": limit})])


def clean_text(value: str, name: str, limit: int, required: bool) -> str:
    """The stripped text of a free-text field (source, note, reason, instance), or ProposalError
    naming `name`: control characters (a tab or a line break aside), missing when required, or
    longer than `limit`. The messages are translated: the import and changeset pages show them."""
    text = (value or "").strip()
    if any(unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\n\r\t" for ch in text):
        raise ProposalError([RowProblem(0, name, _("contains control characters (such as NUL)"))])
    if required and not text:
        raise ProposalError([RowProblem(0, name, _("is required: say where it comes from"))])
    if len(text) > limit:
        raise ProposalError(
            [
                RowProblem(
                    0,
                    name,
                    _("is %(n)s characters long (at most %(limit)s)")
                    % {"n": len(text), "limit": limit},
                )
            ]
        )
    return text


def proposal_create(
    *,
    proposer,
    data: dict,
    source: str,
    note: str = "",
    scans: dict | None = None,
    apply_now: bool = False,
    scan_printing: str = "",
) -> CardProposal:
    """Record a proposal (with scan uploads by side); a trusted editor may apply it now.

    The uploads are checked from their headers and stored; the control worker decodes them
    after the commit (`_store_scans`). `scan_printing`: the code of the card's printing the
    scans show (a reprint, a foil), or "" for its first print. Raise ProposalError and save
    nothing when anything is wrong (fields, a scan's header, the printing, limit, permission).
    """
    if not proposer.is_authenticated:
        raise ProposalError([RowProblem(0, "", "Sign in to propose a card.")])
    row = proposal_check(data)
    source = clean_text(source, "source", 200, required=True)
    note = clean_text(note, "note", 2000, required=False)
    if apply_now and not is_trusted(proposer):
        raise ProposalError([RowProblem(0, "", "Only trusted editors can apply at once.")])
    printing = scan_printing_of(row["id"], scan_printing)
    with transaction.atomic():
        count_against_daily_limit(proposer)
        proposal = CardProposal.objects.create(
            proposer=proposer,
            card_set_id=row["card_set_id"],
            number=row["number"],
            card_id=row["id"],
            data={name: data.get(name, "") for name in PROPOSAL_FIELDS},
            source=source,
            note=note,
        )
        _store_scans(proposal, scans, printing)
        if apply_now:
            proposal = proposal_accept(proposal=proposal, reviewer=proposer)
        catalog_bump()  # `is:pending` answers change with the proposals
    return proposal


def proposal_resubmit(
    *, proposal: CardProposal, user, data: dict, source: str, note: str = "", scans=None
) -> CardProposal:
    """Let the proposer change a pending proposal, or answer "changes requested" with new data;
    the proposal is pending again. Each edit counts against the daily proposal limit."""
    if proposal.proposer_id != user.pk:
        raise ProposalError([RowProblem(0, "", "Only the proposer can change a proposal.")])
    row = proposal_check(data)
    source = clean_text(source, "source", 200, required=True)
    note = clean_text(note, "note", 2000, required=False)
    with transaction.atomic():
        locked = CardProposal.objects.select_for_update().get(pk=proposal.pk)
        if locked.changeset_id is not None:
            raise ProposalError(
                [RowProblem(0, "", f"This card belongs to changeset {locked.changeset_id}.")]
            )
        # Checked under the lock: an editor may have accepted it since the page was shown.
        if locked.status not in (
            CardProposal.Status.CHANGES_REQUESTED,
            CardProposal.Status.PENDING,
        ):
            raise ProposalError([RowProblem(0, "", "This proposal has been reviewed already.")])
        count_against_daily_limit(user)
        ProposalEdit.objects.create(
            proposal=locked,
            editor=user,
            previous={
                "version": locked.version,
                "data": locked.data,
                "source": locked.source,
                "note": locked.note,
            },
        )
        locked.version += 1
        locked.data = {name: data.get(name, "") for name in PROPOSAL_FIELDS}
        locked.card_set_id, locked.number, locked.card_id = (
            row["card_set_id"],
            row["number"],
            row["id"],
        )
        locked.source, locked.note = source, note
        locked.status = CardProposal.Status.PENDING
        locked.save()
        for side in scans or {}:
            # A new file of a side replaces the proposal's scan of it and any upload of it
            # still waiting (whose task then finds no row and does nothing).
            locked.scans.filter(side=side).delete()
            locked.scan_uploads.filter(side=side).delete()
        _store_scans(locked, scans)
        catalog_bump()
    return locked


def scan_printing_of(card_id: str, code: str):
    """The printing of the card a proposal's scans show, by its code ("" : none said), or
    ProposalError naming the field when the code is not one of that card's printings."""
    code = (code or "").strip()
    if not code:
        return None
    printing = Printing.objects.filter(code=code[:20], card_id=card_id).first()
    if printing is None:
        message = _("“%(code)s” is not a printing of %(card)s.") % {
            "code": code[:20],
            "card": card_id,
        }
        raise ProposalError([RowProblem(0, "scan_printing", message)])
    return printing


def _store_scans(proposal: CardProposal, scans: dict | None, printing=None) -> None:
    """Store each side's upload for the control worker (its header checked, nothing decoded)."""
    for side, upload in (scans or {}).items():
        try:
            scan_upload_store(upload=upload, side=side, proposal=proposal, printing=printing)
        except ScanError as exc:
            raise ProposalError([RowProblem(0, side, str(exc))]) from None


def scans_pending(proposal: CardProposal) -> bool:
    """Return whether any scan upload of the proposal is still waiting for the worker."""
    return proposal.scan_uploads.filter(status=ScanUpload.Status.PENDING).exists()


class ProposalChanged(Exception):
    """A review of a version of the proposal that is no longer the current one."""

    def __init__(self, proposal: CardProposal, seen: int):
        super().__init__(f"Proposal {proposal.pk} is at version {proposal.version}, not {seen}.")
        self.proposal = proposal
        self.seen = seen


def _lock_pending(proposal: CardProposal, seen_version: int | None = None) -> CardProposal:
    """Lock the proposal's row; refuse a review of another status or an older version.

    `seen_version` is the version the reviewer's page showed (None: whatever is current, for
    the proposer's own "apply at once" and the commands).
    """
    locked = CardProposal.objects.select_for_update().get(pk=proposal.pk)
    if locked.changeset_id is not None:
        raise ProposalError(
            [RowProblem(0, "", f"This card is reviewed with changeset {locked.changeset_id}.")]
        )
    if locked.status != CardProposal.Status.PENDING:
        raise ProposalError(
            [RowProblem(0, "", f"This proposal is {locked.get_status_display()} already.")]
        )
    if seen_version is not None and seen_version != locked.version:
        raise ProposalChanged(locked, seen_version)
    return locked


def check_reviewer(proposal: CardProposal, reviewer, *, accepting: bool) -> None:
    if accepting and proposal.proposer_id == reviewer.pk:
        if not is_trusted(reviewer):
            raise ProposalError(
                [RowProblem(0, "", "You cannot accept your own proposal; another editor must.")]
            )
        return
    if not is_editor(reviewer):
        raise ProposalError([RowProblem(0, "", "Only editors can review proposals.")])


def proposal_accept(
    *, proposal: CardProposal, reviewer, seen_version: int | None = None
) -> CardProposal:
    """Apply the proposal to its card in one transaction and record the revision.

    With `seen_version`, only that version of the proposal: ProposalChanged when it was edited
    since (the editor would otherwise apply data they never saw).
    """
    check_reviewer(proposal, reviewer, accepting=True)
    with transaction.atomic():
        locked = _lock_pending(proposal, seen_version)
        # An editor accepts only scans they could see: while one is being processed, wait.
        # The trusted proposer's own "apply at once" goes ahead; its scans join the card
        # when the worker has made them (catalog.scans._finish).
        if reviewer.pk != locked.proposer_id and scans_pending(locked):
            raise ProposalError(
                [
                    RowProblem(
                        0,
                        "",
                        _(
                            "A scan of this proposal is still being processed; "
                            "reload the page in a moment and review it then."
                        ),
                    )
                ]
            )
        row = proposal_check(locked.data)  # the catalog may have changed since it was sent
        row["source"] = locked.source
        apply_rows(
            [row],
            source=locked.source,
            proposed_by=locked.proposer,
            accepted_by=reviewer,
            proposal=locked,
        )
        card = Card.objects.get(id=row["id"])
        locked.scans.update(card=card)
        locked.status = CardProposal.Status.ACCEPTED
        locked.reviewer = reviewer
        locked.reviewed_at = timezone.now()
        locked.save()
    return locked


def _refuse(proposal, reviewer, reason: str, status, seen_version=None) -> CardProposal:
    check_reviewer(proposal, reviewer, accepting=False)
    reason = clean_text(reason, "reason", 2000, required=False)
    if not reason:
        raise ProposalError([RowProblem(0, "reason", "is required: tell the proposer why")])
    with transaction.atomic():
        locked = _lock_pending(proposal, seen_version)
        locked.status = status
        if status == CardProposal.Status.REJECTED:
            # A rejected proposal's scans are not kept: rows now, files once this commits.
            locked.scans.all().delete()
            locked.scan_uploads.all().delete()
        locked.reason = reason
        locked.reviewer = reviewer
        locked.reviewed_at = timezone.now()
        locked.save()
        catalog_bump()
    return locked


def proposal_reject(
    *, proposal: CardProposal, reviewer, reason: str, seen_version: int | None = None
) -> CardProposal:
    """Reject a pending proposal with a reason the proposer sees."""
    return _refuse(proposal, reviewer, reason, CardProposal.Status.REJECTED, seen_version)


def proposal_request_changes(
    *, proposal: CardProposal, reviewer, reason: str, seen_version: int | None = None
) -> CardProposal:
    """Send a pending proposal back to its proposer, saying what to change."""
    return _refuse(proposal, reviewer, reason, CardProposal.Status.CHANGES_REQUESTED, seen_version)


EDITOR_GROUPS = {
    "Card editors": ["review_proposal"],
    "Trusted card editors": ["review_proposal", "apply_own_proposal"],
}


def editor_groups_ensure(**kwargs) -> None:
    """Create the editor groups with their permissions (after migrate); admins add members."""
    from django.contrib.auth.models import Group, Permission

    for name, codenames in EDITOR_GROUPS.items():
        group, _ = Group.objects.get_or_create(name=name)
        perms = Permission.objects.filter(content_type__app_label="catalog", codename__in=codenames)
        group.permissions.add(*perms)
