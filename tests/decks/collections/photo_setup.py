"""A set ready for photo recognition, for the photo to collection tests: the Basic Set's
layout marked by an editor on a straightened synthetic photo, and approved front scans of the
synthetic cards (catalog/reading/synthetic.py), as tests/catalog/reading/test_jobs.py makes
them. Reading jobs run inline when they commit (tests/conftest.py `readings_run_inline`)."""

import contextlib
import io
import os
import secrets
import shutil

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from catalog.models import CardSet, ReadingJob
from catalog.reading import tools

MISSING = tools.missing_message()


def skip_without_tools():
    if MISSING and os.environ.get("CI"):
        pytest.fail(f"CI must have the reading tools (.ci/run installs them): {MISSING}")
    if MISSING:
        pytest.skip(MISSING)
    if shutil.which("chromium") is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium (.ci/run installs it)")
        pytest.skip("headless chromium renders the synthetic faces (apt-get install chromium)")


def synthetic_cards(n: int, seed: int = 11):
    """(cards, approved scans, phone photos) of the first n synthetic Basic Set cards."""
    from catalog.reading import synthetic

    return synthetic.scans_and_photos(n, seed=seed)


def jpeg_file(data: bytes, name: str = "photo.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def make_set_ready(editor, cards, scans, photo: bytes, capture=None) -> None:
    """Mark the Basic Set's layout (straightened from `photo`, accepted by `editor`) and give
    each card its approved front scan. `capture`: django_capture_on_commit_callbacks, in a test
    whose transactions do not really commit."""
    import cv2
    from django.contrib.auth.models import Permission
    from PIL import Image

    from catalog import readings
    from catalog.contributions import layouts
    from catalog.scans import scan_create

    basic = CardSet.objects.get(code="BS")
    run = (lambda: capture(execute=True)) if capture else contextlib.nullcontext
    with run():
        job = readings.reading_job_create(
            user=editor, card_set=basic, kind=ReadingJob.Kind.STRAIGHTEN, upload=jpeg_file(photo)
        )
    job.refresh_from_db()
    assert job.status == ReadingJob.Status.DONE, job.message
    proposal = layouts.layout_proposal_create(
        proposer=editor, job=job, regions=layouts.generated_regions(basic), source="my own card"
    )
    editor.user_permissions.add(
        *Permission.objects.filter(codename__in=["review_proposal", "apply_own_proposal"])
    )
    editor = type(editor).objects.get(pk=editor.pk)
    layouts.layout_proposal_accept(proposal=proposal, reviewer=editor, seen_version=1)
    for card, scan in zip(cards, scans, strict=True):
        png = cv2.imencode(".png", scan)[1].tobytes()
        image = Image.open(io.BytesIO(png)).convert("RGB")
        scan_create(image=image, side="front", proposal=None, card_id=card.id)


def done_job(user, cards, *, best=True, why="too_close", set_code="BS") -> ReadingJob:
    """A finished recognise job whose result offers `cards` (lists of 3 card ids), one each."""
    found = []
    for place, ids in enumerate(cards, start=1):
        found.append(
            {
                "place": place,
                "best": ids[0] if best else None,
                "reason": "" if best else "Too close to call",
                "why": "" if best else why,
                "box": [0.1, 0.1, 0.3, 0.3],
                "top": [{"card": c, "distance": 10 + i * 20} for i, c in enumerate(ids)],
            }
        )
    return ReadingJob.objects.create(
        token=secrets.token_hex(16),
        user=user,
        card_set=CardSet.objects.get(code=set_code),
        kind=ReadingJob.Kind.RECOGNISE,
        status=ReadingJob.Status.DONE,
        progress=100,
        result={"layout": "x", "references": 3, "cards": found},
    )
