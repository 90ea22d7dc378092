"""A set's layout pages (issue #25, 1.): the set's layout, marking it on a straightened scan,
a proposal's review (409 when it changed since), and the template pictures' visibility.

Photos are the synthetic ones of catalog/reading/synthetic.py, straightened by the real task
run inline (tests/conftest.py `readings_run_inline`).
"""

import io
import os
import shutil

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image

from catalog.reading import tools

MISSING = tools.missing_message()
pytestmark = [pytest.mark.skipif(MISSING is not None, reason=MISSING or ""), pytest.mark.django_db]

if MISSING is None:
    from catalog import readings
    from catalog.contributions import layouts
    from catalog.models import CardSet, LayoutProposal, ReadingJob, SetLayout
    from catalog.reading import synthetic


@pytest.fixture(scope="module")
def photos():
    if shutil.which("chromium") is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium (.ci/run installs it)")
        pytest.skip("headless chromium renders the synthetic faces (apt-get install chromium)")
    return synthetic.scans_and_photos(2, seed=5)[2]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def basic():
    return CardSet.objects.get(code="BS")


def editor_client(user, *codenames):
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def carol(django_user_model):
    return django_user_model.objects.create_user("carol", "carol@example.com", "correct-horse-3")


@pytest.fixture
def carol_client(carol):
    return editor_client(carol, "review_proposal")


def photo_file(data: bytes, name="card.jpg"):
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def png(width, height) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 200, 200)).save(out, "PNG")
    return out.getvalue()


def straightened(client, photo, capture) -> ReadingJob:
    """Send the photo through the marking page's plain form; the worker runs inline."""
    with capture(execute=True):
        response = client.post(reverse("catalog:layout-mark", args=["BS"]), {"photo": photo})
    assert response.status_code == 302, response.content[:400]
    token = response["Location"].split("job=")[1]
    job = ReadingJob.objects.get(token=token)
    assert job.status == ReadingJob.Status.DONE, job.message
    return job


def region_post(regions: dict, **extra) -> dict:
    data = {}
    for name, box in regions.items():
        for edge, value in zip(("left", "top", "right", "bottom"), box, strict=True):
            data[f"{name}-{edge}"] = str(value)
    return {"source": "my own card", **data, **extra}


@pytest.fixture
def job(alice_client, photos, django_capture_on_commit_callbacks):
    return straightened(alice_client, photo_file(photos[0]), django_capture_on_commit_callbacks)


@pytest.fixture
def proposal(job, alice, basic):
    return layouts.layout_proposal_create(
        proposer=alice, job=job, regions=layouts.generated_regions(basic), source="my own card"
    )


# ----- the set's layout page ----------------------------------------------------------------


def test_a_set_nobody_marked_says_so_and_offers_to_mark_it(anon_client):
    response = anon_client.get(reverse("catalog:set-layout", args=["BS"]))
    assert response.status_code == 200
    assert b'id="layout-none"' in response.content
    assert reverse("catalog:layout-mark", args=["BS"]).encode() in response.content


def test_the_set_and_grid_pages_link_to_the_layout(anon_client, alice_client):
    link = reverse("catalog:set-layout", args=["BS"]).encode()
    assert link in anon_client.get(reverse("catalog:set-detail", args=["BS"])).content
    assert link in alice_client.get(reverse("catalog:set-grid", args=["BS"])).content


def test_an_unknown_set_has_no_layout_page(anon_client):
    assert anon_client.get(reverse("catalog:set-layout", args=["ZZ"])).status_code == 404


def test_the_accepted_layout_is_drawn_with_its_history(proposal, carol, carol_client, anon_client):
    carol_client.post(
        reverse("catalog:layout-proposal-review", args=[proposal.pk]),
        {"action": "accept", "version": "1"},
    )
    response = anon_client.get(reverse("catalog:set-layout", args=["BS"]))
    body = response.content.decode()
    assert 'id="layout-version"' in body
    assert 'data-region="name"' in body and "Card name" in body
    assert "alice" in body and "carol" in body  # who marked, who accepted
    assert "JST" in body  # the time zone said
    template = anon_client.get(reverse("catalog:set-layout-template", args=["BS"]))
    assert template.status_code == 200 and template["Content-Type"] == "image/png"
    assert b"".join(template.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_layout_page_speaks_japanese(anon_client):
    response = anon_client.get(
        reverse("catalog:set-layout", args=["BS"]), HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert "まだ誰もこのセットのレイアウトを指定していません" in response.content.decode()


def test_pending_proposals_show_to_editors_and_their_proposer_only(
    proposal, alice_client, bob_client, carol_client
):
    url = reverse("catalog:set-layout", args=["BS"])
    link = proposal.get_absolute_url().encode()
    assert link in alice_client.get(url).content
    assert link in carol_client.get(url).content
    assert link not in bob_client.get(url).content


# ----- marking ------------------------------------------------------------------------------


def test_marking_needs_a_signed_in_user(anon_client):
    response = anon_client.get(reverse("catalog:layout-mark", args=["BS"]))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_straightened_card_is_shown_with_the_generated_regions_to_move(
    job, alice_client, basic
):
    url = reverse("catalog:layout-mark", args=["BS"])
    response = alice_client.get(url, {"job": job.token})
    body = response.content.decode()
    assert response.status_code == 200
    assert reverse("catalog:reading-job-card", args=[job.token]) in body
    start = layouts.generated_regions(basic)
    assert f'name="art-left" value="{start["art"][0]:.4f}"' in body
    assert 'name="reading-left" value=""' in body  # the generated faces have no kana reading


def test_someone_elses_job_is_not_found(job, bob_client):
    url = reverse("catalog:layout-mark", args=["BS"])
    assert bob_client.get(url, {"job": job.token}).status_code == 404
    assert bob_client.get(url, {"job": "\x00"}).status_code in (400, 404)


def test_marked_regions_become_a_pending_proposal(job, alice_client, basic):
    regions = layouts.generated_regions(basic)
    regions["reading"] = [0.1, 0.02, 0.6, 0.05]
    response = alice_client.post(
        reverse("catalog:layout-mark", args=["BS"]),
        region_post(regions, job=job.token, note="the kana above the name"),
    )
    proposal = LayoutProposal.objects.get()
    assert response.status_code == 302 and response["Location"] == proposal.get_absolute_url()
    assert proposal.status == LayoutProposal.Status.PENDING
    assert proposal.regions["reading"] == [0.1, 0.02, 0.6, 0.05]
    assert proposal.note == "the kana above the name"
    assert not SetLayout.objects.exists()


def test_a_trusted_editor_applies_their_layout_at_once(job, alice, basic):
    client = editor_client(alice, "review_proposal", "apply_own_proposal")
    response = client.post(
        reverse("catalog:layout-mark", args=["BS"]),
        region_post(layouts.generated_regions(basic), job=job.token, apply_now="1"),
    )
    assert response.status_code == 302
    assert SetLayout.objects.get(card_set=basic).version == 1


def test_applying_at_once_is_refused_to_others(job, alice_client, basic):
    response = alice_client.post(
        reverse("catalog:layout-mark", args=["BS"]),
        region_post(layouts.generated_regions(basic), job=job.token, apply_now="1"),
    )
    assert response.status_code == 400
    assert "Only trusted editors can apply at once." in response.content.decode()
    assert not LayoutProposal.objects.exists()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"art-right": "1.2"}, "Art: marked outside the card"),
        (
            {"number-left": "", "number-top": "", "number-right": "", "number-bottom": ""},
            "Card number: mark this region (it is required).",
        ),
        ({"name-top": "abc"}, "Card name: give four numbers"),
        ({"shoot-right": "0.0"}, "Shoot: empty or upside down"),
        ({"source": ""}, "Source: is required"),
    ],
)
def test_a_bad_layout_names_the_region_and_saves_nothing(job, alice_client, basic, change, said):
    data = region_post(layouts.generated_regions(basic), job=job.token) | change
    response = alice_client.post(reverse("catalog:layout-mark", args=["BS"]), data)
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not LayoutProposal.objects.exists()


def test_a_region_outside_the_card_is_named_in_japanese(job, alice_client, basic):
    data = region_post(layouts.generated_regions(basic), job=job.token) | {"art-right": "1.2"}
    response = alice_client.post(
        reverse("catalog:layout-mark", args=["BS"]), data, HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "イラスト: カードの外側" in body
    # Listed at the top, linked to its region's fields, which are marked.
    assert '<a href="#region-art">イラスト:' in body
    assert 'id="region-art" class="region-field has-error"' in body


def test_regions_without_a_straightened_scan_are_refused(alice_client, basic):
    response = alice_client.post(
        reverse("catalog:layout-mark", args=["BS"]),
        region_post(layouts.generated_regions(basic), job="0" * 32),
    )
    assert response.status_code == 400
    assert "send a scan first" in response.content.decode()
    assert not LayoutProposal.objects.exists()


def test_a_file_that_is_not_an_image_is_refused_and_saves_nothing(alice_client):
    upload = SimpleUploadedFile("notes.txt", b"not an image at all", content_type="text/plain")
    response = alice_client.post(reverse("catalog:layout-mark", args=["BS"]), {"photo": upload})
    assert response.status_code == 400
    assert "Scan or photo of the card:" in response.content.decode()
    assert 'aria-invalid="true"' in response.content.decode()
    assert not ReadingJob.objects.exists()


@pytest.mark.parametrize(
    ("size", "said"),
    [((1, 1), "1×1 pixels: too small"), ((20000, 20), "20000×20 pixels")],
    ids=["1x1", "20000-px-strip"],
)
def test_an_image_too_small_or_a_strip_is_not_straightened_and_saves_nothing(
    alice_client, django_capture_on_commit_callbacks, size, said
):
    upload = SimpleUploadedFile("card.png", png(*size), content_type="image/png")
    url = reverse("catalog:layout-mark", args=["BS"])
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(url, {"photo": upload})
    if response.status_code == 400:  # refused from its header already
        body = response.content.decode()
        assert not ReadingJob.objects.exists()
    else:
        assert ReadingJob.objects.get().status == ReadingJob.Status.FAILED
        body = alice_client.get(response["Location"]).content.decode()
        assert 'id="job-failed"' in body
    assert said in body
    assert not LayoutProposal.objects.exists()


def test_a_photo_with_no_card_says_it_could_not_be_straightened(
    alice_client, django_capture_on_commit_callbacks
):
    blank = io.BytesIO()
    Image.new("RGB", (800, 600), (90, 120, 90)).save(blank, "JPEG")
    url = reverse("catalog:layout-mark", args=["BS"])
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(url, {"photo": photo_file(blank.getvalue())})
    job = ReadingJob.objects.get()
    assert job.status == ReadingJob.Status.FAILED
    page = alice_client.get(response["Location"])
    body = page.content.decode()
    assert 'id="job-failed"' in body and "could not be straightened" in body
    japanese = alice_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "写真にカードが見つかりません" in japanese
    assert 'id="upload-form"' in body
    assert not LayoutProposal.objects.exists()


def test_a_job_still_reading_shows_its_progress(alice, alice_client, basic, monkeypatch, photos):
    monkeypatch.setattr(readings, "reading_publish", lambda job_id: None)  # the worker is busy
    job = readings.reading_job_create(
        user=alice, card_set=basic, kind=ReadingJob.Kind.STRAIGHTEN, upload=photo_file(photos[1])
    )
    response = alice_client.get(reverse("catalog:layout-mark", args=["BS"]), {"job": job.token})
    body = response.content.decode()
    assert 'id="job-progress"' in body and "<progress" in body
    assert 'http-equiv="refresh"' in body


def test_missing_tools_are_said_and_marking_is_not_offered(alice_client, monkeypatch):
    line = "Scan reading is off: OpenCV is missing."
    monkeypatch.setattr(readings, "tools_missing_said", lambda: line)
    response = alice_client.get(reverse("catalog:layout-mark", args=["BS"]))
    body = response.content.decode()
    assert line in body
    assert 'id="no-marking"' in body and "straightening needs OpenCV" in body
    assert 'id="upload-form"' not in body


# ----- a proposal and its review ------------------------------------------------------------


def test_a_pending_proposal_is_its_proposers_and_the_editors_only(
    proposal, alice_client, bob_client, carol_client, anon_client
):
    url = proposal.get_absolute_url()
    image = reverse("catalog:layout-template", args=[proposal.pk])
    assert alice_client.get(url).status_code == 200
    assert carol_client.get(url).status_code == 200
    assert bob_client.get(url).status_code == 404
    assert anon_client.get(url).status_code == 404
    assert alice_client.get(image).status_code == 200
    assert alice_client.get(image)["Cache-Control"] == "private, no-store"
    assert bob_client.get(image).status_code == 404


def test_the_template_is_never_served_at_the_storages_own_address(proposal, anon_client, settings):
    settings.SERVE_MEDIA = True
    response = anon_client.get(f"{settings.MEDIA_URL}{proposal.template.name}")
    assert response.status_code == 404


def test_the_review_queue_lists_pending_layouts(proposal, carol_client):
    response = carol_client.get(reverse("catalog:review-queue"))
    assert b'id="layout-queue"' in response.content
    assert proposal.get_absolute_url().encode() in response.content


def test_an_editor_accepts_the_version_they_saw(proposal, carol_client, basic):
    response = carol_client.get(proposal.get_absolute_url())
    assert b'name="version" value="1"' in response.content
    response = carol_client.post(
        reverse("catalog:layout-proposal-review", args=[proposal.pk]),
        {"action": "accept", "version": "1"},
    )
    assert response.status_code == 302
    layout = SetLayout.objects.get(card_set=basic)
    assert layout.version == 1 and layout.proposal_id == proposal.pk


def test_a_review_of_a_changed_layout_is_refused_with_409(proposal, alice, carol_client, basic):
    regions = layouts.generated_regions(basic)
    regions["art"] = [0.1, 0.2, 0.9, 0.6]
    layouts.layout_proposal_resubmit(
        proposal=proposal, editor=alice, regions=regions, source="my own card"
    )
    response = carol_client.post(
        reverse("catalog:layout-proposal-review", args=[proposal.pk]),
        {"action": "accept", "version": "1"},
    )
    assert response.status_code == 409
    assert "version 1 → 2" in response.content.decode()
    assert not SetLayout.objects.exists()
    proposal.refresh_from_db()
    assert proposal.status == LayoutProposal.Status.PENDING


def test_a_refusal_needs_a_reason(proposal, carol_client):
    response = carol_client.post(
        reverse("catalog:layout-proposal-review", args=[proposal.pk]),
        {"action": "reject", "version": "1", "reason": ""},
    )
    assert response.status_code == 400
    assert "Reason: is required" in response.content.decode()
    proposal.refresh_from_db()
    assert proposal.status == LayoutProposal.Status.PENDING


def test_a_user_cannot_review_nor_accept_their_own(proposal, alice_client, bob_client):
    url = reverse("catalog:layout-proposal-review", args=[proposal.pk])
    assert alice_client.post(url, {"action": "accept", "version": "1"}).status_code == 403
    assert bob_client.post(url, {"action": "accept", "version": "1"}).status_code == 404


def test_an_editor_cannot_accept_their_own_unless_trusted(job, alice, basic):
    client = editor_client(alice, "review_proposal")
    proposal = layouts.layout_proposal_create(
        proposer=alice, job=job, regions=layouts.generated_regions(basic), source="mine"
    )
    response = client.post(
        reverse("catalog:layout-proposal-review", args=[proposal.pk]),
        {"action": "accept", "version": "1"},
    )
    assert response.status_code == 400
    assert "another editor must" in response.content.decode()
    client.cookies["django_language"] = "ja"
    response = client.post(
        reverse("catalog:layout-proposal-review", args=[proposal.pk]),
        {"action": "accept", "version": "1"},
    )
    problems = response.content.decode().split('id="review-problems"')[1].split("</div>")[0]
    assert "自分の提案は承認できません" in problems
    assert not SetLayout.objects.exists()


def test_the_proposer_changes_it_after_changes_are_asked(
    proposal, alice_client, carol_client, basic
):
    carol_client.post(
        reverse("catalog:layout-proposal-review", args=[proposal.pk]),
        {"action": "changes", "version": "1", "reason": "the number box is too low"},
    )
    page = alice_client.get(proposal.get_absolute_url()).content.decode()
    assert "the number box is too low" in page and 'id="edit-button"' in page
    edit = reverse("catalog:layout-proposal-edit", args=[proposal.pk])
    form = alice_client.get(edit)
    assert form.status_code == 200
    assert reverse("catalog:layout-template", args=[proposal.pk]) in form.content.decode()
    regions = layouts.generated_regions(basic)
    regions["number"] = [0.1, 0.9, 0.3, 0.95]
    bad = alice_client.post(edit, region_post(regions) | {"number-bottom": "1.5"})
    assert bad.status_code == 400 and "Card number: marked outside the card" in bad.content.decode()
    response = alice_client.post(edit, region_post(regions))
    assert response.status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == LayoutProposal.Status.PENDING and proposal.version == 2
    assert proposal.regions["number"] == [0.1, 0.9, 0.3, 0.95]


def test_only_the_proposer_edits(proposal, bob_client, carol_client):
    edit = reverse("catalog:layout-proposal-edit", args=[proposal.pk])
    assert bob_client.get(edit).status_code == 404
    assert carol_client.get(edit).status_code == 404


def test_an_accepted_layout_is_public_with_its_template(proposal, carol_client, anon_client):
    carol_client.post(
        reverse("catalog:layout-proposal-review", args=[proposal.pk]),
        {"action": "accept", "version": "1"},
    )
    assert anon_client.get(proposal.get_absolute_url()).status_code == 200
    image = anon_client.get(reverse("catalog:layout-template", args=[proposal.pk]))
    assert image.status_code == 200 and image["Cache-Control"].startswith("public")


def test_the_layout_pages_in_japanese_have_no_english_ui_text(
    proposal, job, alice, carol, carol_client, basic
):
    from tests.test_japanese_pages import _data_words, english_in

    alice_ja = Client()
    alice_ja.force_login(alice)
    for client in (alice_ja, carol_client):
        client.cookies["django_language"] = "ja"
    allowed = _data_words() | {"my own card", "carol", "JST", "#"}
    mark = reverse("catalog:layout-mark", args=["BS"])
    bad = region_post(layouts.generated_regions(basic), job=job.token) | {"art-right": "1.2"}
    pages = [
        alice_ja.get(reverse("catalog:set-layout", args=["BS"])),
        alice_ja.get(mark),
        alice_ja.get(mark, {"job": job.token}),
        alice_ja.post(mark, bad),
        alice_ja.get(proposal.get_absolute_url()),
        alice_ja.get(reverse("catalog:layout-proposal-edit", args=[proposal.pk])),
        carol_client.get(proposal.get_absolute_url()),
        carol_client.post(
            reverse("catalog:layout-proposal-review", args=[proposal.pk]),
            {"action": "reject", "version": "1"},
        ),
        carol_client.get(reverse("catalog:review-queue")),
    ]
    for page in pages:
        assert page.status_code in (200, 400), page.status_code
        found = english_in(page.content.decode(), allowed)
        assert not found, (page.request["PATH_INFO"], found)
    carol_client.cookies["django_language"] = "en"
    english = carol_client.get(proposal.get_absolute_url())
    assert english_in(english.content.decode(), allowed)  # the net does catch English


def test_a_second_layout_is_compared_with_the_one_in_use(proposal, job, alice, carol_client, basic):
    carol_client.post(
        reverse("catalog:layout-proposal-review", args=[proposal.pk]),
        {"action": "accept", "version": "1"},
    )
    regions = layouts.generated_regions(basic)
    regions["number"] = [0.1, 0.9, 0.3, 0.95]
    second = layouts.layout_proposal_create(
        proposer=alice, job=job, regions=regions, source="a second copy"
    )
    assert second.base_version == 1
    body = carol_client.get(second.get_absolute_url()).content.decode()
    assert '<tr data-region="number" class="changed">' in body
    assert '<tr data-region="art" class="">' in body
    assert reverse("catalog:set-layout-template", args=["BS"]) + "?v=1" in body
    page = carol_client.get(reverse("catalog:set-layout", args=["BS"])).content.decode()
    assert second.get_absolute_url() in page.split('id="layout-pending"')[1]
