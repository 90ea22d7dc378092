"""Card scans: check an uploaded image, strip its metadata and make its three sizes once.

Only images Pillow can decode are kept (JPEG, PNG or WebP), within a byte and a pixel limit
(settings `SCAN_MAX_BYTES`, `SCAN_MAX_PIXELS`). The format and the pixel size are read from the
file's header (`scan_probe`) before anything is decoded, so a small file that would decode to a
huge image is refused at once. Every size is re-encoded from the pixels alone, so EXIF data
(camera, GPS position, time) never reaches the storage. Files go through Django's storage API:
the filesystem by default, an S3-compatible store when `SCAN_STORAGE=s3`.
"""

import io
import logging
import secrets
import warnings
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models.signals import post_delete
from django.utils import timezone
from django.utils.translation import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from catalog.models import CardScan

log = logging.getLogger(__name__)

# Every scan's files live under this storage folder, one folder per scan token.
SCAN_PREFIX = "scans"
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


def scan_check(upload) -> Image.Image:
    """Return the decoded, upright image of an upload, or raise ScanError saying what is wrong."""
    scan_probe(upload)
    data = upload.read()
    upload.seek(0)
    return scan_decode(data)


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


def scan_create(*, image: Image.Image, side: str, proposal) -> CardScan:
    """Store the three sizes of a checked image as a scan of the proposal."""
    scan = CardScan(
        token=secrets.token_hex(16),
        proposal=proposal,
        side=side,
        width=image.width,
        height=image.height,
    )
    for name, content in _renditions(image).items():
        getattr(scan, name).save(f"{side}-{name}.jpg", ContentFile(content), save=False)
    scan.save()
    return scan


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


def connect_signals() -> None:
    """Delete a scan's files whenever its row is deleted (replaced, rejected, cascaded)."""
    post_delete.connect(_scan_deleted, sender=CardScan, dispatch_uid="catalog.scan_files")


@dataclass
class ScanOrphans:
    """What the storage and the scan rows disagree on (`scan_orphans`)."""

    files: list[str] = field(default_factory=list)  # stored under scans/ with no scan row
    folders: list[str] = field(default_factory=list)  # scan folders of no scan row
    rows: list[CardScan] = field(default_factory=list)  # scan rows missing a file


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
    return found


def scan_orphans_delete(orphans: ScanOrphans) -> None:
    """Delete the orphan files and empty folders, and the rows missing a file (with the files
    they still have)."""
    for name in orphans.files:
        default_storage.delete(name)
    for folder in {name.rsplit("/", 1)[0] for name in orphans.files} | set(orphans.folders):
        if folder != SCAN_PREFIX and not any(_listdir(folder)):
            scan_files_delete(names=[], folder=folder)
    for scan in orphans.rows:
        scan.delete()
