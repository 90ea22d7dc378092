"""Reading jobs: a photo or scan read by the control worker, never on the request thread (#25).

A request checks the file's header (catalog.scans.scan_probe: type, bytes, pixels), the tools
(catalog.reading.tools), the set's layout and the user's limits, then stores the raw bytes as
a `ReadingJob` (`reading_job_create`) and sends `catalog.tasks.reading_run` on the control queue
once the transaction commits. The worker (`reading_job_process`) runs one of three readings
within `READING_SOFT_SECONDS`:

- straighten: find the card, straighten it to CARD_WIDTH×CARD_HEIGHT and keep that PNG, the
  picture a user marks a set's layout on (catalog.layouts);
- read: read the set layout's fields, each with a confidence; a field under the threshold
  comes back empty (the grid leaves it empty and highlighted, issue #25, 2.);
- recognise: split the photo into its cards (a binder page holds 9) and match each card's art
  against the set's approved scans: the top 3, or an abstention with its reason and its `why`
  word ("too_close", "unlike", "no_references") for a page to say in its own language, and
  each card's `box` in the photo (fractions of its size) for a page to show the user's crop
  (3.; the photo to collection page is decks.collections.photo_views).

The page polls the job (`job_state`) for its progress and then its result; a job that runs
past its time ends failed with a message, and `readings_sweep` (celery beat, with the scan
sweep) sends again or ends the jobs a lost message left pending.
"""

import logging
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta

from celery import current_app
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from catalog.models import CardScan, CardSet, ReadingJob, SetLayout
from catalog.scans import EXTENSIONS, ScanError, scan_deadline, scan_probe

log = logging.getLogger(__name__)

RUN_TASK = "catalog.tasks.reading_run"
UPLOAD_PREFIX = "reading-uploads"


class ReadingRefused(ValueError):
    """A reading that cannot be started; the message says why, for the user."""

    def __init__(self, message: str, *, field: str = "photo"):
        super().__init__(message)
        self.field = field


# -- the set's layout ------------------------------------------------------------------------


@dataclass(frozen=True)
class LayoutInUse:
    """A set's accepted layout ready for the reading pipeline: regions, template, cache key."""

    layout: object  # catalog.reading.layout.Layout
    template: object  # numpy BGR array of the straightened card it was marked on, or None
    key: str


def layout_in_use(card_set: CardSet) -> LayoutInUse | None:
    """Return the set's accepted layout for reading, or None if nobody has marked one."""
    from catalog.reading.layout import Layout

    row = SetLayout.objects.filter(card_set=card_set).first()
    if row is None:
        return None
    layout = Layout.from_dict({"set": card_set.code, "regions": row.regions})
    return LayoutInUse(layout=layout, template=_template(row), key=row.key)


def _template(row: SetLayout):
    import cv2
    import numpy as np

    try:
        with default_storage.open(row.template.name, "rb") as handle:
            data = np.frombuffer(handle.read(), dtype=np.uint8)
    except (OSError, ValueError):
        log.warning("The template of %s is missing; reading without aligning", row)
        return None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return image


@dataclass(frozen=True)
class SetReadiness:
    """Whether a set's cards can be recognised from a photo: a marked layout and approved
    front scans to compare with (the photo to collection page lists the ready sets first)."""

    card_set: CardSet
    has_layout: bool
    scans: int  # cards of the set with an approved front scan

    @property
    def ready(self) -> bool:
        return self.has_layout and self.scans > 0


def sets_for_recognition() -> list[SetReadiness]:
    """Every set with its readiness for recognition: the ready ones first, each group in the
    catalog's order."""
    from django.db.models import Count

    laid_out = set(SetLayout.objects.values_list("card_set_id", flat=True))
    per_set = (
        CardScan.objects.filter(side=CardScan.Side.FRONT)
        .exclude(card=None)
        .values("card__card_set_id")
        .annotate(cards=Count("card", distinct=True))
    )
    scanned = {row["card__card_set_id"]: row["cards"] for row in per_set}
    rows = [
        SetReadiness(card_set=s, has_layout=s.pk in laid_out, scans=scanned.get(s.pk, 0))
        for s in CardSet.objects.order_by("display_order")
    ]
    return sorted(rows, key=lambda row: not row.ready)  # stable: catalog order within each


# -- creating a job (the request) ------------------------------------------------------------


def jobs_pending(user) -> int:
    return ReadingJob.objects.filter(
        user=user, status__in=[ReadingJob.Status.PENDING, ReadingJob.Status.RUNNING]
    ).count()


def jobs_today(user) -> int:
    since = timezone.now() - timedelta(days=1)
    return ReadingJob.objects.filter(user=user, created_at__gte=since).count()


def reading_check(card_set: CardSet, kind: str) -> None:
    """Refuse a reading the worker could not do: tools missing, or (for reading and
    recognising) a set whose layout nobody has marked yet."""
    from catalog.reading import tools

    missing = tools.missing_message()
    if missing:
        raise ReadingRefused(tools_missing_said())
    if (
        kind != ReadingJob.Kind.STRAIGHTEN
        and not SetLayout.objects.filter(card_set=card_set).exists()
    ):
        raise ReadingRefused(
            _(
                "Nobody has marked where the fields are on cards of %(set)s yet: mark the set's "
                "layout on one scan first."
            )
            % {"set": card_set.code},
            field="set",
        )


def tools_missing_said() -> str | None:
    """One line, in the reader's language, naming what is missing for reading; None if all is."""
    from catalog.reading import tools

    missing = tools.missing_message()
    if missing is None:
        return None
    if "Python package" in missing:
        return _(
            "Scan reading is off: its Python packages are missing (make setup installs them); "
            "fill the grid by hand."
        )
    if "Japanese" in missing:
        return _(
            "Scan reading is off: Tesseract has no Japanese data "
            "(apt-get install tesseract-ocr-jpn); fill the grid by hand."
        )
    return _(
        "Scan reading is off: Tesseract is not installed "
        "(apt-get install tesseract-ocr tesseract-ocr-jpn); fill the grid by hand."
    )


def reading_job_create(*, user, card_set: CardSet, kind: str, upload) -> ReadingJob:
    """Check the upload's header, the tools, the layout and the user's limits; store the raw
    file and queue its reading once the transaction commits. Raise ReadingRefused (nothing
    saved) when any of them refuses."""
    if kind not in ReadingJob.Kind.values:
        raise ReadingRefused(_("Unknown kind of reading."), field="kind")
    reading_check(card_set, kind)
    try:
        fmt = scan_probe(upload)
    except ScanError as exc:
        raise ReadingRefused(str(exc)) from None
    with transaction.atomic():
        # Lock the user's row: one user's concurrent uploads are counted one after the other.
        get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").get()
        if jobs_pending(user) >= settings.READING_PENDING_MAX:
            raise ReadingRefused(
                _(
                    "You have %(n)s photos waiting to be read already; wait for them to finish "
                    "before sending more."
                )
                % {"n": settings.READING_PENDING_MAX}
            )
        if jobs_today(user) >= settings.READING_PER_DAY:
            raise ReadingRefused(
                _("You can have %(n)s photos read a day; try again tomorrow.")
                % {"n": settings.READING_PER_DAY}
            )
        job = ReadingJob(
            token=secrets.token_hex(16),
            user=user,
            card_set=card_set,
            kind=kind,
            name=(getattr(upload, "name", "") or "")[-200:],
        )
        upload.seek(0)
        job.raw.save(f"photo.{EXTENSIONS[fmt]}", File(upload), save=False)
        job.save()
        pk = job.pk
        transaction.on_commit(lambda: reading_publish(pk))
    return job


def reading_publish(job_id: int) -> None:
    """Send a job's task on the control queue. A broker that cannot be reached leaves the job
    pending: `readings_sweep` sends it again, and ends it failed when it waited too long."""
    try:
        current_app.send_task(RUN_TASK, args=(job_id,), queue=settings.CONTROL_QUEUE)
    except Exception as exc:  # the job is saved; only its reading waits
        log.error("Reading job %s not queued: %s", job_id, exc)


# -- the worker ------------------------------------------------------------------------------


def _failure_texts() -> dict[str, str]:
    return {
        ReadingJob.Reason.SLOW: _(
            "Reading the photo took longer than %(seconds)s seconds and was stopped; send a "
            "smaller photo, or fewer cards in it."
        )
        % {"seconds": settings.READING_SOFT_SECONDS},
        ReadingJob.Reason.MISSING: _("The uploaded photo was not found; send it again."),
        ReadingJob.Reason.STALE: _(
            "The photo was not read in time (the worker was not running); send it again."
        ),
        ReadingJob.Reason.NO_LAYOUT: _(
            "The set's layout is not marked (or was removed); mark it, then send the photo again."
        ),
    }


def failure_said(job: ReadingJob) -> str:
    """Why a job failed, in the active language (a bad-input message is the pipeline's own)."""
    if job.reason == ReadingJob.Reason.TOOLS:
        return tools_missing_said() or job.message
    error = (job.result or {}).get("error") if isinstance(job.result, dict) else None
    if job.reason == ReadingJob.Reason.BAD_INPUT and isinstance(error, dict):
        from catalog.reading.errors import say

        return say(str(error.get("template", "")), error.get("params") or {})
    return _failure_texts().get(job.reason, job.message)


def _progress(job_id: int, percent: int) -> None:
    ReadingJob.objects.filter(pk=job_id, status=ReadingJob.Status.RUNNING).update(
        progress=percent, updated_at=timezone.now()
    )


def _raw_delete(name: str) -> None:
    if name:
        try:
            default_storage.delete(name)
        except OSError as exc:
            log.warning("Reading upload %s not removed: %s", name, exc)


def _finish(job_id: int, *, status: str, reason="", message="", result=None, image=None, cpu=None):
    """Record a job's outcome under a lock; delete its raw photo once this commits."""
    with transaction.atomic():
        job = ReadingJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.finished:
            return job
        if image is not None:
            job.image.save("card.png", ContentFile(image), save=False)
        raw, job.raw = job.raw.name, ""
        job.status, job.reason, job.message = status, reason, str(message)[:400]
        job.result = result
        job.progress = 100
        job.cpu_seconds = cpu
        job.save()
        transaction.on_commit(lambda: _raw_delete(raw))
    return job


def _fail(job_id: int, reason: str, message: str = "", cpu=None, error=None):
    if not message:
        with translation.override("en"):  # the stored sentence, for the admin and the logs
            message = _failure_texts()[reason]
    result = {"error": error} if error else None
    return _finish(
        job_id,
        status=ReadingJob.Status.FAILED,
        reason=reason,
        message=message,
        cpu=cpu,
        result=result,
    )


def reading_job_process(job_id: int) -> ReadingJob | None:
    """Read a pending job's photo; record its result or why it failed. Idempotent: a job no
    longer pending (finished, or running in another delivery) is left as it is."""
    from catalog.reading import tools
    from catalog.reading.errors import ReadingError

    claimed = ReadingJob.objects.filter(pk=job_id, status=ReadingJob.Status.PENDING).update(
        status=ReadingJob.Status.RUNNING, progress=5, updated_at=timezone.now()
    )
    job = ReadingJob.objects.filter(pk=job_id).select_related("card_set").first()
    if not claimed or job is None:
        return job
    if not tools.available():
        return _fail(job_id, ReadingJob.Reason.TOOLS, tools.missing_message())
    try:
        with default_storage.open(job.raw.name, "rb") as handle:
            data = handle.read()
    except (OSError, ValueError):
        return _fail(job_id, ReadingJob.Reason.MISSING)
    started = time.process_time()
    try:
        with scan_deadline(settings.READING_SOFT_SECONDS):
            outcome = READERS[job.kind](job, data)
    except ReadingError as exc:
        # Kept as its template and values, said in the language of whoever reads the page.
        said = {"template": exc.template, "params": exc.params, "field": exc.field}
        with translation.override("en"):
            english = exc.said()
        return _fail(
            job_id, ReadingJob.Reason.BAD_INPUT, english, time.process_time() - started, said
        )
    except _NoLayout:
        return _fail(job_id, ReadingJob.Reason.NO_LAYOUT)
    except SoftTimeLimitExceeded:
        log.warning("Reading job %s passed its soft time limit", job_id)
        return _fail(job_id, ReadingJob.Reason.SLOW, cpu=time.process_time() - started)
    result, image = outcome
    return _finish(
        job_id,
        status=ReadingJob.Status.DONE,
        result=result,
        image=image,
        cpu=time.process_time() - started,
    )


class _NoLayout(Exception):
    pass


def _layout(job: ReadingJob) -> LayoutInUse:
    in_use = layout_in_use(job.card_set)
    if in_use is None:
        raise _NoLayout
    return in_use


def _straighten(job: ReadingJob, data: bytes):
    import cv2

    from catalog.reading import straighten

    image = straighten.load_image(data)
    _progress(job.pk, 40)
    card = straighten.straighten(image, straighten.largest(straighten.find_cards(image)))
    ok, png = cv2.imencode(".png", card)
    height, width = card.shape[:2]
    return {"width": width, "height": height}, png.tobytes() if ok else None


def _read(job: ReadingJob, data: bytes):
    from catalog.reading import ocr, pipeline

    in_use = _layout(job)
    _progress(job.pk, 20)
    fields = pipeline.read_scan(data, in_use.layout, template=in_use.template)
    return {
        "threshold": ocr.THRESHOLD,
        "layout": in_use.key,
        "fields": {
            name: {"value": f.value, "confidence": f.confidence, "read": f.read}
            for name, f in fields.items()
        },
    }, None


def _recognise(job: ReadingJob, data: bytes):
    from catalog.reading import pipeline

    in_use = _layout(job)
    references = reference_hashes(job.card_set, in_use)
    _progress(job.pk, 40)
    found = pipeline.recognise(data, in_use.layout, references, template=in_use.template)
    cards = []
    for place, card in enumerate(found, start=1):
        match = card.match
        cards.append(
            {
                "place": place,
                "best": match.best,
                "reason": match.reason,
                "why": match.why,
                "box": list(card.box),
                "top": [{"card": card_id, "distance": distance} for card_id, distance in match.top],
            }
        )
    return {"layout": in_use.key, "references": len(references), "cards": cards}, None


READERS = {
    ReadingJob.Kind.STRAIGHTEN: _straighten,
    ReadingJob.Kind.READ: _read,
    ReadingJob.Kind.RECOGNISE: _recognise,
}


def reference_hashes(card_set: CardSet, in_use: LayoutInUse) -> dict:
    """Card id → art hash of each card of the set with an approved front scan.

    A scan's hash is made once per layout version and kept on the scan (CardScan.art_hash);
    a scan is straightened first when it is a photo of the card rather than a flat scan.
    """
    import numpy as np

    scans = (
        CardScan.objects.filter(card__card_set=card_set, side=CardScan.Side.FRONT)
        .exclude(card=None)
        .order_by("card_id", "-created_at", "-id")
    )
    hashes = {}
    for scan in scans:
        if scan.card_id in hashes:
            continue  # the newest scan of a card stands for it
        if scan.art_hash_key != in_use.key or not scan.art_hash:
            digest = _scan_hash(scan, in_use)
            if digest is None:
                continue
            scan.art_hash, scan.art_hash_key = digest, in_use.key
            CardScan.objects.filter(pk=scan.pk).update(art_hash=digest, art_hash_key=in_use.key)
        bits = np.unpackbits(np.frombuffer(bytes.fromhex(scan.art_hash), dtype=np.uint8))
        hashes[scan.card_id] = bits.astype(bool)
    return hashes


def _scan_hash(scan: CardScan, in_use: LayoutInUse) -> str | None:
    import cv2
    import numpy as np

    from catalog.reading import phash, pipeline, straighten
    from catalog.reading.errors import ReadingError
    from catalog.reading.layout import CARD_HEIGHT, CARD_WIDTH

    try:
        with default_storage.open(scan.normal.name, "rb") as handle:
            data = handle.read()
        image = straighten.load_image(data)
    except (OSError, ValueError, ReadingError):
        log.warning("Scan %s cannot be read for its art hash", scan.token)
        return None
    try:
        quads = straighten.find_cards(image, most=1)
        card = pipeline.upright(image, quads[0], in_use.layout, in_use.template)
    except ReadingError:  # a flat scan: the image is the card
        card = cv2.resize(image, (CARD_WIDTH, CARD_HEIGHT), interpolation=cv2.INTER_AREA)
    bits = phash.art_hash(card, in_use.layout)
    return np.packbits(bits.astype(np.uint8)).tobytes().hex()


# -- what the page polls ---------------------------------------------------------------------


def job_state(job: ReadingJob) -> dict:
    """The job as the polling page sees it: status, progress, then its result or message."""
    state = {
        "token": job.token,
        "kind": job.kind,
        "status": job.status,
        "status_said": job.get_status_display(),
        "progress": job.progress,
        "name": job.name,
        "set": job.card_set_id,
    }
    if job.status == ReadingJob.Status.DONE:
        state["result"] = job.result
    elif job.status == ReadingJob.Status.FAILED:
        state["message"] = failure_said(job)
    return state


# -- lost messages ---------------------------------------------------------------------------


@dataclass
class ReadingSweep:
    requeued: list
    failed: list
    deleted: int = 0


def readings_sweep(now=None) -> ReadingSweep:
    """Send again the jobs left pending, end the hopeless ones (celery beat, control queue).

    Pending past READING_REQUEUE_SECONDS: sent again (processing is idempotent: the worker
    claims a pending job with one UPDATE). Pending or running past READING_GIVE_UP_SECONDS
    (a worker killed mid-reading): failed as never processed, the user asked to send again.
    Finished jobs older than READING_KEEP_DAYS are deleted with their files (a marked layout
    keeps its own copy of the straightened card).
    """
    now = now or timezone.now()
    sweep = ReadingSweep(requeued=[], failed=[])
    open_jobs = ReadingJob.objects.filter(
        status__in=[ReadingJob.Status.PENDING, ReadingJob.Status.RUNNING]
    )
    give_up = now - timedelta(seconds=settings.READING_GIVE_UP_SECONDS)
    for job_id in open_jobs.filter(updated_at__lt=give_up).values_list("pk", flat=True):
        _fail(job_id, ReadingJob.Reason.STALE)
        sweep.failed.append(job_id)
    waited = now - timedelta(seconds=settings.READING_REQUEUE_SECONDS)
    pending = ReadingJob.objects.filter(status=ReadingJob.Status.PENDING, updated_at__lt=waited)
    for job_id in pending.values_list("pk", flat=True):
        if pending.filter(pk=job_id).update(updated_at=now):
            transaction.on_commit(lambda job_id=job_id: reading_publish(job_id))
            sweep.requeued.append(job_id)
    keep = now - timedelta(days=settings.READING_KEEP_DAYS)
    for job in ReadingJob.objects.filter(updated_at__lt=keep).exclude(
        status__in=[ReadingJob.Status.PENDING, ReadingJob.Status.RUNNING]
    ):
        names = [job.raw.name, job.image.name]
        job.delete()
        transaction.on_commit(lambda names=names: [_raw_delete(n) for n in names])
        sweep.deleted += 1
    return sweep


def image_png(job: ReadingJob) -> bytes:
    """The straightened card a straighten job kept, as PNG bytes."""
    with default_storage.open(job.image.name, "rb") as handle:
        return handle.read()
