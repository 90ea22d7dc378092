"""Card scans: check an uploaded image, strip its metadata and make its three sizes once.

Only images Pillow can decode are kept (JPEG, PNG or WebP), within a byte and a pixel limit
(settings `SCAN_MAX_BYTES`, `SCAN_MAX_PIXELS`). Every size is re-encoded from the pixels alone,
so EXIF data (camera, GPS position, time) never reaches the storage. Files go through Django's
storage API: the filesystem by default, an S3-compatible store when `SCAN_STORAGE=s3`.
"""

import io
import secrets
import warnings

from django.conf import settings
from django.core.files.base import ContentFile
from PIL import Image, ImageOps, UnidentifiedImageError

from catalog.models import CardScan

FORMATS = {"JPEG", "PNG", "WEBP"}
# Widths of the three renditions (the aspect ratio of the upload is kept).
SIZES = {"thumbnail": 146, "normal": 488, "large": 745}


class ScanError(ValueError):
    """An upload that is not a card scan we keep; the message says why, for the user."""


def scan_check(upload) -> Image.Image:
    """Return the decoded, upright image of an upload, or raise ScanError saying what is wrong."""
    limit = settings.SCAN_MAX_BYTES
    if upload.size > limit:
        raise ScanError(
            f"The image is {upload.size:,} bytes; the limit is {limit:,} bytes "
            f"({limit // 1_000_000} MB)."
        )
    data = upload.read()
    upload.seek(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            probe = Image.open(io.BytesIO(data))
            if probe.format not in FORMATS:
                raise ScanError(
                    f"{probe.format} images are not accepted; upload a JPEG, PNG or WebP file."
                )
            pixels = probe.width * probe.height
            if pixels > settings.SCAN_MAX_PIXELS:
                raise ScanError(
                    f"The image is {probe.width}×{probe.height} pixels; the limit is "
                    f"{settings.SCAN_MAX_PIXELS:,} pixels."
                )
            probe.verify()
            image = Image.open(io.BytesIO(data))
            image.load()
    except ScanError:
        raise
    except (
        UnidentifiedImageError,
        OSError,
        SyntaxError,
        ValueError,
        Image.DecompressionBombError,
        Image.DecompressionBombWarning,
    ):
        raise ScanError("The file is not an image that can be read (JPEG, PNG or WebP).") from None
    return ImageOps.exif_transpose(image)


def _rendition(image: Image.Image, width: int) -> bytes:
    """Return the image scaled to `width` (never up) as a JPEG without any metadata."""
    copy = image.convert("RGB")
    if copy.width > width:
        copy = copy.resize((width, max(1, round(copy.height * width / copy.width))), Image.LANCZOS)
    # A fresh image from the pixels alone: no EXIF, ICC or comment survives.
    clean = Image.new("RGB", copy.size)
    clean.paste(copy)
    out = io.BytesIO()
    clean.save(out, format="JPEG", quality=88, optimize=True)
    return out.getvalue()


def scan_create(*, image: Image.Image, side: str, proposal) -> CardScan:
    """Store the three sizes of a checked image as a scan of the proposal."""
    scan = CardScan(
        token=secrets.token_hex(16),
        proposal=proposal,
        side=side,
        width=image.width,
        height=image.height,
    )
    for name, width in SIZES.items():
        getattr(scan, name).save(
            f"{side}-{name}.jpg", ContentFile(_rendition(image, width)), save=False
        )
    scan.save()
    return scan
