"""Deck pages: the builder and its fragments, saving (and failing to save), the deck page,
history, import/export pages, downloads, the card page section and the accounts pages."""

import io
import json
import re
import zipfile
from dataclasses import replace

import pytest
from django.core import mail

from catalog.models import Card
from decks.content import DeckContent
from decks.models import Deck
from decks.selectors import deck_content
from decks.services import deck_create, deck_save

pytestmark = pytest.mark.django_db


def draft(content: DeckContent) -> str:
    return json.dumps(content.to_json())


def test_the_builder_fragment_shows_counters_columns_and_problems(alice_client, legal_content):
    first = next(iter(legal_content.deck))
    content = replace(legal_content, deck={first: 6}, goalkeeper=None)
    response = alice_client.post("/decks/builder/preview/", {"draft": draft(content)})
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="builder-counters"' in body and 'hx-swap-oob="true"' in body
    assert re.search(r'data-counter="cards">Cards <strong>6/60</strong>', body)
    assert re.search(r'data-counter="persons">Persons <strong>1/10</strong>', body)
    for rule in ("R-DECK-1", "R-DECK-3", "R-DECK-4"):
        assert rule in body
    assert f'id="inc-deck-{first}"' in body

    legal = alice_client.post("/decks/builder/preview/", {"draft": draft(legal_content)})
    body = legal.content.decode()
    assert "60/60" in body and "10/10" in body and "No problems" in body


def test_the_builder_fragment_names_cards_no_longer_in_the_catalog(alice_client, legal_content):
    content = replace(legal_content, deck={**legal_content.deck, "BS-999": 2})
    body = alice_client.post("/decks/builder/preview/", {"draft": draft(content)}).content.decode()
    assert "BS-999 is not in the catalog" in body and 'data-action="forget"' in body


def test_builder_search_uses_the_catalog_query_syntax(alice_client):
    body = alice_client.get("/decks/builder/cards/?q=set:CD00 kind:goalkeeper").content.decode()
    assert body.count('data-action="goalkeeper"') == 2
    bad = alice_client.get("/decks/builder/cards/?q=(pos:FW").content.decode()
    assert "column" in bad


def test_saving_a_new_deck_from_the_builder(alice_client, alice, legal_content):
    response = alice_client.post(
        "/decks/new/",
        {
            "name": "Built",
            "visibility": "unlisted",
            "description": "",
            "draft": draft(legal_content),
        },
    )
    deck = Deck.objects.get(owner=alice, name="Built")
    assert response.status_code == 302 and response["Location"] == deck.get_absolute_url()
    assert deck.is_legal and deck.visibility == "unlisted"
    assert deck_content(deck) == legal_content


def test_a_failed_save_explains_and_keeps_the_draft(alice_client, alice, legal_content):
    deck = deck_create(owner=alice, name="Keep me", content=legal_content)
    edited = replace(legal_content, deck={**legal_content.deck, "BS-999": 3})
    response = alice_client.post(
        f"/decks/{deck.slug}/edit/",
        {"name": "Renamed", "visibility": "private", "description": "", "draft": draft(edited)},
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert "was not saved" in body and "BS-999 is not in the catalog" in body
    assert "BS-999" in re.search(r'id="draft" value="([^"]*)"', body).group(1)
    assert 'value="Renamed"' in body and 'data-dirty="true"' in body
    deck.refresh_from_db()
    assert deck.name == "Keep me" and deck.versions.count() == 1


def test_an_unreadable_draft_is_refused_without_saving(alice_client, alice):
    response = alice_client.post(
        "/decks/new/", {"name": "X", "visibility": "private", "draft": "{not json"}
    )
    assert response.status_code == 400 and "could not be read" in response.content.decode()
    assert not Deck.objects.filter(owner=alice).exists()


def test_an_illegal_deck_saves_as_a_draft_and_is_marked_illegal(alice_client, alice):
    content = DeckContent(deck={"BS-002": 4})
    alice_client.post(
        "/decks/new/", {"name": "Draft", "visibility": "public", "draft": draft(content)}
    )
    deck = Deck.objects.get(owner=alice, name="Draft")
    assert not deck.is_legal
    page = alice_client.get(deck.get_absolute_url()).content.decode()
    assert "badge illegal" in page and "R-DECK-1" in page
    assert "badge illegal" in alice_client.get("/decks/?name=Draft").content.decode()
    assert alice_client.get(f"/api/decks/{deck.slug}/").json()["legal"] is False


def test_the_deck_page_shows_groups_stats_and_draw_odds(anon_client):
    deck = Deck.objects.get(slug="sample-cd00-kashima-antlers-2000")
    response = anon_client.get(deck.get_absolute_url() + "?odds=event&k=1&n=4")
    body = response.content.decode()
    stats = response.context["stats"]
    assert stats["size"] == 60 and stats["by_kind"] == {"player": 50, "event": 10}
    players = [
        (Card.objects.get(id=e.card_id), e.quantity)
        for e in deck.entries.filter(card__kind="player")
    ]
    assert stats["totals"]["shoot"] == sum(c.shoot * n for c, n in players)
    assert stats["averages"]["keep"] == pytest.approx(sum(c.keep * n for c, n in players) / 50)
    # 10 events among 60: P(at least one in 4) = 1 - C(50,4)/C(60,4) = 52.8%
    assert response.context["odds_choice"]["opening"] == "52.8%"
    assert "Copy to my decks" not in body and "Log in to copy" in body
    assert "stat-chart-data" in body and 'class="badge legal"' in body


def test_versions_page_shows_the_difference_between_any_two(alice_client, alice, legal_content):
    deck = deck_create(owner=alice, name="History", content=legal_content)
    ids = list(legal_content.deck)
    keeper = Card.objects.filter(kind="goalkeeper").order_by("id")[5]
    second = replace(legal_content, deck={**legal_content.deck, ids[0]: 4})
    deck_save(deck=deck, editor=alice, content=second)
    third = replace(second, goalkeeper=keeper.id, deck={**second.deck, ids[1]: 8})
    deck_save(deck=deck, editor=alice, content=third)
    page = alice_client.get(f"/decks/{deck.slug}/versions/?a=1&b=3")
    compare = page.context["compare"]
    deck_zone = compare["zones"][0]
    assert [(c["card"], c["delta"]) for c in deck_zone["changes"]] == [(ids[1], 2), (ids[0], -2)]
    assert compare["keepers"][0]["after"] == keeper.id
    body = page.content.decode()
    assert "From version 1 to version 3" in body and keeper.id in body


def test_import_page_reports_line_errors_and_saves_nothing(alice_client, alice):
    text = "name: Bad\ndeck:\n4 BS-002\nx BS-003\n2 BS-997\n"
    response = alice_client.post("/decks/import/", {"text": text, "visibility": "private"})
    body = response.content.decode()
    assert response.status_code == 400
    assert "line 4" in body and "line 5" in body and "nothing was saved" in body
    assert text.splitlines()[3] in body  # the pasted text is kept
    assert not Deck.objects.filter(owner=alice).exists()


def test_import_page_accepts_an_uploaded_file(alice_client, alice):
    upload = io.BytesIO(b"name: Uploaded\ndeck:\n4 BS-002\n")
    upload.name = "deck.txt"
    response = alice_client.post("/decks/import/", {"file": upload, "visibility": "private"})
    deck = Deck.objects.get(owner=alice)
    assert response.status_code == 302 and deck.name == "Uploaded" and not deck.is_legal


def test_exports_round_trip_through_the_import_page(alice_client, alice, legal_content):
    deck = deck_create(owner=alice, name="Trip", content=legal_content)
    text = alice_client.get(f"/decks/{deck.slug}/export.txt").content.decode()
    alice_client.post("/decks/import/", {"text": text, "visibility": "private"})
    again = Deck.objects.filter(owner=alice).exclude(pk=deck.pk).get()
    assert alice_client.get(f"/decks/{again.slug}/export.txt").content.decode() == text
    data = alice_client.get(f"/decks/{deck.slug}/export.json").json()
    assert data["name"] == "Trip" and data["legal"] is True and data["text"] == text


def test_the_print_sheet_lists_deck_bench_goalkeepers_owner_and_date(anon_client):
    deck = Deck.objects.get(slug="sample-cd01-kashima-antlers-2001")
    body = anon_client.get(f"/decks/{deck.slug}/print/").content.decode()
    assert "@page" not in body  # the A4 rules live in decks.css
    for text in (deck.goalkeeper_id, deck.pk_goalkeeper_id, "cardlab", "Bench (6 cards)"):
        assert text in body
    assert 'class="print-sheet"' in body


def test_a_user_downloads_all_their_decks(alice_client, alice, legal_content):
    deck_create(owner=alice, name="One", content=legal_content)
    deck_create(owner=alice, name="Two", visibility="private")
    archive = zipfile.ZipFile(io.BytesIO(alice_client.get("/decks/mine/download.zip").content))
    names = archive.namelist()
    assert len(names) == 2 and all(n.endswith(".txt") for n in names)
    assert any(archive.read(n).decode().startswith("# Eleven Stars deck\nname: One") for n in names)
    data = alice_client.get("/decks/mine/download.json").json()
    assert sorted(d["name"] for d in data["decks"]) == ["One", "Two"]


def test_the_card_page_lists_public_decks_using_the_card(anon_client):
    deck = Deck.objects.get(slug="sample-bs-basic-set-starter")
    card = deck.entries.first().card_id
    body = anon_client.get(f"/cards/{card}/").content.decode()
    assert "Public decks using this card" in body and deck.get_absolute_url() in body


def test_the_public_index_searches_by_name_card_owner_and_legality(anon_client, alice):
    deck_create(owner=alice, name="Kashima draft", visibility="public")
    page = anon_client.get("/decks/?name=kashima")
    names = [d.name for d in page.context["page"].object_list]
    # Prebuilt sample decks have a section of their own below the users' decks.
    samples = [d.name for d, _col in page.context["sample_rows"]]
    assert names == ["Kashima draft"] and "Kashima Antlers 2000" in samples
    legal = anon_client.get("/decks/?name=kashima&legal=on").context["page"].object_list
    assert "Kashima draft" not in [d.name for d in legal]
    by_owner = anon_client.get("/decks/?owner=cardlab").context["sample_rows"]
    assert len(by_owner) == 6
    by_card = anon_client.get("/decks/?card=CD01-018").context["sample_rows"]
    assert [d.slug for d, _col in by_card] == ["sample-cd01-kashima-antlers-2001"]


def test_the_index_sorts_filters_by_team_and_shows_main_team_and_totals(anon_client, alice):
    deck_create(owner=alice, name="Zeta empty", visibility="public")
    page = anon_client.get("/decks/?team=kashima&sort=name")
    rows = page.context["sample_rows"]
    assert rows and all("Kashima" in d.name or col["team"] for d, col in rows)
    deck, col = next((d, c) for d, c in rows if d.slug == "sample-cd00-kashima-antlers-2000")
    assert col["team"].code == "kashima"
    expected = sum(e.card.shoot * e.quantity for e in deck.entries.filter(zone="deck"))
    assert col["totals"]["shoot"] == expected
    assert "Zeta empty" not in [d.name for d in page.context["page"].object_list]
    by_name = anon_client.get("/decks/?sort=name").context["sample_rows"]
    assert [d.name for d, _c in by_name] == sorted(d.name for d, _c in by_name)


def test_a_user_stars_a_public_deck_lists_it_and_the_page_counts_it(alice_client, bob_client):
    deck = Deck.objects.get(slug="sample-cd00-kashima-antlers-2000")
    star = alice_client.post(f"/decks/{deck.slug}/star/", {"starred": "1"}, HTTP_HX_REQUEST="true")
    assert star.status_code == 200 and "Starred" in star.content.decode()
    bob_client.post(f"/decks/{deck.slug}/star/", {"starred": "1"})
    alice_client.post(f"/decks/{deck.slug}/star/", {"starred": "1"})  # twice: still one star
    assert alice_client.get(deck.get_absolute_url()).context["star_count"] == 2
    starred = alice_client.get("/decks/starred/").context["rows"]
    assert [d.slug for d, _c in starred] == [deck.slug]
    alice_client.post(f"/decks/{deck.slug}/star/", {"starred": "0"})
    assert alice_client.get("/decks/starred/").context["rows"] == []


def test_a_private_deck_of_someone_else_cannot_be_starred(bob_client, decks_by_visibility):
    unlisted = decks_by_visibility["unlisted"]
    assert bob_client.post(f"/decks/{unlisted.slug}/star/", {"starred": "1"}).status_code == 400
    private = decks_by_visibility["private"]
    assert bob_client.post(f"/decks/{private.slug}/star/", {"starred": "1"}).status_code == 404


def test_sign_up_log_in_change_and_reset_the_password(client, django_user_model):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "carol",
            "email": "carol@example.com",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/users/carol/"
    assert "My decks" in client.get("/users/carol/").content.decode()
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": "a-long-pass-phrase-9",
            "new_password1": "another-pass-phrase-7",
            "new_password2": "another-pass-phrase-7",
        },
    )
    assert response.status_code == 302
    client.post("/accounts/logout/")
    assert "Log in" in client.get("/decks/").content.decode()
    assert client.login(username="carol", password="another-pass-phrase-7")
    client.post("/accounts/logout/")
    client.post("/accounts/password_reset/", {"email": "carol@example.com"})
    assert len(mail.outbox) == 1 and "/accounts/reset/" in mail.outbox[0].body
    assert client.get("/accounts/login/").status_code == 200


def test_the_builder_needs_a_login(anon_client):
    response = anon_client.get("/decks/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_deck_page_has_no_inline_script_and_its_odds_come_from_the_server(anon_client):
    deck = Deck.objects.get(slug="sample-cd00-kashima-antlers-2000")
    body = anon_client.get(deck.get_absolute_url()).content.decode()
    inline = [s for s in re.findall(r"<script([^>]*)>", body) if "src=" not in s]
    assert all('type="application/json"' in attrs for attrs in inline)
    assert 'data-chart="deck-stats"' in body and "js/charts.js" in body
    # The calculator asks the page again (decks/odds.py), here for 2 events after 10 draws.
    again = anon_client.get(
        deck.get_absolute_url() + "?odds=event&k=2&n=10", HTTP_HX_REQUEST="true"
    )
    assert again.context["odds_choice"]["seen"] == 14
    assert 'data-odds="after"' in again.content.decode()


def test_builder_results_are_sorted_and_grouped_with_labelled_stats(alice_client):
    page = alice_client.get("/decks/builder/cards/?q=set:BS team:urawa&sort=position")
    groups = page.context["result_groups"]
    assert [g["label"] for g in groups] == ["FW", "MF", "DF", "Goalkeepers"][: len(groups)]
    body = page.content.decode()
    assert "SH</abbr>" in body and "KP</abbr>" in body and 'class="badge sample"' in body
    shoot = alice_client.get("/decks/builder/cards/?q=set:BS team:urawa&sort=shoot")
    values = [c.shoot for c in shoot.context["cards"] if c.kind == "player"]
    assert values == sorted(values, reverse=True)


def test_a_new_deck_starts_from_a_prebuilt_deck_in_one_step(alice_client):
    source = Deck.objects.get(slug="sample-cd00-kashima-antlers-2000")
    page = alice_client.get(f"/decks/new/?from={source.slug}")
    assert json.loads(page.context["draft_json"]) == deck_content(source).to_json()
    assert page.context["dirty"] is True and Deck.objects.filter(name=source.name).count() == 1


def test_a_new_deck_starts_from_a_pasted_list_of_names_and_ids(alice_client):
    player = Card.objects.filter(kind="player", card_set_id="BS").order_by("number").first()
    keeper = Card.objects.filter(kind="goalkeeper", card_set_id="BS").order_by("number").first()
    text = f"4x {player.name.upper()}\n{keeper.name}\n2 bs-2\nbench:\n1 BS-003"
    page = alice_client.post("/decks/builder/start/", {"text": text})
    draft_data = json.loads(page.context["draft_json"])
    # A name printed in several sets picks its first printing.
    assert Card.objects.get(id=draft_data["goalkeeper"]).name == keeper.name
    named = [c for c in draft_data["deck"] if Card.objects.get(id=c).name == player.name]
    assert named and draft_data["deck"][named[0]] >= 4 and draft_data["deck"]["BS-002"] >= 2
    assert draft_data["bench"] == {"BS-003": 1}
    assert not Deck.objects.filter(owner__username="alice").exists()


def test_a_pasted_list_with_an_unknown_name_names_its_line(alice_client):
    page = alice_client.post("/decks/builder/start/", {"text": "4 BS-001\n2 Nobody At All"})
    assert page.status_code == 400
    assert "line 2" in page.content.decode() and "Nobody At All" in page.content.decode()


def test_the_deck_page_renders_its_markdown_description_sanitised(anon_client, alice):
    deck = deck_create(
        owner=alice,
        name="Notes",
        visibility="public",
        description="**Press** high <script>alert(1)</script> [x](javascript:alert(2))",
    )
    body = anon_client.get(deck.get_absolute_url()).content.decode()
    assert "<strong>Press</strong>" in body
    assert "alert(1)" not in body and "javascript:alert(2)" not in body


def test_the_builder_previews_a_description_as_the_deck_page_will_show_it(alice_client):
    page = alice_client.post("/decks/builder/description/", {"description": "*one* <b onclick=x>"})
    assert "<em>one</em>" in page.content.decode() and "onclick" not in page.content.decode()


def test_markdown_and_name_list_exports_of_a_deck(anon_client, alice_client):
    deck = Deck.objects.get(slug="sample-cd00-kashima-antlers-2000")
    md = anon_client.get(f"/decks/{deck.slug}/export.md").content.decode()
    assert md.startswith("## Kashima Antlers 2000") and "- 5× " in md and "(sample)" in md
    assert f"http://testserver/decks/{deck.slug}/" in md
    names = anon_client.get(f"/decks/{deck.slug}/names.txt?download")
    assert names["Content-Disposition"].endswith('.names.txt"')
    lines = names.content.decode().splitlines()
    assert sum(int(line.split()[0]) for line in lines if line != "bench:") == 61  # 60 + keeper
    # The list pastes back into the builder as a deck of the same size.
    again = alice_client.post("/decks/builder/start/", {"text": names.content.decode()})
    draft_data = json.loads(again.context["draft_json"])
    assert sum(draft_data["deck"].values()) == 60 and draft_data["goalkeeper"]


def test_the_print_sheet_has_a_favicon_marks_samples_and_points_at_the_deck(anon_client):
    deck = Deck.objects.get(slug="sample-cd00-kashima-antlers-2000")
    body = anon_client.get(f"/decks/{deck.slug}/print/").content.decode()
    assert 'rel="icon"' in body and "(sample)" in body
    footer = body[body.index('class="sheet-foot"') :]
    assert f"http://testserver/decks/{deck.slug}/ " in footer and "/print/" not in footer


def test_the_history_says_version_summaries_in_japanese(alice_client, alice, legal_content):
    deck = deck_create(owner=alice, name="History", content=legal_content)
    first = next(iter(legal_content.deck))
    deck_save(
        deck=deck,
        editor=alice,
        content=replace(legal_content, deck={**legal_content.deck, first: 4}),
        name="History 2",
        visibility="public",
    )
    page = alice_client.get(f"/decks/{deck.slug}/versions/", HTTP_ACCEPT_LANGUAGE="ja")
    shown = [v.summary_shown for v in page.context["versions"]]
    assert shown[1].startswith("作成、デッキ +6 ")
    assert shown[0] == f"「History 2」に名前を変更、公開範囲 非公開 → 公開、デッキ −2 {first}"
    english = alice_client.get(f"/decks/{deck.slug}/versions/", HTTP_ACCEPT_LANGUAGE="en")
    said = english.context["versions"][0].summary_shown
    assert said == f"renamed to “History 2”; visibility Private → Public; deck −2 {first}"


def test_sign_up_errors_are_japanese_and_one_per_line(client):
    client.cookies["django_language"] = "ja"
    page = client.post(
        "/accounts/signup/", {"username": "bo b", "password1": "abc", "password2": "abc"}
    )
    body = page.content.decode()
    errors = re.findall(r'<li class="field-error">([^<]+)</li>', body)
    assert len(errors) >= 3  # username, too short, too common: each its own item
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", e) for e in errors)
    assert '<ul class="field-errors" id="id_password2_error">' in body


def test_a_stale_builder_save_is_a_409_showing_both_and_saving_nothing(
    alice_client, alice, legal_content
):
    deck = deck_create(owner=alice, name="Two tabs", content=legal_content)
    bench_card = "BS-100"
    tab_one = replace(legal_content, bench={bench_card: 1})
    first = alice_client.post(
        f"/decks/{deck.slug}/edit/",
        {
            "name": "Two tabs",
            "visibility": "private",
            "description": "from tab one",
            "draft": draft(tab_one),
            "base_version": "1",
        },
    )
    assert first.status_code == 302
    stale = alice_client.post(
        f"/decks/{deck.slug}/edit/",
        {
            "name": "Two tabs",
            "visibility": "private",
            "description": "",
            "draft": draft(legal_content),
            "base_version": "1",
        },
    )
    body = stale.content.decode()
    assert stale.status_code == 409
    assert 'id="save-conflict"' in body and "from tab one" in body and bench_card in body
    deck.refresh_from_db()
    assert deck.description == "from tab one"
    assert deck_content(deck).bench == {bench_card: 1}
    assert deck.versions.count() == 2

    tab_two = replace(legal_content, deck={**legal_content.deck, "BS-002": 5})
    merged = alice_client.post(
        f"/decks/{deck.slug}/edit/",
        {
            "name": "Two tabs",
            "visibility": "private",
            "description": "",
            "draft": draft(tab_two),
            "base_version": "1",
            "merge": "1",
        },
    )
    assert merged.status_code == 200
    merged_draft = json.loads(
        re.search(r'name="draft" id="draft" value="([^"]*)"', merged.content.decode())
        .group(1)
        .replace("&quot;", '"')
    )
    assert merged_draft["bench"] == {bench_card: 1} and merged_draft["deck"]["BS-002"] == 5
    assert 'name="base_version" value="2"' in merged.content.decode()

    overwrite = alice_client.post(
        f"/decks/{deck.slug}/edit/",
        {
            "name": "Two tabs",
            "visibility": "private",
            "description": "",
            "draft": draft(legal_content),
            "base_version": "2",
        },
    )
    assert overwrite.status_code == 302
    deck.refresh_from_db()
    assert deck.description == "" and deck_content(deck).bench == {}


def test_the_builder_refuses_a_draft_whose_quantities_add_up_past_60(alice_client, alice):
    raw = json.dumps({"deck": [{"card": "BS-012", "quantity": 60}] * 551})
    response = alice_client.post(
        "/decks/new/", {"name": "Overflow", "visibility": "private", "draft": raw}
    )
    assert response.status_code == 400 and "adds up to 33060" in response.content.decode()
    assert not Deck.objects.filter(owner=alice).exists()


def test_a_deeply_nested_builder_draft_is_refused(alice_client, alice):
    raw = "[" * 50_000 + "]" * 50_000
    preview = alice_client.post("/decks/builder/preview/", {"draft": raw})
    save = alice_client.post("/decks/new/", {"name": "Deep", "visibility": "private", "draft": raw})
    assert preview.status_code == 200 and "nested deeper" in preview.content.decode()
    assert save.status_code == 400 and not Deck.objects.filter(owner=alice).exists()


def test_a_comment_only_deck_text_is_refused_by_the_import_page(alice_client, alice):
    response = alice_client.post(
        "/decks/import/", {"text": "# only\n# comments\n", "visibility": "private"}
    )
    assert response.status_code == 400 and "only comments" in response.content.decode()
    assert not Deck.objects.filter(owner=alice).exists()


def test_the_deck_page_shows_the_deck_its_legality_and_notices_before_the_collection(
    alice, alice_client, legal_content
):
    # An illegal deck whose newest version came from a catalog change, seen by its owner, who
    # owns none of its cards: the notice and the problems first, the collection folded last.
    content = replace(legal_content, goalkeeper=None)
    deck = deck_create(owner=alice, name="Changed", content=content)
    deck.versions.create(
        number=2,
        name=deck.name,
        summary="BS-012 changed in the catalog.",
        content=content.to_json(),
        is_legal=False,
        catalog_change=True,
    )
    body = alice_client.get(deck.get_absolute_url()).content.decode()
    places = [
        body.index(mark)
        for mark in (
            'id="catalog-notice"',
            'class="problems-box"',
            'class="deck-layout"',
            'id="collection-missing"',
        )
    ]
    assert places == sorted(places)
    assert '<details class="deck-collection" id="collection-missing">' in body
    notice = body[places[0] - 60 : places[1]]
    assert "style=" not in notice  # the CSP drops style attributes: the notice uses a class
