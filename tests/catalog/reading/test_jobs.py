"""Reading jobs and set layouts (issue #25): the worker reads, the request only stores.

Through the services (catalog.readings, catalog.contributions.layouts) with the real task run
inline when the job commits (tests/conftest.py `readings_run_inline`), on synthetic photos of
the app's own faces (catalog/reading/synthetic.py). Pages are tested with them
(tests/catalog/reading/test_pages*.py).
"""

import io
import os
import random
import shutil
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from catalog.reading import tools

MISSING = tools.missing_message()
if MISSING and os.environ.get("CI"):
    pytest.fail(f"CI must have the reading tools (.ci/run installs them): {MISSING}", pytrace=False)
pytestmark = [pytest.mark.skipif(MISSING is not None, reason=MISSING or ""), pytest.mark.django_db]

if MISSING is None:
    import cv2
    from PIL import Image

    from catalog import readings
    from catalog.contributions import layouts
    from catalog.contributions.services import ProposalError
    from catalog.models import CardScan, CardSet, LayoutProposal, ReadingJob, SetLayout
    from catalog.reading import synthetic
    from catalog.scans import scan_create

N = 6


@pytest.fixture(scope="module")
def synthetic_set():
    if shutil.which("chromium") is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium (.ci/run installs it)")
        pytest.skip("headless chromium renders the synthetic faces (apt-get install chromium)")
    return synthetic.scans_and_photos(N, seed=11)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def jpeg_file(data: bytes, name="photo.jpg"):
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def encode(image) -> bytes:
    return cv2.imencode(".png", image)[1].tobytes()


def run_job(capture, **kwargs):
    with capture(execute=True):
        job = readings.reading_job_create(**kwargs)
    job.refresh_from_db()
    return job


@pytest.fixture
def basic():
    return CardSet.objects.get(code="BS")


@pytest.fixture
def marked(basic, alice, synthetic_set, django_capture_on_commit_callbacks):
    """The Basic Set's layout, marked by alice on a straightened photo, applied by an editor."""
    from django.contrib.auth.models import Permission

    _cards, scans, photos = synthetic_set
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=jpeg_file(photos[0]),
    )
    assert job.status == ReadingJob.Status.DONE, job.message
    proposal = layouts.layout_proposal_create(
        proposer=alice,
        job=job,
        regions=layouts.generated_regions(basic),
        source="my own card",
    )
    alice.user_permissions.add(
        *Permission.objects.filter(codename__in=["review_proposal", "apply_own_proposal"])
    )
    alice = type(alice).objects.get(pk=alice.pk)
    layouts.layout_proposal_accept(proposal=proposal, reviewer=alice, seen_version=1)
    return SetLayout.objects.get(card_set=basic)


def test_straightening_keeps_the_card_upright_for_marking(
    basic, alice, synthetic_set, django_capture_on_commit_callbacks
):
    _cards, _scans, photos = synthetic_set
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=jpeg_file(photos[1]),
    )
    assert job.status == ReadingJob.Status.DONE
    assert job.result == {"width": 500, "height": 700}
    assert not job.raw  # the photo is not kept
    image = Image.open(io.BytesIO(readings.image_png(job)))
    assert image.size == (500, 700)
    assert job.cpu_seconds is not None


def test_reading_needs_a_marked_layout_and_saves_nothing(basic, alice, synthetic_set):
    _cards, _scans, photos = synthetic_set
    with pytest.raises(readings.ReadingRefused, match="mark the set's layout"):
        readings.reading_job_create(
            user=alice, card_set=basic, kind=ReadingJob.Kind.READ, upload=jpeg_file(photos[0])
        )
    assert not ReadingJob.objects.exists()


def test_a_read_scan_fills_the_fields_with_a_confidence_each(
    marked, basic, alice, synthetic_set, django_capture_on_commit_callbacks
):
    cards, _scans, photos = synthetic_set
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.READ,
        upload=jpeg_file(photos[2]),
    )
    assert job.status == ReadingJob.Status.DONE, job.message
    fields = job.result["fields"]
    assert set(fields) >= {"name", "number", "shoot", "keep", "defense"}
    for field in fields.values():
        assert 0 <= field["confidence"] <= 100
        # under the threshold a field is left empty, never guessed (issue #25, 2.)
        if field["confidence"] < job.result["threshold"]:
            assert field["value"] == ""
    if fields["number"]["value"]:
        assert int(fields["number"]["value"]) == cards[2].number
    state = readings.job_state(job)
    assert state["status"] == "done" and state["result"] == job.result


def test_a_photo_is_recognised_among_the_approved_scans_of_the_set(
    marked, basic, alice, synthetic_set, django_capture_on_commit_callbacks
):
    cards, scans, photos = synthetic_set
    for card, scan in zip(cards, scans, strict=True):
        image = Image.open(io.BytesIO(encode(scan))).convert("RGB")
        scan_create(image=image, side="front", proposal=None, card_id=card.id)
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.RECOGNISE,
        upload=jpeg_file(photos[3]),
    )
    assert job.status == ReadingJob.Status.DONE, job.message
    assert job.result["references"] == N
    (found,) = job.result["cards"]
    assert found["top"][0]["card"] == cards[3].id
    assert found["best"] in (cards[3].id, None)
    # the hashes were kept on the scans, with the layout they were made with
    assert CardScan.objects.filter(art_hash_key=marked.key).count() == N


def test_a_binder_page_is_split_into_its_cards(
    marked, basic, alice, synthetic_set, django_capture_on_commit_callbacks
):
    cards, scans, _photos = synthetic_set
    for card, scan in zip(cards, scans, strict=True):
        image = Image.open(io.BytesIO(encode(scan))).convert("RGB")
        scan_create(image=image, side="front", proposal=None, card_id=card.id)
    page = synthetic.binder_page(scans, random.Random(3), columns=3)
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.RECOGNISE,
        upload=jpeg_file(page),
    )
    assert job.status == ReadingJob.Status.DONE, job.message
    assert [c["top"][0]["card"] for c in job.result["cards"]] == [c.id for c in cards]


def test_a_photo_with_no_card_fails_with_a_message(
    basic, alice, django_capture_on_commit_callbacks
):
    out = io.BytesIO()
    Image.new("RGB", (800, 600), (120, 130, 140)).save(out, "JPEG")
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=jpeg_file(out.getvalue()),
    )
    assert job.status == ReadingJob.Status.FAILED
    assert "No card found" in readings.job_state(job)["message"]
    assert not job.raw


@pytest.mark.parametrize(
    "content, message",
    [
        (b"%PDF-1.4 not an image", "not an image"),
        (b"", "empty"),
    ],
)
def test_a_file_that_is_not_a_photo_is_refused_at_the_door(basic, alice, content, message):
    with pytest.raises(readings.ReadingRefused):
        readings.reading_job_create(
            user=alice,
            card_set=basic,
            kind=ReadingJob.Kind.STRAIGHTEN,
            upload=jpeg_file(content),
        )
    assert not ReadingJob.objects.exists()


def test_a_user_cannot_queue_more_than_the_pending_limit(basic, alice, settings):
    settings.READING_PENDING_MAX = 2
    out = io.BytesIO()
    Image.new("RGB", (700, 980), (200, 200, 200)).save(out, "JPEG")
    for _ in range(2):  # not committed: the jobs stay pending
        readings.reading_job_create(
            user=alice,
            card_set=CardSet.objects.get(code="BS"),
            kind=ReadingJob.Kind.STRAIGHTEN,
            upload=jpeg_file(out.getvalue()),
        )
    with pytest.raises(readings.ReadingRefused, match="waiting to be read"):
        readings.reading_job_create(
            user=alice,
            card_set=basic,
            kind=ReadingJob.Kind.STRAIGHTEN,
            upload=jpeg_file(out.getvalue()),
        )
    assert ReadingJob.objects.count() == 2


def test_reading_past_its_time_bound_ends_failed_with_a_message(
    basic, alice, synthetic_set, monkeypatch, django_capture_on_commit_callbacks
):
    from celery.exceptions import SoftTimeLimitExceeded

    def endless(job, data):
        raise SoftTimeLimitExceeded("passed")

    monkeypatch.setitem(readings.READERS, ReadingJob.Kind.STRAIGHTEN, endless)
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=jpeg_file(synthetic_set[2][0]),
    )
    assert job.status == ReadingJob.Status.FAILED
    assert "took longer than" in readings.job_state(job)["message"]


def test_the_sweep_sends_again_then_gives_up_and_deletes_old_jobs(basic, alice, settings):
    out = io.BytesIO()
    Image.new("RGB", (700, 980), (200, 200, 200)).save(out, "JPEG")
    job = readings.reading_job_create(
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=jpeg_file(out.getvalue()),
    )
    now = timezone.now()
    ReadingJob.objects.filter(pk=job.pk).update(updated_at=now - timedelta(seconds=200))
    sweep = readings.readings_sweep(now)
    assert sweep.requeued == [job.pk] and sweep.failed == []
    later = now + timedelta(seconds=settings.READING_GIVE_UP_SECONDS + 1)
    sweep = readings.readings_sweep(later)
    assert sweep.failed == [job.pk]
    job.refresh_from_db()
    assert job.status == ReadingJob.Status.FAILED and job.reason == ReadingJob.Reason.STALE
    sweep = readings.readings_sweep(later + timedelta(days=settings.READING_KEEP_DAYS + 1))
    assert sweep.deleted == 1 and not ReadingJob.objects.exists()


# --- layouts: marked, checked, reviewed ---------------------------------------------------------


def test_a_region_marked_outside_the_card_is_refused_naming_it(
    basic, alice, synthetic_set, django_capture_on_commit_callbacks
):
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=jpeg_file(synthetic_set[2][0]),
    )
    regions = layouts.generated_regions(basic)
    regions["shoot"] = [0.5, 0.9, 1.3, 0.95]
    with pytest.raises(ProposalError) as caught:
        layouts.layout_proposal_create(proposer=alice, job=job, regions=regions, source="mine")
    assert caught.value.problems[0].field == "shoot"
    assert "outside the card" in str(caught.value)
    assert not LayoutProposal.objects.exists()


def test_someone_elses_straightened_scan_cannot_be_marked(
    basic, alice, bob, synthetic_set, django_capture_on_commit_callbacks
):
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=jpeg_file(synthetic_set[2][0]),
    )
    with pytest.raises(ProposalError):
        layouts.layout_proposal_create(
            proposer=bob, job=job, regions=layouts.generated_regions(basic), source="x"
        )


def test_a_layout_is_reviewed_like_a_card_change(
    basic, alice, bob, synthetic_set, django_capture_on_commit_callbacks
):
    from django.contrib.auth.models import Permission

    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=jpeg_file(synthetic_set[2][0]),
    )
    proposal = layouts.layout_proposal_create(
        proposer=alice, job=job, regions=layouts.generated_regions(basic), source="mine"
    )
    with pytest.raises(ProposalError):  # alice may not accept her own
        layouts.layout_proposal_accept(proposal=proposal, reviewer=alice)
    bob.user_permissions.add(Permission.objects.get(codename="review_proposal"))
    bob = type(bob).objects.get(pk=bob.pk)
    layouts.layout_proposal_request_changes(
        proposal=proposal, reviewer=bob, reason="the name box is too low", seen_version=1
    )
    regions = layouts.generated_regions(basic)
    regions["name"] = [0.05, 0.1, 0.95, 0.2]
    proposal = layouts.layout_proposal_resubmit(
        proposal=proposal, editor=alice, regions=regions, source="mine"
    )
    assert proposal.version == 2 and proposal.status == LayoutProposal.Status.PENDING
    with pytest.raises(layouts.LayoutChanged):  # bob saw version 1
        layouts.layout_proposal_accept(proposal=proposal, reviewer=bob, seen_version=1)
    layouts.layout_proposal_accept(proposal=proposal, reviewer=bob, seen_version=2)
    layout = SetLayout.objects.get(card_set=basic)
    assert layout.version == 1 and layout.regions["name"] == [0.05, 0.1, 0.95, 0.2]
    assert list(layouts.layout_history(basic)) == [proposal]
    assert readings.layout_in_use(basic).template.shape[:2] == (700, 500)


# --- the JSON doors -----------------------------------------------------------------------------


def test_the_job_door_reads_a_photo_for_its_owner_only(
    alice_client, bob_client, synthetic_set, django_capture_on_commit_callbacks
):
    photo = jpeg_file(synthetic_set[2][0])
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(
            "/reading/jobs/", {"set": "BS", "kind": "straighten", "photo": photo}
        )
    assert response.status_code == 202, response.content
    url = response.json()["url"]
    state = alice_client.get(url).json()
    assert state["status"] == "done" and state["image"].endswith("card.png")
    assert alice_client.get(state["image"])["Content-Type"] == "image/png"
    assert bob_client.get(url).status_code == 404
    assert bob_client.get(state["image"]).status_code == 404


@pytest.mark.parametrize(
    "data, field",
    [
        ({"set": "NOPE", "kind": "read"}, "set"),
        ({"set": "BS\x00", "kind": "read"}, None),  # refused at the request's edge
        ({"set": "BS", "kind": "guess"}, "kind"),
        ({"set": "BS", "kind": "straighten"}, "photo"),
        ({"set": "BS", "kind": "read", "photo": b"x"}, "set"),  # no layout marked yet
    ],
)
def test_the_job_door_refuses_bad_input_naming_the_field(alice_client, data, field):
    if "photo" in data:
        data = {**data, "photo": jpeg_file(data["photo"])}
    response = alice_client.post("/reading/jobs/", data, HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["message"]
    assert [e["field"] for e in body["errors"]] == ([field] if field else [])
    assert not ReadingJob.objects.exists()


def test_the_job_door_asks_to_sign_in(anon_client):
    response = anon_client.post("/reading/jobs/", {"set": "BS", "kind": "straighten"})
    assert response.status_code == 403 and response.json()["message"]


def test_a_failed_reading_is_said_in_the_language_of_whoever_reads_it(
    basic, alice, django_capture_on_commit_callbacks
):
    from django.utils import translation

    out = io.BytesIO()
    Image.new("RGB", (11_000, 100), (120, 130, 140)).save(out, "PNG")
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=SimpleUploadedFile("strip.png", out.getvalue(), content_type="image/png"),
    )
    assert job.status == ReadingJob.Status.FAILED
    assert "11000×100 pixels: a strip" in job.message  # stored in English for the admin
    with translation.override("ja"):
        said = readings.job_state(job)["message"]
    assert "11000×100 ピクセル" in said and "細長い帯" in said


def test_a_region_outside_the_card_is_named_in_japanese():
    from django.utils import translation

    from catalog.reading.errors import ReadingError
    from catalog.reading.layout import Layout, generated_face_layout

    regions = generated_face_layout("BS").as_dict()["regions"]
    regions["keep"] = [0.2, 0.8, 1.4, 0.9]
    with pytest.raises(ReadingError) as caught:
        Layout.from_dict({"set": "BS", "regions": regions})
    assert "keep box region is marked outside the card" in str(caught.value)
    with translation.override("ja"):  # said when shown, in the reader's language
        assert "キープ欄 の領域がカードの外" in str(caught.value)


def test_marked_layouts_count_against_the_daily_proposal_limit(
    basic, alice, settings, synthetic_set, django_capture_on_commit_callbacks
):
    settings.PROPOSALS_PER_DAY = 1
    job = run_job(
        django_capture_on_commit_callbacks,
        user=alice,
        card_set=basic,
        kind=ReadingJob.Kind.STRAIGHTEN,
        upload=jpeg_file(synthetic_set[2][0]),
    )
    regions = layouts.generated_regions(basic)
    layouts.layout_proposal_create(proposer=alice, job=job, regions=regions, source="mine")
    with pytest.raises(ProposalError, match="proposals a day"):
        layouts.layout_proposal_create(proposer=alice, job=job, regions=regions, source="mine")
    assert LayoutProposal.objects.count() == 1
