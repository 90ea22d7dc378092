"""Sample → real: decks holding a changed card are re-validated and versioned, never emptied."""

import json

import pytest
from django.core.management import call_command
from django.db.models import ProtectedError

from catalog.models import Card
from decks.selectors import deck_content
from decks.services import deck_create

pytestmark = pytest.mark.django_db


def real_file(tmp_path, cards):
    path = tmp_path / "real.json"
    path.write_text(json.dumps(cards), encoding="utf-8")
    return str(path)


def test_replace_sample_keeps_every_card_of_a_users_deck_and_versions_it(
    alice, legal_content, tmp_path
):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    held = sorted(legal_content.deck)[0]
    number = int(held.split("-")[1])
    path = real_file(
        tmp_path,
        [
            {
                "set": "BS",
                "number": number,
                "name": "Real Event",
                "name_ja": "本物",
                "kind": "event",
                "effect": "draw:1",
            }
        ],
    )
    call_command("import_cards", path, "--replace-sample")
    deck.refresh_from_db()
    assert deck_content(deck) == legal_content  # nothing silently dropped
    assert deck.is_legal is False  # a person card became an event: R-DECK-3 now fails
    version = deck.versions.order_by("-number").first()
    assert version.number == 2 and version.catalog_change
    assert f"{held} is now the real card “Real Event / 本物”" in version.summary
    assert version.is_legal is False


def test_replace_sample_removes_only_the_sample_cards_no_deck_holds(alice, legal_content, tmp_path):
    deck_create(owner=alice, name="Attack", content=legal_content)
    path = real_file(
        tmp_path,
        [{"set": "BS", "number": 239, "name": "Real", "kind": "player", "position": "DF"}],
    )
    call_command("import_cards", path, "--replace-sample")
    kept = set(Card.objects.filter(card_set_id="BS", is_sample=True).values_list("id", flat=True))
    assert set(legal_content.card_ids()) <= kept


def test_a_card_a_deck_holds_cannot_be_deleted(alice, legal_content):
    deck_create(owner=alice, name="Attack", content=legal_content)
    with pytest.raises(ProtectedError):
        Card.objects.filter(id=legal_content.goalkeeper).delete()


def test_a_stat_correction_versions_the_deck_without_changing_its_content(
    alice, legal_content, tmp_path
):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    card = Card.objects.get(id=sorted(legal_content.deck)[0])
    row = {
        "set": "BS",
        "number": card.number,
        "name": card.name,
        "kind": card.kind,
        "position": card.position,
        "person": card.person,
        "shoot": 9,
        "keep": card.keep,
        "defense": card.defense,
    }
    call_command("import_cards", real_file(tmp_path, [row]))
    deck.refresh_from_db()
    version = deck.versions.order_by("-number").first()
    assert version.catalog_change and deck.is_legal
    assert f"{card.id} is now the real card" in version.summary


def test_accepting_a_proposal_re_validates_the_decks_holding_the_card_and_tells_the_owner(
    alice, bob, legal_content
):
    from django.test import Client

    from catalog.contributions.services import proposal_accept, proposal_create

    bob.is_staff = True
    bob.save()
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    card_id = sorted(legal_content.deck)[0]
    data = {
        "set": "BS",
        "number": card_id.split("-")[1],
        "name": "Real Event",
        "kind": "event",
        "effect": "draw:1",
    }
    proposal = proposal_create(proposer=alice, data=data, source="my own card")
    proposal_accept(proposal=proposal, reviewer=bob)
    deck.refresh_from_db()
    version = deck.versions.order_by("-number").first()
    assert not deck.is_legal and version.catalog_change
    assert f"{card_id} is now the real card" in version.summary
    client = Client()
    client.force_login(alice)
    html = client.get(deck.get_absolute_url()).content.decode()
    assert 'id="catalog-notice"' in html and "failed" in html and "R-DECK-" in html
    assert deck_content(deck) == legal_content


def test_a_whole_real_list_imports_through_the_same_path(alice, legal_content, tmp_path):
    from catalog.importer import export_rows
    from catalog.models import CardRevision

    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    rows = [row for row in export_rows() if row["set"] == "BS"]
    for row in rows:
        row.update(is_sample=False, status="real", source="", name=row["name"] + " (real)")
    call_command("import_cards", real_file(tmp_path, rows), "--source", "Basic Set binder")
    assert not Card.objects.filter(card_set_id="BS", is_sample=True).exists()
    assert CardRevision.objects.filter(card__card_set_id="BS", number=1).count() == 239
    assert set(CardRevision.objects.values_list("source", flat=True)) == {"Basic Set binder"}
    deck.refresh_from_db()
    versions = deck.versions.order_by("-number")
    assert versions.count() == 2 and versions[0].catalog_change  # one version for the import
    assert deck.is_legal and deck_content(deck) == legal_content


def test_an_admin_edit_records_a_revision_and_re_validates_decks(alice, legal_content):
    from django.contrib.auth import get_user_model
    from django.test import Client

    from catalog.importer import card_row

    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-123456")
    client = Client()
    client.force_login(admin)
    card = Card.objects.get(id=sorted(legal_content.deck)[0])
    row = card_row(card)
    form = {
        "id": card.id,
        "card_set": card.card_set_id,
        "number": card.number,
        "name": "Admin Fixed",
        "name_ja": row["name_ja"],
        "kind": card.kind,
        "position": card.position,
        "person": card.person,
        "team": card.team_id or "",
        "shoot": card.shoot,
        "keep": card.keep,
        "defense": card.defense,
        "effect": "",
        "rarity": card.rarity,
        "source": "",
        # The printings inline, left as it is.
        "printings-TOTAL_FORMS": "0",
        "printings-INITIAL_FORMS": "0",
    }
    response = client.post(f"/admin/catalog/card/{card.id}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    card.refresh_from_db()
    assert card.name == "Admin Fixed" and card.revisions.get().accepted_by == admin
    assert "“Admin Fixed" in deck.versions.order_by("-number").first().summary
    bad = client.post(f"/admin/catalog/card/{card.id}/change/", {**form, "name": "N" * 101})
    assert bad.status_code == 200 and Card.objects.get(id=card.id).name == "Admin Fixed"
    delete = client.post(f"/admin/catalog/card/{card.id}/delete/", {"post": "yes"})
    assert Card.objects.filter(id=card.id).exists() and delete.status_code in (200, 302)


def test_a_club_change_names_the_clubs_not_their_codes(alice, legal_content, tmp_path):
    from catalog.models import Team

    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    card = Card.objects.get(id=sorted(legal_content.deck)[0])
    row = {
        "set": "BS",
        "number": card.number,
        "name": card.name,
        "kind": card.kind,
        "position": card.position,
        "person": card.person,
        "shoot": card.shoot,
        "keep": card.keep,
        "defense": card.defense,
        "team": "",
    }
    call_command("import_cards", real_file(tmp_path, [row]))  # now the real card, no club
    call_command("import_cards", real_file(tmp_path, [{**row, "team": "kashima"}]))
    summary = deck.versions.order_by("-number").first().summary
    club = Team.objects.get(code="kashima").name
    assert f"Team — → {club}" in summary and "→ kashima" not in summary


def _make_event(tmp_path, card_id: str, name: str) -> None:
    number = int(card_id.split("-")[1])
    row = {"set": "BS", "number": number, "name": name, "kind": "event", "effect": "draw:1"}
    call_command("import_cards", real_file(tmp_path, [row]), "--replace-sample")


def test_the_versions_compare_tells_every_catalogue_change_and_the_legality_not_no_change(
    alice, alice_client, legal_content, tmp_path
):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    first, second = sorted(legal_content.deck)[:2]
    _make_event(tmp_path, first, "First Real")  # a person card becomes an event: illegal
    _make_event(tmp_path, second, "Second Real")
    changed = deck.versions.filter(catalog_change=True).order_by("number")
    assert [v.number for v in changed] == [2, 3]
    page = alice_client.get(f"/decks/{deck.slug}/versions/", {"a": 1, "b": 3}).content.decode()
    assert "The two versions hold the same cards and goalkeepers." not in page
    assert "Version 1 was legal; version 3 is not legal." in page
    assert f"{first} is now the real card" in page and f"{second} is now the real card" in page
    same = alice_client.get(f"/decks/{deck.slug}/versions/", {"a": 2, "b": 3}).content.decode()
    assert (
        f"{second} is now the real card" in same
        and f"{first} is now" not in same.split("Catalogue changes")[1].split("</ul>")[0]
    )
    alice_client.cookies["django_language"] = "ja"
    ja = alice_client.get(
        f"/decks/{deck.slug}/versions/", {"a": 1, "b": 3}, HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "バージョン 1 は適正でしたが、バージョン 3 は適正ではありません。" in ja


def _stat_fix(tmp_path, card_id: str, shoot: int) -> None:
    card = Card.objects.get(id=card_id)
    row = {
        "set": card.card_set_id,
        "number": card.number,
        "name": card.name,
        "kind": card.kind,
        "position": card.position,
        "person": card.person,
        "shoot": shoot,
        "keep": card.keep,
        "defense": card.defense,
    }
    call_command("import_cards", real_file(tmp_path, [row]))


def _notice(client, deck, **headers) -> str:
    page = client.get(deck.get_absolute_url(), **headers).content.decode()
    if 'id="catalog-notice"' not in page:
        return ""
    return page.split('id="catalog-notice"')[1].split("</form>")[0]


def test_the_deck_page_lists_every_catalogue_change_until_the_owner_dismisses_it(
    alice, alice_client, legal_content, tmp_path
):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    first, second, third = sorted(legal_content.deck)[:3]
    _make_event(tmp_path, first, "First Real")  # v2: a person card becomes an event
    _stat_fix(tmp_path, second, 9)  # v3: the real card, shoot 9
    notice = _notice(alice_client, deck)
    # Both changes, oldest first, each with what changed and the rules failing after it.
    assert notice.index(f"{first} is now the real card “First Real”") < notice.index(
        f"{second} is now the real card"
    )
    assert "2 changes" in notice and "Version 2" in notice and "Version 3" in notice
    assert "event (effect draw:1)" in notice and "Shoot 9" in notice
    assert "R-DECK-" in notice and ("these rules failed" in notice or "this rule failed" in notice)
    profile = alice_client.get("/users/alice/").content.decode()
    assert 'id="changed-decks"' in profile and "Attack" in profile and "2 changes" in profile

    # A change that arrives after the page was shown survives the dismissal of that page.
    _stat_fix(tmp_path, third, 8)  # v4
    answer = alice_client.post(f"/decks/{deck.slug}/catalog-seen/", {"through": 3})
    assert answer.status_code == 302
    notice = _notice(alice_client, deck)
    assert (
        f"{third} is now the real card" in notice and first not in notice and "Version 4" in notice
    )
    assert "1 change" in alice_client.get("/users/alice/").content.decode()

    alice_client.post(f"/decks/{deck.slug}/catalog-seen/", {"through": 4})
    assert _notice(alice_client, deck) == ""
    assert 'id="changed-decks"' not in alice_client.get("/users/alice/").content.decode()
    # Only forward: an old page's dismissal does not bring changes back.
    alice_client.post(f"/decks/{deck.slug}/catalog-seen/", {"through": 2})
    assert _notice(alice_client, deck) == ""
    _stat_fix(tmp_path, second, 5)  # v5: a correction of a real card
    notice = _notice(alice_client, deck)
    assert f"{second} changed in the catalog: Shoot 9 → 5." in notice
    # The version history says it in the same words.
    versions = alice_client.get(f"/decks/{deck.slug}/versions/").content.decode()
    assert f"{second} changed in the catalog: Shoot 9 → 5." in versions


def test_the_catalogue_change_notice_is_the_owners_and_dismissing_is_checked(
    alice, alice_client, bob_client, anon_client, legal_content, tmp_path
):
    deck = deck_create(owner=alice, name="Attack", content=legal_content, visibility="public")
    _make_event(tmp_path, sorted(legal_content.deck)[0], "First Real")
    assert _notice(alice_client, deck) and not _notice(bob_client, deck)
    url = f"/decks/{deck.slug}/catalog-seen/"
    assert bob_client.post(url, {"through": 2}).status_code == 403
    assert anon_client.post(url, {"through": 2}).status_code == 302  # to the login page
    assert alice_client.get(url).status_code == 405
    for bad in ("", "x", "0", "3", "²", "9" * 5000):
        answer = alice_client.post(url, {"through": bad})
        assert answer.status_code == 400 and "through" in answer.content.decode(), bad
    assert _notice(alice_client, deck)  # nothing was dismissed
    deck.refresh_from_db()
    assert deck.catalog_seen == 0


def test_catalogue_changes_are_said_in_japanese(alice, alice_client, legal_content, tmp_path):
    deck = deck_create(owner=alice, name="Attack", content=legal_content)
    first, second = sorted(legal_content.deck)[:2]
    _make_event(tmp_path, first, "First Real")
    _stat_fix(tmp_path, second, 9)
    _stat_fix(tmp_path, second, 4)
    alice_client.cookies["django_language"] = "ja"
    notice = _notice(alice_client, deck, HTTP_ACCEPT_LANGUAGE="ja")
    assert f"{first} は実在のカード「First Real」（イベント、効果 draw:1）になり" in notice
    assert f"{second} がカタログで変更されました：シュート 9 → 4。" in notice
    assert "is now the real card" not in notice and "changed in the catalog" not in notice
    assert "確認済みにする" in notice
    # The stored summary (API, exports) stays English.
    version = deck.versions.order_by("-number").first()
    assert version.summary == f"{second} changed in the catalog: Shoot 9 → 4."
