"""A scan per row of a changeset (issue #24 item 1): sent with the set grid's rows, checked by
header on the request, processed by the control worker's task (issue #26), shown on the
changeset page and applied with the accepted cards; refused whole, naming the row, past the
caps."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from catalog.models import CardScan, Changeset, ScanUpload

pytestmark = pytest.mark.django_db

HEADER = "set\tnumber\tname\tname_ja\tkind\tposition\tshoot\tkeep\tdefense"
TWO = (
    "\n".join(
        [
            HEADER,
            "BS\t12\tReal Twelve\t本物十二\tplayer\tFW\t7\t2\t1",
            "BS\t13\tReal Thirteen\t\tplayer\tMF\t5\t4\t3",
        ]
    )
    + "\n"
)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def editor(db):
    user = get_user_model().objects.create_user("erin", "erin@example.com", "correct-horse-3")
    user.user_permissions.add(Permission.objects.get(codename="review_proposal"))
    return get_user_model().objects.get(pk=user.pk)


@pytest.fixture
def editor_client(editor):
    client = Client()
    client.force_login(editor)
    return client


def jpeg(name="BS-012.jpg", size=(600, 840)) -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", size, (10, 90, 200)).save(out, format="JPEG")
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/jpeg")


@pytest.fixture
def send(alice_client, django_capture_on_commit_callbacks):
    def post(files: dict, rows=TWO, run=True):
        with django_capture_on_commit_callbacks(execute=run):
            return alice_client.post(
                "/changesets/new/", {"rows": rows, "source": "my binder", **files}
            )

    return post


def test_each_rows_scan_becomes_a_scan_of_that_rows_proposal(send, alice_client, media):
    answer = send({"scan-12": jpeg(), "scan-13": jpeg("013-front.png", (500, 700))})
    assert answer.status_code == 302
    proposals = {p.number: p for p in Changeset.objects.get().proposals.all()}
    for number, width in ((12, 600), (13, 500)):
        scan = CardScan.objects.get(proposal=proposals[number])
        assert (scan.side, scan.width) == ("front", width)
    assert set(ScanUpload.objects.values_list("status", flat=True)) == {"done"}
    assert not (media / "scan-uploads").exists() or not any((media / "scan-uploads").iterdir())
    page = alice_client.get(Changeset.objects.get().get_absolute_url()).content.decode()
    for scan in CardScan.objects.all():
        assert scan.thumbnail_url in page


def test_the_request_stores_the_scans_and_the_page_shows_them_being_processed(send, alice_client):
    assert send({"scan-12": jpeg()}, run=False).status_code == 302
    upload = ScanUpload.objects.get()
    assert upload.status == "pending" and upload.proposal.card_id == "BS-012"
    assert not CardScan.objects.exists()
    page = alice_client.get(Changeset.objects.get().get_absolute_url()).content.decode()
    assert "Scan of the front: being processed…" in page and 'id="changeset-scans-pending"' in page


def test_a_row_whose_only_change_is_its_scan_is_proposed(send, alice, editor):
    from catalog.contributions.services import proposal_accept, proposal_create

    same = {"set": "BS", "number": "12", "name": "Real Twelve", "name_ja": "本物十二"}
    same |= {"kind": "player", "position": "FW", "shoot": "7", "keep": "2", "defense": "1"}
    proposal_accept(
        proposal=proposal_create(proposer=alice, data=same, source="x"), reviewer=editor
    )
    rows = HEADER + "\nBS\t12\tReal Twelve\t本物十二\tplayer\tFW\t7\t2\t1\n"
    answer = send({}, rows=rows)
    assert answer.status_code == 400 and "nothing to propose" in answer.content.decode()
    assert send({"scan-12": jpeg()}, rows=rows).status_code == 302
    proposal = Changeset.objects.get().proposals.get()
    assert proposal.card_id == "BS-012" and CardScan.objects.get().proposal == proposal


def test_a_bad_scan_refuses_the_whole_changeset_naming_the_row(send):
    bad = SimpleUploadedFile("BS-013.jpg", b"%PDF-1.4 not an image", content_type="image/jpeg")
    answer = send({"scan-12": jpeg(), "scan-13": bad})
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "BS-013 (BS-013.jpg)" in text and "not an image that can be read" in text
    assert "line 3" in text
    assert not Changeset.objects.exists() and not ScanUpload.objects.exists()


def test_a_scan_for_a_number_not_sent_is_refused(send):
    answer = send({"scan-40": jpeg("BS-040.jpg")})
    assert answer.status_code == 400
    assert "a scan was given for number 40, but no row for it" in answer.content.decode()
    assert not Changeset.objects.exists()


def test_the_count_and_total_caps_refuse_the_whole_changeset(send, settings):
    settings.CHANGESET_SCANS_MAX = 1
    answer = send({"scan-12": jpeg(), "scan-13": jpeg("13.jpg")})
    assert answer.status_code == 400
    assert "2 scans; a changeset carries at most 1" in answer.content.decode()
    settings.CHANGESET_SCANS_MAX = 60
    settings.CHANGESET_SCANS_MAX_BYTES = 1000
    answer = send({"scan-12": jpeg()})
    assert answer.status_code == 400
    assert "a changeset carries at most 1,000" in answer.content.decode()
    assert not Changeset.objects.exists() and not ScanUpload.objects.exists()


def test_a_file_over_the_byte_limit_is_refused_naming_its_row(send, settings):
    settings.SCAN_MAX_BYTES = 500
    answer = send({"scan-13": jpeg("thirteen.jpg")})
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "BS-013 (thirteen.jpg)" in text and "the limit is 500 bytes" in text


def test_a_bad_file_field_is_refused(send):
    answer = send({"scan-x": jpeg()})
    assert answer.status_code == 400 and "unknown file field" in answer.content.decode()
    assert not Changeset.objects.exists()


def test_applying_the_changeset_gives_accepted_cards_their_scans_and_drops_rejected_ones(
    send, editor, django_capture_on_commit_callbacks
):
    from catalog.contributions.changesets import Decision, changeset_review

    send({"scan-12": jpeg(), "scan-13": jpeg("13.jpg")})
    changeset = Changeset.objects.get()
    twelve, thirteen = changeset.proposals.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        changeset_review(
            changeset=changeset,
            reviewer=editor,
            decisions={twelve.pk: Decision("accept"), thirteen.pk: Decision("reject", "blurry")},
            seen_version=changeset.version,
        )
    scan = CardScan.objects.get()
    assert scan.proposal == twelve and scan.card_id == "BS-012"


def test_an_editor_cannot_apply_while_a_scan_is_being_processed(send, editor):
    from catalog.contributions.changesets import Decision, changeset_review
    from catalog.contributions.services import ProposalError

    send({"scan-12": jpeg()}, run=False)
    changeset = Changeset.objects.get()
    decisions = {p.pk: Decision("accept") for p in changeset.proposals.all()}
    with pytest.raises(ProposalError, match="BS-012: its scan is still being processed"):
        changeset_review(changeset=changeset, reviewer=editor, decisions=decisions, seen_version=1)
    assert Changeset.objects.get().status == "pending"
