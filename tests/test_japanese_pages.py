"""The main pages rendered in Japanese contain no English UI text from our templates or code.

Three nets: every English msgid of our catalogue that has a different Japanese msgstr must not
show as a whole text (or, for sentences, inside one); any run of three lower-case English words
is taken as an untranslated sentence from the code; and any other English word (a form label,
a field name, a choice value, a chart label) is taken as a string the catalogue lacks. Card
data (names, ids, effects), user names, code samples (<code>, <kbd>, <pre>), comma-separated
values a user types (`card,quantity`), the raw option names the Touchdown lab shows designers
beside their labels, and user-given text are allowed.
"""

import html
import re
from pathlib import Path

import pytest
from django.test import Client

from decks.models import Deck

pytestmark = pytest.mark.django_db

PO = Path(__file__).resolve().parent.parent / "locale" / "ja" / "LC_MESSAGES" / "django.po"
SKIP_ELEMENTS = re.compile(
    r"<(script|style|code|kbd|pre|option|textarea)\b[^>]*>.*?</\1>", re.S | re.I
)
ATTRIBUTES = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')
SENTENCE = re.compile(r"\b[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}\b")
# One English word standing alone: not part of an identifier, a path, a search term or a
# comma-separated list of values to type.
WORD = re.compile(r"(?<![\w:/.,=<>_-])[A-Za-z][a-z]{2,}(?![\w:/.,=<>_-])")
# Words that are the same in both languages on our pages (brand, formats, rule ids), and
# "breadcrumb", the aria-label Pico CSS styles breadcrumb navigation by.
ALLOWED = {"API", "JSON", "Markdown", "FW", "MF", "DF", "GK", "PK", "English", "CSV", "breadcrumb"}


def _english_msgids() -> set[str]:
    """Return the catalogue's English strings whose Japanese translation differs."""
    text = PO.read_text(encoding="utf-8")
    found = set()
    for block in text.split("\n\n"):
        if "msgctxt" in block or "msgid_plural" in block:
            continue
        msgid = re.search(r'^msgid "(.*)"$', block, re.M)
        msgstr = re.search(r'^msgstr "(.*)"$', block, re.M)
        if not msgid or not msgstr or not msgid[1] or not msgstr[1] or msgid[1] == msgstr[1]:
            continue
        english = msgid[1].replace('\\"', '"')
        if "%" in english or "<" in english or english in ALLOWED or len(english) < 4:
            continue
        found.add(english)
    return found


def _texts(body: str) -> list[str]:
    """Return the texts a person reads: text between tags and the readable attributes."""
    body = SKIP_ELEMENTS.sub(" ", body)
    body = re.sub(r"<head>.*?</head>", " ", body, flags=re.S)
    attributes = [html.unescape(a) for a in ATTRIBUTES.findall(body)]
    texts = [html.unescape(t) for t in re.split(r"<[^>]+>", body)]
    return [" ".join(t.split()) for t in texts + attributes if t.strip()]


def english_in(body: str, allowed: set[str]) -> list[str]:
    msgids = _english_msgids()
    sentences = {m for m in msgids if len(m.split()) >= 3}
    # The words of the allowed data, for the one-word net (the other nets scrub whole values).
    tokens = {word for value in allowed for word in WORD.findall(value)} | ALLOWED
    found = []
    for text in _texts(body):
        if text in allowed:
            continue
        scrubbed = text
        for word in allowed:
            scrubbed = scrubbed.replace(word, " ")
        if text in msgids or any(s in scrubbed for s in sentences) or SENTENCE.search(scrubbed):
            found.append(text)
        elif any(word not in tokens for word in WORD.findall(text)):
            found.append(text)
    return found


def _data_words() -> set[str]:
    """Return card, team, set and deck names, product notes, card effects, user names, the raw
    Touchdown option names the lab shows beside their labels: data, not UI text."""
    from dataclasses import fields

    from django.contrib.auth import get_user_model

    from catalog.data import PRODUCTS
    from catalog.models import Card, CardSet, Team
    from play.models import SimulationBatch
    from play.touchdown.options import Options

    words = {f.name for f in fields(Options)}
    for values in (
        Card.objects.values_list("name", "effect", "person"),
        Team.objects.values_list("name"),
        CardSet.objects.values_list("name"),
        Deck.objects.values_list("name", "description"),
        get_user_model().objects.values_list("username"),
        [(product.notes,) for product in PRODUCTS],
        # the deck names a batch stored with its sides (a deck renamed since keeps its old one)
        [
            (side.get("name", ""),)
            for sides in SimulationBatch.objects.values_list("sides", flat=True)
            for side in sides or []
            if isinstance(side, dict)
        ],
    ):
        for row in values:
            words.update(value for value in row if value)
    return words


@pytest.fixture
def ja_client(alice):
    client = Client()
    client.force_login(alice)
    client.cookies["django_language"] = "ja"
    return client


def test_the_english_detector_finds_an_untranslated_sentence():
    assert english_in("<p>The deck has 57 cards; it must have exactly 60.</p>", set())
    assert english_in("<p><span>Public decks</span></p>", set()) == ["Public decks"]
    assert not english_in("<p>公開デッキ <code>set:BS pos:FW shoot above five</code></p>", set())
    # One word the catalogue lacks: a label, a field name, a choice value.
    assert english_in("<th>Wibble</th><td>シュート</td>", set()) == ["Wibble"]
    assert english_in('<span title="kickoff">キックオフ</span>', set()) == ["kickoff"]
    assert english_in("<p>見出し行：card,quantity、R-DECK-3、name_ja</p>", set()) == []
    assert english_in("<td>Kashima</td>", {"Kashima"}) == []


MAIN_PAGES = [
    "/",
    "/cards/?q=team:kashima",
    "/cards/BS-012/",
    "/decks/",
    "/decks/sample-cd00-kashima-antlers-2000/",
    "/decks/sample-cd00-kashima-antlers-2000/versions/",
    "/decks/sample-cd00-kashima-antlers-2000/print/",
    "/decks/new/",
    "/decks/builder/cards/?q=set:BS team:urawa&sort=position",
    "/decks/builder/cards/?q=(pos:FW",
    "/decks/starred/",
    "/decks/import/",
    "/play/",
    "/simulations/",
    "/simulations/new/",
    "/lab/touchdown/",
    "/data/",
    "/changesets/new/",
    "/sets/CD00/grid/",
]


@pytest.mark.parametrize("path", MAIN_PAGES)
def test_main_pages_in_japanese_have_no_english_ui_text(ja_client, path):
    page = ja_client.get(path)
    assert page.status_code == 200
    assert english_in(page.content.decode(), _data_words()) == []


def test_a_proposal_with_scans_being_processed_and_failed_is_japanese(
    ja_client, alice, settings, tmp_path
):
    # Issue #26: a scan waits for the control worker, another failed there; both are said in
    # the reader's language (the failure from its reason, not from the stored English text).
    from catalog.contributions.services import proposal_create
    from catalog.models import ScanUpload

    settings.MEDIA_ROOT = tmp_path
    proposal = proposal_create(
        proposer=alice,
        data={
            "set": "BS",
            "number": "12",
            "name": "Real Striker",
            "kind": "player",
            "position": "FW",
        },
        source="自分のカード",
    )
    ScanUpload.objects.create(token="a" * 32, proposal=proposal, side="front", name="f.jpg")
    ScanUpload.objects.create(
        token="b" * 32,
        proposal=proposal,
        side="back",
        name="b.jpg",
        status="failed",
        reason="slow",
        message="Processing the image took longer than 10 seconds and was stopped.",
    )
    page = ja_client.get(proposal.get_absolute_url()).content.decode()
    assert "表面のスキャン: 処理中…" in page and "秒以上かかったため中止しました" in page
    assert english_in(page, _data_words() | {"Real", "Striker"}) == []


def test_a_changeset_with_scans_being_processed_and_failed_is_japanese(
    ja_client, alice, settings, tmp_path
):
    from catalog.contributions.changesets import changeset_create
    from catalog.models import ScanUpload

    settings.MEDIA_ROOT = tmp_path
    rows = [
        (
            2,
            {"set": "BS", "number": "12", "name": "Real Striker", "kind": "player"}
            | {"position": "FW"},
        ),
        (
            3,
            {"set": "BS", "number": "13", "name": "Real Keeper", "kind": "player"}
            | {"position": "DF"},
        ),
    ]
    changeset, _ = changeset_create(proposer=alice, rows=rows, source="自分のカード")
    twelve, thirteen = changeset.proposals.order_by("number")
    ScanUpload.objects.create(token="c" * 32, proposal=twelve, side="front", name="12.jpg")
    ScanUpload.objects.create(
        token="d" * 32,
        proposal=thirteen,
        side="front",
        name="13.jpg",
        status="failed",
        reason="unreadable",
        message="The file is not an image that can be read.",
    )
    page = ja_client.get(changeset.get_absolute_url()).content.decode()
    assert "表面のスキャン: 処理中…" in page and 'id="changeset-scans-pending"' in page
    words = _data_words() | {"Real", "Striker", "Keeper"}
    assert english_in(page, words) == []


@pytest.mark.parametrize(
    ("path", "status"),
    [("/cards/NO-SUCH-CARD/", 404), ("/review/", 403), ("/collection/settings/", 405)],
)
def test_error_pages_in_japanese_have_no_english_ui_text(ja_client, path, status):
    page = ja_client.get(path)
    assert page.status_code == status
    assert english_in(page.content.decode(), _data_words()) == []


def test_deck_problems_on_the_builder_are_japanese(ja_client):
    page = ja_client.post("/decks/builder/preview/", {"draft": '{"deck": {"BS-012": 3}}'})
    body = page.content.decode()
    assert "R-DECK-1" in body and "デッキは3枚です" in body
    assert english_in(body, _data_words()) == []


@pytest.mark.parametrize("kind", ["match", "gauntlet", "pk", "matrix"])
def test_batch_results_in_japanese_have_no_english_ui_text(ja_client, alice, kind, settings):
    # Results that name decks and bots, the rule options and a cancelled batch's partial notice.
    from unittest.mock import patch

    from play.simulations import services

    settings.SIMULATION_CHUNK_SIZE = {
        "pk": 100,
        "goldfish": 10,
        "match": 10,
        "gauntlet": 10,
        "matrix": 10,
    }
    decks = list(Deck.objects.filter(is_sample=True).order_by("slug"))
    with patch("play.simulations.services.queue_chunks"):
        batch = services.batch_create(
            owner=alice,
            request=services.BatchRequest(
                kind=kind, deck_a=decks[0], deck_b=decks[1], runs=20, seed=2, policy_b="random"
            ),
        )
    services.chunk_run(batch_id=batch.pk, index=0)
    services.batch_cancel(batch=batch)  # match and gauntlet: partial results, with their notice
    body = ja_client.get(batch.get_absolute_url()).content.decode()
    assert "batch-results" in body and ("途中までの結果" in body or kind == "pk")
    assert english_in(body, _data_words()) == []


@pytest.mark.parametrize(
    "study",
    [
        None,
        {"kind": "table", "strategies": ["own", "random"], "bots": ["greedy"]},
        {
            "kind": "sweep",
            "grid": [["kick_floor", "0,7"], ["kickoff_kick_ability", "none,both"]],
            "a": "random",
            "b": "normal",
            "bot": "greedy",
        },
    ],
    ids=["variants", "table", "sweep"],
)
def test_lab_results_in_japanese_have_no_english_ui_text(ja_client, alice, study, settings):
    # The lab's results name rule options, their values, bots and strategies (issue #27).
    from unittest.mock import patch

    from play.simulations import services

    settings.SIMULATION_CHUNK_SIZE = {"touchdown": 4}
    variants = (
        [{}] if study else [{}, {"kickoffs": "normal_only", "kick_play_hand": "every_player"}]
    )
    with patch("play.simulations.services.queue_chunks"):
        batch = services.lab_batch_create(
            owner=alice, variants=variants, runs=2, seed=5, study=study
        )
    for index in range(batch.chunk_count):
        services.chunk_run(batch_id=batch.pk, index=index)
    body = ja_client.get(batch.get_absolute_url()).content.decode()
    assert "batch-results" in body and "sample-logs" in body
    assert english_in(body, _data_words()) == []
    listed = ja_client.get("/simulations/").content.decode()
    assert english_in(listed, _data_words()) == []


def test_the_recommendation_in_japanese_has_no_english_ui_text(ja_client, alice, monkeypatch):
    # issue #28 item 1: the shortlist's sentences are the Japanese ones on a Japanese page
    from unittest.mock import patch

    from play.simulations import services
    from play.studies import recommend

    monkeypatch.setattr(recommend, "PREVIEW_SPACE", {**recommend.SPACE, "onside_ball": (0,)})
    monkeypatch.setattr(recommend, "PREVIEW_FIRST_SEEDS", 2)
    monkeypatch.setattr(recommend, "PREVIEW_STAGES", 2)
    study = {"kind": "recommend", "bot": "greedy", "preview": True}
    with patch("play.simulations.services.queue_chunks"):
        batch = services.lab_batch_create(owner=alice, variants=[{}], runs=1, seed=5, study=study)
        index = 0
        while index < batch.chunk_count:
            services.chunk_run(batch_id=batch.pk, index=index)
            index += 1
            batch.refresh_from_db()
    body = ja_client.get(batch.get_absolute_url()).content.decode()
    assert "td-shortlist" in body and "草案6への変更" in body
    assert batch.results["recommendation"]["shortlist"][0]["sentence"]["ja"] in body
    assert english_in(body, _data_words()) == []


def _solo_game_pages(alice) -> list[str]:
    """Return solo boards in their main states: a midfield defense decision, full time."""
    from decks.services import deck_copy
    from play.engine import HalftimeSwaps
    from play.engine.match import PLAY
    from play.solo import services as solo

    sample = Deck.objects.filter(is_sample=True).order_by("slug").last()
    deck = deck_copy(deck=sample, owner=alice)
    urls = []
    for seed in range(40):
        game = solo.solo_start(owner=alice, deck=deck, mode="goldfish", seed=seed).game
        match = solo.solo_bot_step(game=game, revision=None, all_steps=True).match
        if match.decision == PLAY and match.offense == "B" and not match.shot:
            urls.append(game.get_absolute_url())
            break
    game = solo.solo_start(owner=alice, deck=deck, mode="bot", policy="search", seed=3).game
    position = solo.solo_autoplay_half(game=game, revision=game.revision)
    solo.solo_act(game=game, revision=position.game.revision, action=HalftimeSwaps("A", ()))
    position = solo.solo_bot_step(game=game, revision=None, all_steps=True)
    solo.solo_autoplay_half(game=game, revision=position.game.revision)
    urls.append(game.get_absolute_url())
    return urls


def test_solo_boards_in_japanese_have_no_english_ui_text(ja_client, alice):
    urls = _solo_game_pages(alice)
    assert len(urls) == 2
    for url in urls:
        page = ja_client.get(url)
        assert page.status_code == 200
        body = page.content.decode()
        assert "solo-help" in body
        assert english_in(body, _data_words() | {"Goldfish"}) == [], url
    assert "同じシャッフルでもう一度" in body and "リプレイを開く" in body  # full time
    events = ja_client.get(urls[1] + "events/?log=mine")
    assert english_in(events.content.decode(), _data_words()) == []


def test_errata_and_rulings_pages_in_japanese_have_no_english_ui_text(ja_client, alice):
    """The card page with an erratum and a ruling, the two proposal forms (one with errors),
    a proposal's page and its review (an editor's), all in Japanese (issue #24 item 6)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    from catalog.contributions.notes import note_accept, note_create
    from catalog.models import Card

    Card.objects.filter(id="BS-012").update(is_sample=False, source="自分のカード")
    card = Card.objects.get(id="BS-012")
    editor = get_user_model().objects.create_user("erin", "erin@example.com", "correct-horse-3")
    editor.user_permissions.add(Permission.objects.get(codename="review_proposal"))
    editor = get_user_model().objects.get(pk=editor.pk)
    erratum = {"printed_text": "2枚引く。", "current_text": "1枚引く。", "source": "公式FAQ"}
    note_accept(
        proposal=note_create(proposer=alice, card=card, kind="erratum", data=erratum),
        reviewer=editor,
    )
    ruling = {"text": "効果はプレイフェイズの終わりまで。", "ruling_date": "2002-04-01"}
    pending = note_create(
        proposer=alice, card=card, kind="ruling", data={**ruling, "source": "公式回答"}
    )
    words = _data_words()
    for path in (
        "/cards/BS-012/",
        "/cards/BS-012/notes/propose/?kind=erratum",
        "/cards/BS-012/notes/propose/?kind=ruling",
        "/cards/BS-014/notes/propose/",  # a sample: the page says why there is no form
        pending.get_absolute_url(),
    ):
        page = ja_client.get(path)
        assert page.status_code == 200
        assert english_in(page.content.decode(), words) == [], path
    page = ja_client.post(
        "/cards/BS-012/notes/propose/?kind=ruling",
        {"kind": "ruling", "text": "", "ruling_date": "2002-13-01", "source": "x" * 201},
    )
    assert page.status_code == 400
    assert english_in(page.content.decode(), words | {"x" * 201}) == []
    reviewer = Client()
    reviewer.force_login(editor)
    reviewer.cookies["django_language"] = "ja"
    for path in (pending.get_absolute_url(), "/review/"):
        page = reviewer.get(path)
        assert page.status_code == 200
        assert english_in(page.content.decode(), words) == [], path


def test_printings_and_collection_pages_in_japanese_have_no_english_ui_text(ja_client, alice):
    """Issue #24 item 4: the card page's printings and collection editor, and the collection
    page with its grid of a set's printings and the CSV help."""
    from catalog.models import Printing
    from decks.collections.services import collection_entry_set

    Printing.objects.create(card_id="BS-012", card_set_id="BS", number=12, kind="foil")
    Printing.objects.create(card_id="BS-012", card_set_id="CD00", number=99, kind="promo")
    collection_entry_set(
        owner=alice,
        card_id="BS-012",
        printing="BS-012-foil",
        quantity=2,
        for_trade=1,
        condition="excellent",
    )
    collection_entry_set(owner=alice, card_id="BS-012", quantity=1, condition="good")
    from django.contrib.auth import get_user_model

    from catalog.contributions.printings import printing_proposal_create

    proposer = get_user_model().objects.create_user("bob", "bob@example.com", "pw-123456-x")
    printing_proposal_create(
        proposer=proposer,
        card_id="BS-012",
        data={"set": "CD00", "number": "98", "kind": "promo", "source": "https://x.jp/p"},
    )
    for path in ("/cards/BS-012/", "/collection/", "/collection/?set=BS", "/collection/trade/"):
        page = ja_client.get(path)
        assert page.status_code == 200
        assert english_in(page.content.decode(), _data_words()) == [], path
