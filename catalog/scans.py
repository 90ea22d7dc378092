"""Card scans: check an uploaded image, strip its metadata and make its three sizes once.

Only images Pillow can decode are kept (JPEG, PNG or WebP), within a byte and a pixel limit
(settings `SCAN_MAX_BYTES`, `SCAN_MAX_PIXELS`). The format and the pixel size are read from the
file's header (`scan_probe`) before anything is decoded, so a small file that would decode to a
huge image is refused at once. Every size is re-encoded from the pixels alone, so EXIF data
(camera, GPS position, time) never reaches the storage. Files go through Django's storage API:
the filesystem by default, an S3-compatible store when `SCAN_STORAGE=s3`.

Decoding never happens on the request thread (issue #26): a request checks the header and
stores the raw bytes as a `ScanUpload` under scan-uploads/ (`scan_upload_store`); the control
worker's task (catalog.tasks.scan_process) calls `scan_upload_process`, which decodes within
`SCAN_PROCESS_SOFT_SECONDS`, makes the sizes, saves the CardScan and deletes the raw file. A
file that cannot be read, or takes too long, ends "failed" with a message and no CardScan.
"""

import contextlib
import io
import logging
import secrets
import signal
import threading
import warnings
from dataclasses import dataclass, field
from datetime import timedelta

from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models.signals import post_delete
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from catalog.models import CardProposal, CardScan, ScanUpload

log = logging.getLogger(__name__)

# Every scan's files live under this storage folder, one folder per scan token.
SCAN_PREFIX = "scans"
# Raw uploads waiting for the worker, one folder per upload token (catalog.models.ScanUpload).
UPLOAD_PREFIX = "scan-uploads"
# The task that processes an upload, sent by name on the control queue (catalog.tasks).
PROCESS_TASK = "catalog.tasks.scan_process"
EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
FORMATS = {"JPEG", "PNG", "WEBP"}
# What Pillow raises for a file it cannot read (or one over its own decompression-bomb limit).
UNREADABLE = (
    UnidentifiedImageError,
    OSError,
    SyntaxError,
    ValueError,
    Image.DecompressionBombError,
    Image.DecompressionBombWarning,
)
# Widths of the three renditions, largest first: each is made from the one before, so only the
# first resize reads the whole upload (the aspect ratio of the upload is kept).
SIZES = {"large": 745, "normal": 488, "thumbnail": 146}


class ScanError(ValueError):
    """An upload that is not a card scan we keep; the message says why, for the user."""


def _unreadable() -> ScanError:
    return ScanError(_("The file is not an image that can be read (JPEG, PNG or WebP)."))


def scan_probe(upload) -> str:
    """Check an upload's byte size, and its format and pixel size from its header alone.

    Return the format; raise ScanError saying what is wrong. Nothing is decoded here.
    """
    limit = settings.SCAN_MAX_BYTES
    if upload.size > limit:
        raise ScanError(
            _("The image is %(size)s bytes; the limit is %(limit)s bytes (%(mb)s MB).")
            % {"size": f"{upload.size:,}", "limit": f"{limit:,}", "mb": limit // 1_000_000}
        )
    upload.seek(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            probe = Image.open(upload)  # reads the header only
            fmt, width, height = probe.format, probe.width, probe.height
    except UNREADABLE:
        raise _unreadable() from None
    finally:
        upload.seek(0)
    if fmt not in FORMATS:
        raise ScanError(
            _("%(format)s images are not accepted; upload a JPEG, PNG or WebP file.")
            % {"format": fmt}
        )
    if width * height > settings.SCAN_MAX_PIXELS:
        raise ScanError(
            _("The image is %(width)s×%(height)s pixels; the limit is %(limit)s pixels.")
            % {"width": width, "height": height, "limit": f"{settings.SCAN_MAX_PIXELS:,}"}
        )
    return fmt


def scan_decode(data: bytes) -> Image.Image:
    """Return the decoded, upright image of checked bytes, or raise ScanError if unreadable."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            Image.open(io.BytesIO(data)).verify()
            image = Image.open(io.BytesIO(data))
            image.load()
    except UNREADABLE:
        raise _unreadable() from None
    return ImageOps.exif_transpose(image)


def _renditions(image: Image.Image) -> dict[str, bytes]:
    """Return each size of the image (never scaled up) as a JPEG without any metadata."""
    copy = image.convert("RGB")
    out = {}
    for name, width in SIZES.items():
        if copy.width > width:
            height = max(1, round(copy.height * width / copy.width))
            # reducing_gap: a fast box reduction first, then Lanczos on at most 3× the size.
            copy = copy.resize((width, height), Image.LANCZOS, reducing_gap=3.0)
        # A fresh image from the pixels alone: no EXIF, ICC or comment survives.
        clean = Image.new("RGB", copy.size)
        clean.paste(copy)
        buffer = io.BytesIO()
        clean.save(buffer, format="JPEG", quality=88, optimize=True)
        out[name] = buffer.getvalue()
    return out


def scan_create(
    *,
    image: Image.Image,
    side: str,
    proposal,
    sizes: dict[str, bytes] | None = None,
    card_id: str | None = None,
    printing=None,
) -> CardScan:
    """Store the three sizes of a checked image (made here unless given) as a scan of the
    proposal, and of the card when it is given (a proposal accepted already)."""
    scan = CardScan(
        token=secrets.token_hex(16),
        proposal=proposal,
        card_id=card_id,
        printing=printing,
        side=side,
        width=image.width,
        height=image.height,
    )
    for name, content in (sizes or _renditions(image)).items():
        getattr(scan, name).save(f"{side}-{name}.jpg", ContentFile(content), save=False)
    scan.save()
    return scan


def scan_upload_store(*, upload, side: str, proposal, printing=None) -> ScanUpload:
    """Check an upload's header (nothing is decoded), store its bytes for the control worker
    and queue its processing once the transaction commits; raise ScanError if it is refused."""
    fmt = scan_probe(upload)
    row = ScanUpload(
        token=secrets.token_hex(16),
        proposal=proposal,
        side=side,
        printing=printing,
        name=(getattr(upload, "name", "") or "")[-200:],
    )
    upload.seek(0)
    row.raw.save(f"{side}.{EXTENSIONS[fmt]}", File(upload), save=False)
    row.save()
    pk = row.pk
    # Looked up when the transaction commits (tests run the task inline by replacing it).
    transaction.on_commit(lambda: scan_publish(pk))
    return row


def scan_publish(upload_id: int) -> None:
    """Send an upload's processing task on the control queue. A broker that cannot be reached
    leaves the upload pending: `scan_orphans --delete` ends it as failed after --min-age."""
    try:
        current_app.send_task(PROCESS_TASK, args=(upload_id,), queue=settings.CONTROL_QUEUE)
    except Exception as exc:  # the proposal is saved; only its scan waits
        log.error("Scan upload %s not queued: %s", upload_id, exc)


@contextlib.contextmanager
def scan_deadline(seconds: float):
    """Raise SoftTimeLimitExceeded in the block once `seconds` have passed.

    Celery enforces its time limits in a prefork pool only; the control worker runs the solo
    pool, so the task sets its own alarm (on the main thread, where signals are delivered).
    Pillow decodes block by block from Python, so the alarm is seen between blocks.
    """
    usable = (
        seconds > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def expired(signum, frame):
        raise SoftTimeLimitExceeded(f"scan processing passed {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _too_slow() -> str:
    return _(
        "Processing the image took longer than %(seconds)s seconds and was stopped; "
        "send a smaller or simpler file (a JPEG photo of the card)."
    ) % {"seconds": settings.SCAN_PROCESS_SOFT_SECONDS}


def _raw_delete(name: str) -> None:
    if name:
        default_storage.delete(name)
        folder = name.rsplit("/", 1)[0]
        try:
            if default_storage.exists(folder):
                default_storage.delete(folder)
        except OSError as exc:
            log.warning("Scan upload folder %s not removed: %s", folder, exc)


def _failure_texts() -> dict[str, str]:
    return {
        ScanUpload.Reason.UNREADABLE: str(_unreadable()),
        ScanUpload.Reason.SLOW: _too_slow(),
        ScanUpload.Reason.MISSING: _("The uploaded file was not found; send the scan again."),
        ScanUpload.Reason.STALE: _(
            "The scan was not processed in time (the worker was not running); send it again."
        ),
    }


def failure_said(upload: ScanUpload) -> str:
    """Return why an upload failed, in the active language."""
    return _failure_texts().get(upload.reason, upload.message)


def _fail(upload_id: int, reason: str):
    with translation.override("en"):  # the stored sentence, for the admin and the logs
        message = _failure_texts()[reason]
    return _finish(upload_id, status=ScanUpload.Status.FAILED, reason=reason, message=message)


def _finish(
    upload_id: int, *, status: str, reason: str = "", message: str = "", image=None, sizes=None
):
    """Record an upload's outcome under a lock: the scan (done) or the message (failed)."""
    with transaction.atomic():
        row = ScanUpload.objects.select_for_update().filter(pk=upload_id).first()
        if row is None or row.status != ScanUpload.Status.PENDING:
            return row  # deleted (proposal rejected or replaced) or done by another delivery
        proposal = CardProposal.objects.select_for_update().get(pk=row.proposal_id)
        if status == ScanUpload.Status.DONE:
            accepted = proposal.status == CardProposal.Status.ACCEPTED
            # A newer scan of the side replaces the proposal's older one (an edit sent it).
            proposal.scans.filter(side=row.side, card__isnull=True).delete()
            row.scan = scan_create(
                image=image,
                side=row.side,
                proposal=proposal,
                sizes=sizes,
                card_id=proposal.card_id if accepted else None,
                printing=row.printing,
            )
        raw, row.raw = row.raw.name, ""
        row.status, row.reason, row.message = status, reason, message[:400]
        row.save()
        transaction.on_commit(lambda: _raw_delete(raw))
        return row


def scan_upload_process(upload_id: int) -> ScanUpload | None:
    """Decode a pending upload, make its sizes and save its CardScan; or record why not.

    Idempotent: an upload no longer pending (or deleted) is left as it is. The decoding and
    resizing run within `SCAN_PROCESS_SOFT_SECONDS` (`scan_deadline`; Celery's own soft limit
    in a prefork pool raises the same SoftTimeLimitExceeded): past it the upload ends failed.
    """
    row = ScanUpload.objects.filter(pk=upload_id).first()
    if row is None or row.status != ScanUpload.Status.PENDING:
        return row
    try:
        with default_storage.open(row.raw.name, "rb") as handle:
            data = handle.read()
    except (OSError, ValueError):
        return _fail(upload_id, ScanUpload.Reason.MISSING)
    try:
        with scan_deadline(settings.SCAN_PROCESS_SOFT_SECONDS):
            image = scan_decode(data)
            sizes = _renditions(image)
    except ScanError:  # scan_decode's one refusal: the pixels cannot be read
        return _fail(upload_id, ScanUpload.Reason.UNREADABLE)
    except SoftTimeLimitExceeded:
        log.warning("Scan upload %s: processing passed the soft time limit", upload_id)
        return _fail(upload_id, ScanUpload.Reason.SLOW)
    return _finish(upload_id, status=ScanUpload.Status.DONE, image=image, sizes=sizes)


def scan_folder(token: str) -> str:
    """Return the storage folder holding a scan's files (`catalog.models.scan_path`)."""
    return f"{SCAN_PREFIX}/{token}"


def scan_files_delete(*, names: list[str], folder: str) -> None:
    """Delete a scan's files and then its folder through the storage API.

    On S3 there are no folders, only keys: the folder is then simply not found.
    """
    for name in names:
        if name:
            default_storage.delete(name)
    try:
        if default_storage.exists(folder):
            default_storage.delete(folder)  # the filesystem storage removes the empty folder
    except OSError as exc:  # something else was put there; the orphan command reports it
        log.warning("Scan folder %s not removed: %s", folder, exc)


def _scan_deleted(sender, instance: CardScan, **kwargs) -> None:
    # Once the deleting transaction commits: a rolled-back delete keeps its files.
    names = [getattr(instance, size).name for size in SIZES]
    folder = scan_folder(instance.token)
    transaction.on_commit(lambda: scan_files_delete(names=names, folder=folder))


def _upload_deleted(sender, instance: ScanUpload, **kwargs) -> None:
    name = instance.raw.name
    if name:
        transaction.on_commit(lambda: _raw_delete(name))


def connect_signals() -> None:
    """Delete a scan's files whenever its row is deleted (replaced, rejected, cascaded), and
    an upload's raw file whenever its row is."""
    post_delete.connect(_scan_deleted, sender=CardScan, dispatch_uid="catalog.scan_files")
    post_delete.connect(_upload_deleted, sender=ScanUpload, dispatch_uid="catalog.scan_uploads")


@dataclass
class ScanOrphans:
    """What the storage and the scan rows disagree on (`scan_orphans`)."""

    files: list[str] = field(default_factory=list)  # stored under scans/ with no scan row
    folders: list[str] = field(default_factory=list)  # scan folders of no scan row
    rows: list[CardScan] = field(default_factory=list)  # scan rows missing a file
    uploads: list[str] = field(default_factory=list)  # stored under scan-uploads/ with no row
    stale: list[ScanUpload] = field(default_factory=list)  # pending for longer than min_age


def _listdir(folder: str) -> tuple[list[str], list[str]]:
    try:
        return default_storage.listdir(folder)
    except FileNotFoundError:
        return [], []


def scan_orphans(*, min_age: timedelta = timedelta(hours=1)) -> ScanOrphans:
    """Return files under the scans folder no row names, and rows whose files are missing.

    Files younger than `min_age` are left out: a scan being stored writes its files before its
    row is saved.
    """
    found = ScanOrphans()
    rows = {scan.token: scan for scan in CardScan.objects.all()}
    named = {getattr(scan, size).name for scan in rows.values() for size in SIZES}
    stored = set()
    cutoff = timezone.now() - min_age
    folders, loose = _listdir(SCAN_PREFIX)
    candidates = [f"{SCAN_PREFIX}/{name}" for name in loose]
    for token in folders:
        folder = scan_folder(token)
        files = [f"{folder}/{name}" for name in _listdir(folder)[1]]
        stored.update(files)
        candidates += files
        if token not in rows and not files:
            found.folders.append(folder)
    for name in sorted(candidates):
        if name not in named and default_storage.get_modified_time(name) < cutoff:
            found.files.append(name)
    found.rows = [
        scan
        for token, scan in sorted(rows.items())
        if any(getattr(scan, size).name not in stored for size in SIZES)
    ]
    _upload_orphans(found, cutoff)
    return found


def _upload_orphans(found: ScanOrphans, cutoff) -> None:
    """Raw uploads no ScanUpload row names (a row deleted before its file was), empty upload
    folders of no row, and uploads still pending since before `cutoff` (never processed: the
    broker or the control worker was down when they were sent)."""
    uploads = ScanUpload.objects.all()
    named = {row.raw.name for row in uploads if row.raw.name}
    tokens = {row.token for row in uploads}
    folders, loose = _listdir(UPLOAD_PREFIX)
    candidates = [f"{UPLOAD_PREFIX}/{name}" for name in loose]
    for token in folders:
        folder = f"{UPLOAD_PREFIX}/{token}"
        files = [f"{folder}/{name}" for name in _listdir(folder)[1]]
        candidates += files
        if token not in tokens and not files:
            found.folders.append(folder)
    found.uploads = [
        name
        for name in sorted(candidates)
        if name not in named and default_storage.get_modified_time(name) < cutoff
    ]
    found.stale = list(
        ScanUpload.objects.filter(status=ScanUpload.Status.PENDING, created_at__lt=cutoff)
    )


def scan_orphans_delete(orphans: ScanOrphans) -> None:
    """Delete the orphan files and empty folders, and the rows missing a file (with the files
    they still have)."""
    for name in orphans.files + orphans.uploads:
        default_storage.delete(name)
    left = {name.rsplit("/", 1)[0] for name in orphans.files + orphans.uploads}
    for folder in left | set(orphans.folders):
        if folder not in (SCAN_PREFIX, UPLOAD_PREFIX) and not any(_listdir(folder)):
            scan_files_delete(names=[], folder=folder)
    for scan in orphans.rows:
        scan.delete()
    for upload in orphans.stale:
        _fail(upload.pk, ScanUpload.Reason.STALE)


@dataclass
class ScanSweep:
    requeued: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)


def scans_requeue(now=None) -> ScanSweep:
    """Send again the uploads still pending long after they were sent; end the hopeless ones.

    A scan sent while the broker was down, or whose message a killed control worker took with
    it, would otherwise wait until an operator ran `scan_orphans --delete`. Celery beat runs
    this on the control queue (CELERY_BEAT_SCHEDULE). An upload pending for more than
    SCAN_REQUEUE_SECONDS is sent again (its `updated_at` moves, so the next sweep waits as
    long again); a second copy is harmless, as processing is idempotent (`_finish` locks the
    row and skips one no longer pending). Past SCAN_GIVE_UP_SECONDS since it was uploaded it
    ends failed as never processed, and the proposer is asked to send it again.
    """
    now = now or timezone.now()
    sweep = ScanSweep()
    pending = ScanUpload.objects.filter(status=ScanUpload.Status.PENDING)
    give_up = now - timedelta(seconds=settings.SCAN_GIVE_UP_SECONDS)
    for upload_id in pending.filter(created_at__lt=give_up).values_list("pk", flat=True):
        _fail(upload_id, ScanUpload.Reason.STALE)
        sweep.failed.append(upload_id)
    waited = now - timedelta(seconds=settings.SCAN_REQUEUE_SECONDS)
    for upload_id in pending.filter(updated_at__lt=waited).values_list("pk", flat=True):
        # Claim the re-send: a concurrent sweep that finds the row moved sends nothing.
        if pending.filter(pk=upload_id, updated_at__lt=waited).update(updated_at=now):
            transaction.on_commit(lambda upload_id=upload_id: scan_publish(upload_id))
            sweep.requeued.append(upload_id)
    if sweep.requeued or sweep.failed:
        log.warning(
            "Scan uploads sent again: %s; ended as never processed: %s",
            sweep.requeued,
            sweep.failed,
        )
    return sweep
