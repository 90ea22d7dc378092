"""Scans: only decodable images within the limits, three sizes, no metadata kept."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageFile

from catalog.models import CardProposal, CardScan

pytestmark = pytest.mark.django_db

FORM = {
    "set": "BS",
    "number": "12",
    "name": "Real Striker",
    "kind": "player",
    "position": "FW",
    "shoot": "7",
    "source": "my own card",
}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def jpeg(size=(900, 1260), exif=True) -> bytes:
    image = Image.new("RGB", size, (30, 120, 60))
    out = io.BytesIO()
    kwargs = {}
    if exif:
        data = Image.Exif()
        data[0x010F] = "PhoneMaker"  # Make
        data[0x0132] = "2026:01:01 10:00:00"  # DateTime
        kwargs["exif"] = data.tobytes()
    image.save(out, format="JPEG", **kwargs)
    return out.getvalue()


def upload(content: bytes, name="front.jpg", kind="image/jpeg"):
    return SimpleUploadedFile(name, content, content_type=kind)


@pytest.fixture
def send(django_capture_on_commit_callbacks):
    """Post through a client and run what its commit queued: the scan processing task (run
    inline by the autouse fixture of tests/conftest.py, as the control worker would run it)."""

    def post(client, url, data, **extra):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(url, data, **extra)

    return post


def test_a_photo_is_kept_in_three_sizes_without_its_exif_data(alice_client, media, send):
    original = jpeg()
    assert Image.open(io.BytesIO(original)).getexif()  # the upload does carry EXIF
    response = send(alice_client, "/cards/propose/", {**FORM, "front": upload(original)})
    assert response.status_code == 302
    scan = CardScan.objects.get()
    assert (scan.side, scan.width, scan.height) == ("front", 900, 1260)
    widths = {}
    for name in ("thumbnail", "normal", "large"):
        stored = getattr(scan, name)
        assert (media / stored.name).exists()
        with Image.open(stored.path) as image:
            widths[name] = image.width
            assert not image.getexif() and "exif" not in image.info
    assert widths == {"thumbnail": 146, "normal": 488, "large": 745}
    assert scan.proposal == CardProposal.objects.get()


def test_a_file_that_is_not_an_image_is_refused_and_nothing_is_saved(alice_client):
    response = alice_client.post(
        "/cards/propose/", {**FORM, "front": upload(b"%PDF-1.4 not an image", "front.jpg")}
    )
    assert response.status_code == 400
    assert "not an image that can be read" in response.content.decode()
    assert not CardProposal.objects.exists() and not CardScan.objects.exists()


def test_a_truncated_image_is_refused(alice_client):
    response = alice_client.post("/cards/propose/", {**FORM, "back": upload(jpeg()[:400])})
    assert response.status_code == 400
    assert not CardProposal.objects.exists()


def test_an_image_over_the_byte_limit_is_refused(alice_client, settings):
    settings.SCAN_MAX_BYTES = 1000
    response = alice_client.post("/cards/propose/", {**FORM, "front": upload(jpeg())})
    assert response.status_code == 400
    assert "the limit is 1,000 bytes" in response.content.decode()
    assert not CardProposal.objects.exists()


def test_an_image_over_the_pixel_limit_is_refused(alice_client, settings):
    settings.SCAN_MAX_PIXELS = 100_000
    response = alice_client.post("/cards/propose/", {**FORM, "front": upload(jpeg())})
    assert response.status_code == 400
    assert "900×1260 pixels; the limit is 100,000 pixels" in response.content.decode()
    assert not CardProposal.objects.exists()


def test_a_small_png_of_huge_pixel_size_is_refused_from_its_header_without_decoding(
    alice_client, monkeypatch
):
    # The audit's file (issue #26): a 1-bit PNG of 6,300 × 6,300 px compresses to a few kB.
    out = io.BytesIO()
    Image.new("1", (6300, 6300)).save(out, format="PNG", optimize=True)
    content = out.getvalue()
    assert len(content) < 40_000

    def no_decoding(self, *args, **kwargs):
        raise AssertionError("the image was decoded before its pixel size was checked")

    monkeypatch.setattr(ImageFile.ImageFile, "load", no_decoding)
    monkeypatch.setattr(Image.Image, "load", no_decoding)
    response = alice_client.post("/cards/propose/", {**FORM, "front": upload(content, "f.png")})
    assert response.status_code == 400
    assert "6300×6300 pixels; the limit is 16,000,000 pixels" in response.content.decode()
    assert not CardProposal.objects.exists() and not CardScan.objects.exists()


def test_a_gif_is_refused_by_format(alice_client):
    out = io.BytesIO()
    Image.new("RGB", (20, 20)).save(out, format="GIF")
    response = alice_client.post("/cards/propose/", {**FORM, "front": upload(out.getvalue())})
    assert response.status_code == 400
    assert "GIF images are not accepted" in response.content.decode()


def test_an_accepted_scan_appears_on_the_card_page(alice, alice_client, bob, client, send):
    from catalog.contributions.services import proposal_accept

    send(alice_client, "/cards/propose/", {**FORM, "front": upload(jpeg())})
    bob.is_staff = True
    bob.save()
    proposal_accept(proposal=CardProposal.objects.get(), reviewer=bob)
    page = client.get("/cards/BS-012/").content.decode()
    scan = CardScan.objects.get()
    assert scan.card_id == "BS-012" and scan.normal_url in page and scan.thumbnail_url in page


def test_the_front_scan_is_shown_before_the_back(alice, alice_client, bob, client, send):
    from catalog.contributions.services import proposal_accept

    files = {"front": upload(jpeg()), "back": upload(jpeg(), name="back.jpg")}
    send(alice_client, "/cards/propose/", {**FORM, **files})
    front, back = (CardScan.objects.get(side=side) for side in ("front", "back"))
    assert back.created_at >= front.created_at  # the newest first would put the back first
    proposal = CardProposal.objects.get()
    page = alice_client.get(proposal.get_absolute_url()).content.decode()
    assert page.index(front.normal_url) < page.index(back.normal_url)
    bob.is_staff = True
    bob.save()
    proposal_accept(proposal=proposal, reviewer=bob)
    page = client.get("/cards/BS-012/").content.decode()
    assert page.index(front.normal_url) < page.index(back.normal_url)


def test_the_s3_setting_selects_django_storages(monkeypatch):
    import importlib

    import cardsite.settings as site_settings

    monkeypatch.setenv("SCAN_STORAGE", "s3")
    monkeypatch.setenv("S3_BUCKET", "cards")
    monkeypatch.setenv("S3_ENDPOINT_URL", "http://127.0.0.1:9000")
    try:
        reloaded = importlib.reload(site_settings)
        backend = reloaded.STORAGES["default"]
        assert backend["BACKEND"] == "storages.backends.s3.S3Storage"
        assert backend["OPTIONS"]["bucket_name"] == "cards"
        from storages.backends.s3 import S3Storage

        assert S3Storage(**backend["OPTIONS"]).bucket_name == "cards"
    finally:
        monkeypatch.delenv("SCAN_STORAGE")
        importlib.reload(site_settings)


def scan_files(media) -> list[str]:
    folder = media / "scans"
    return sorted(str(p.relative_to(media)) for p in folder.rglob("*")) if folder.exists() else []


def test_an_edit_that_replaces_a_scan_deletes_the_old_row_its_files_and_folder(
    alice_client, media, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post("/cards/propose/", {**FORM, "front": upload(jpeg())})
    old = CardScan.objects.get()
    assert len(scan_files(media)) == 4  # the folder and three sizes
    proposal = CardProposal.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(
            f"/proposals/{proposal.pk}/edit/", {**FORM, "front": upload(jpeg((800, 1120)))}
        )
    assert response.status_code == 302
    new = CardScan.objects.get()
    assert new.token != old.token and new.width == 800
    assert not (media / "scans" / old.token).exists()
    assert scan_files(media) == sorted(
        [f"scans/{new.token}"]
        + [getattr(new, size).name for size in ("thumbnail", "normal", "large")]
    )


def test_rejecting_a_proposal_deletes_its_scans_and_their_files(
    alice_client, bob, media, django_capture_on_commit_callbacks, send
):
    from catalog.contributions.services import proposal_reject

    files = {"front": upload(jpeg()), "back": upload(jpeg(), name="back.jpg")}
    send(alice_client, "/cards/propose/", {**FORM, **files})
    assert CardScan.objects.count() == 2 and len(scan_files(media)) == 8
    bob.is_staff = True
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        proposal_reject(proposal=CardProposal.objects.get(), reviewer=bob, reason="Not this set.")
    assert not CardScan.objects.exists()
    assert scan_files(media) == []


def test_asking_for_changes_keeps_the_scans(
    alice_client, bob, media, django_capture_on_commit_callbacks, send
):
    from catalog.contributions.services import proposal_request_changes

    send(alice_client, "/cards/propose/", {**FORM, "front": upload(jpeg())})
    bob.is_staff = True
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        proposal_request_changes(
            proposal=CardProposal.objects.get(), reviewer=bob, reason="Send the back too."
        )
    assert CardScan.objects.count() == 1 and len(scan_files(media)) == 4


def test_a_delete_rolled_back_keeps_the_files(
    alice_client, media, django_capture_on_commit_callbacks, send
):
    from django.db import transaction

    send(alice_client, "/cards/propose/", {**FORM, "front": upload(jpeg())})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            CardScan.objects.all().delete()
            raise RuntimeError("rolled back")
    assert callbacks == []
    assert CardScan.objects.count() == 1 and len(scan_files(media)) == 4


@pytest.fixture
def pending_scan(alice_client, send):
    send(alice_client, "/cards/propose/", {**FORM, "front": upload(jpeg())})
    return CardScan.objects.get()


def test_a_pending_proposals_scan_is_hidden_from_strangers(pending_scan, bob_client, client):
    url = pending_scan.large_url
    assert url == f"/scans/{pending_scan.token}/large.jpg"
    assert bob_client.get(url).status_code == 404
    assert client.get(url).status_code == 404


def test_the_proposer_and_editors_see_a_pending_proposals_scan(
    pending_scan, alice_client, bob, bob_client
):
    response = alice_client.get(pending_scan.normal_url)
    assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
    assert response["Cache-Control"] == "private, no-store"
    with Image.open(io.BytesIO(b"".join(response.streaming_content))) as image:
        assert image.width == 488
    bob.is_staff = True
    bob.save()
    assert bob_client.get(pending_scan.thumbnail_url).status_code == 200


def test_an_applied_cards_scan_is_public(pending_scan, bob, client):
    from catalog.contributions.services import proposal_accept

    bob.is_staff = True
    bob.save()
    proposal_accept(proposal=CardProposal.objects.get(), reviewer=bob)
    response = client.get(pending_scan.large_url)
    assert response.status_code == 200 and response["Cache-Control"] == "public, max-age=86400"


def test_the_storage_path_of_a_scan_is_not_served_even_with_serve_media(
    pending_scan, client, settings
):
    settings.SERVE_MEDIA = True
    assert client.get(f"/media/{pending_scan.large.name}").status_code == 404


def test_an_unknown_scan_or_size_is_a_404(pending_scan, alice_client):
    assert alice_client.get(f"/scans/{'0' * 32}/large.jpg").status_code == 404
    assert alice_client.get(f"/scans/{pending_scan.token}/huge.jpg").status_code == 404


@pytest.mark.parametrize(
    ("header", "prefix", "expected"),
    [
        ("X-Accel-Redirect", "/protected-media/", "/protected-media/{name}"),
        ("X-Sendfile", "/srv/cardlab/media", "/srv/cardlab/media/{name}"),
    ],
)
def test_behind_a_web_server_the_answer_names_the_file_in_a_header(
    pending_scan, alice_client, bob_client, settings, header, prefix, expected
):
    settings.SCAN_SENDFILE_HEADER = header
    settings.SCAN_SENDFILE_PREFIX = prefix
    response = alice_client.get(pending_scan.large_url)
    assert response.status_code == 200 and response.content == b""
    assert response[header] == expected.format(name=pending_scan.large.name)
    refused = bob_client.get(pending_scan.large_url)
    assert refused.status_code == 404 and header not in refused


def test_the_pixel_limit_is_refused_in_japanese_too(alice_client, settings):
    settings.SCAN_MAX_PIXELS = 100_000
    response = alice_client.post(
        "/cards/propose/", {**FORM, "front": upload(jpeg())}, HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert response.status_code == 400
    assert (
        "画像は 900×1260 ピクセルです。上限は 100,000 ピクセルです。" in response.content.decode()
    )
