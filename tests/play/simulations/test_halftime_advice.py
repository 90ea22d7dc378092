"""Halftime and bench advice (issue #29 item 4): legal halftime swaps (R-MATCH-5), the card
report's matches replayed with each swap on the same seeds, per bench card and per out-card
advice in both languages, refusals before anything is queued."""

from unittest.mock import patch

import pytest

from catalog.models import Card
from play.engine.cards import Card as EngineCard
from play.models import SimulationBatch
from play.simulations import halftime, services
from play.simulations.sides import latest_snapshot, prebuilt_decks
from tests.play.simulations.inline import run_all

pytestmark = pytest.mark.django_db

PLANTED_EFFECT = "shoot:+9;keep:+9"  # an event far stronger than any of the catalogue's
BENCHED = "Júbilo Iwata 2001"  # a prebuilt deck with a bench (six cards, one the PK keeper)


def snapshot_named(name):
    deck = prebuilt_decks().get(name=name)
    return latest_snapshot(deck, "deck", {}, verb="played")[1]


def test_every_candidate_is_a_swap_the_engine_allows_at_halftime():
    from play.engine.match import HALFTIME, Match
    from play.engine.runner import play_match  # noqa: F401 - the engine is loaded

    base = snapshot_named(BENCHED)
    candidates = halftime.candidate_swaps(base)
    assert candidates
    known = {c: EngineCard.from_log(d) for c, d in base["card_data"].items()}
    assert all(known[card_in].kind != "goalkeeper" for _, card_in in candidates)  # R-DECK-2
    # The engine's own list at a real halftime (R-MATCH-5) is exactly ours, plus "no swap".
    from play.simulations.core import side_deck

    side = side_deck(base)
    match = Match.new(side, side_deck(snapshot_named("2002 Starter")), seed=3)
    while match.decision != HALFTIME:
        match.apply_action(match.legal_actions(limit=1)[0])
    engine = [list(action.swaps[0]) for action in match.legal_actions() if action.swaps]
    assert sorted(engine) == sorted(candidates)


def test_a_forced_swap_changes_only_the_second_half():
    base = snapshot_named(BENCHED)
    opponent = snapshot_named("2002 Starter")
    swap = halftime.candidate_swaps(base)[0]
    from play.engine.runner import play_match
    from play.simulations.core import side_deck

    a, b = side_deck(base), side_deck(opponent)
    for seed in (1, 2, 3):
        plain = play_match(a, b, policy_a="greedy", policy_b="greedy", seed=seed)
        none = play_match(
            a, b, policy_a=halftime.ForcedHalftime("greedy", None), policy_b="greedy", seed=seed
        )
        forced = play_match(
            a, b, policy_a=halftime.ForcedHalftime("greedy", swap), policy_b="greedy", seed=seed
        )
        assert none.log == plain.log  # greedy never swaps: the baseline is the bot's match
        events = forced.log["events"]
        cut = next(i for i, e in enumerate(events) if e["type"] == "halftime")
        assert events[:cut] == plain.log["events"][:cut]  # the same first half
        assert events[cut]["swaps"]["A"] == [swap]


def test_the_baseline_replays_the_card_reports_matches(alice):
    """With the same seed, the halftime batch's no-swap baseline plays the card report's very
    matches: its wins per opponent equal the report's."""
    from decks.services import deck_copy

    deck = deck_copy(deck=prebuilt_decks().get(name=BENCHED), owner=alice)
    report = run_all(create(alice, deck, kind="cards", runs=30, seed=21))
    batch = run_all(create(alice, deck, runs=30, seed=999, report=report.pk, out=first_out(deck)))
    assert batch.status == "done" and batch.params["report_seed"] == 21
    assert batch.results["baseline"] == {
        "runs": report.results["runs"],
        "wins": report.results["wins"],
        "win_rate": report.results["win_rate"],
    }
    without = run_all(create(alice, deck, runs=30, seed=21, out=first_out(deck)))
    assert without.results["baseline"]["wins"] == report.results["wins"]  # same seed, same plan


def test_verdicts_and_holm():
    base = snapshot_named(BENCHED)
    swaps = [["CD01-001", "CD01-042"], ["CD01-001", "CD01-043"], ["CD01-002", "CD01-042"]]
    merged = {
        "baseline": [400, 200],
        "candidates": {"0": [400, 260, 70, 10], "1": [400, 150, 10, 60], "2": [20, 10, 1, 1]},
        "refused": 0,
    }
    summary = halftime.summarize(snapshot=base, swaps=swaps, merged=merged)
    by = {(row["out"], row["in"]): row for row in summary["swaps"]}
    assert by["CD01-001", "CD01-042"]["verdict"] == "worth"
    assert by["CD01-001", "CD01-043"]["verdict"] == "costs"
    assert by["CD01-002", "CD01-042"]["verdict"] == "too_few"
    bench = {entry["card"]: entry for entry in summary["bench"]}
    assert (
        bench["CD01-042"]["verdict"] == "worth" and bench["CD01-042"]["best"]["out"] == "CD01-001"
    )
    assert bench["CD01-043"]["verdict"] == "costs"
    assert bench["CD01-041"]["verdict"] == "never_legal"  # the PK goalkeeper: R-DECK-2
    assert summary["runs"] == 400 * 4


# --- batches ---------------------------------------------------------------------------------


def first_out(deck) -> list[str]:
    """Return the first card of the deck's latest version, as a one-card "out" list."""
    return [min(latest_snapshot(deck, "deck", {}, verb="played")[1]["cards"])]


def create(owner, deck, *, runs, seed=3, kind="halftime", **study):
    with patch("play.simulations.services.queue_chunks"):
        return services.batch_create(
            owner=owner,
            request=services.BatchRequest(
                kind=kind, deck_a=deck, runs=runs, seed=seed, study=study
            ),
        )


@pytest.fixture
def planted(alice):
    """Alice's copy of a prebuilt deck with a bench, and on that bench an event far stronger
    than any card of her deck."""
    from decks.content import DeckContent
    from decks.services import deck_create

    template = Card.objects.get(pk="02-171")
    card = Card.objects.create(
        id=Card.make_id(template.card_set.code, 991),
        card_set=template.card_set,
        number=991,
        name="Planted",
        name_ja="仕込み",
        kind="event",
        effect=PLANTED_EFFECT,
    )
    source = prebuilt_decks().get(name=BENCHED)
    content = DeckContent.from_json(source.versions.order_by("-number").first().content)
    bench = {**content.bench, card.id: 1}
    deck = deck_create(
        owner=alice,
        name="Bench test",
        content=DeckContent(
            goalkeeper=content.goalkeeper,
            pk_goalkeeper=content.pk_goalkeeper,
            deck=dict(content.deck),
            bench=bench,
        ),
    )
    assert deck.is_legal
    return deck, card


def test_the_advice_finds_a_planted_better_bench_card(alice, planted):
    """The planted event's gain comes only in the second half, a point or two: one card of
    the deck, the planted card and two ordinary bench cards, on enough seeds to tell."""
    deck, card = planted
    ins = [card.id, "CD01-042", "CD01-045"]
    batch = run_all(create(alice, deck, runs=500, out=first_out(deck), **{"in": ins}))
    assert batch.status == "done"
    results = batch.results
    assert results["candidates"] == len(batch.params["swaps"]) == 3
    assert results["correction"] == "holm" and results["baseline"]["runs"] == 500 * 6
    bench = {entry["card"]: entry for entry in results["bench"]}
    planted_entry = bench[card.id]
    assert planted_entry["verdict"] == "worth", planted_entry
    assert planted_entry["best"]["interval"][0] > 0 and planted_entry["best"]["pairs"] == 3000
    assert [bench[c]["verdict"] for c in ins[1:]] != ["worth", "worth"]
    assert results["swaps"][0]["in"] == card.id  # the best swap brings it on
    english = planted_entry["advice"]["en"]
    assert english.startswith("Worth bringing") and "Planted" in english
    assert "仕込み" in planted_entry["advice"]["ja"]
    assert deck.versions.count() == 1  # advice never touches the deck


def refusal(owner, deck, runs=10, **study):
    with pytest.raises(services.BatchInvalid) as raised:
        create(owner, deck, runs=runs, **study)
    assert not SimulationBatch.objects.exists()
    return raised.value.errors


def test_refusals_before_anything_is_queued(alice, bob, planted, settings):
    from decks.services import deck_copy

    deck, card = planted
    no_bench = deck_copy(deck=prebuilt_decks().get(name="2002 Starter"), owner=alice)
    errors = refusal(alice, no_bench)
    assert "no bench" in errors["deck_a"][0]
    assert "no card to bring on at halftime" in errors["deck_a"][0]
    # only the PK goalkeeper matters to "in": no swap left
    assert "bench" in refusal(alice, deck, **{"in": ["CD01-041"]})
    settings.SIMULATION_MAX_RUNS = 50_000  # 100 runs x 6 decks x (swaps + 1) is far more
    errors = refusal(alice, deck, runs=100)
    assert "at most 50,000" in errors["runs"][0]
    assert "report" in refusal(alice, deck, report=12345)
    assert "out" in refusal(alice, deck, out="02-171")
    settings.SIMULATION_SWAPS_MAX_FIELD = 3
    assert "6 decks" in refusal(alice, deck)["field"][0]
    settings.SIMULATION_SWAPS_MAX_FIELD = 50
    prebuilt_decks().update(visibility="private")
    assert "empty" in refusal(alice, deck)["field"][0]


def test_a_refusal_is_said_in_japanese(alice, alice_client):
    from decks.services import deck_copy

    no_bench = deck_copy(deck=prebuilt_decks().get(name="2002 Starter"), owner=alice)
    alice_client.cookies["django_language"] = "ja"
    response = alice_client.post(
        "/api/simulations/",
        {"kind": "halftime", "deck_a": no_bench.slug, "runs": 5},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 400, response.content
    assert "ベンチ" in str(response.json()), response.json()
    assert not SimulationBatch.objects.exists()


def test_the_advice_is_a_page_an_api_response_and_a_download(
    alice, alice_client, bob_client, planted
):
    deck, card = planted
    batch = run_all(create(alice, deck, runs=2, out=first_out(deck)))
    assert batch.status == "done"
    page = alice_client.get(batch.get_absolute_url()).content.decode()
    assert 'id="bench-advice"' in page and 'id="out-advice"' in page and "Planted" in page
    # Each advice row names the card its best swap pairs it with, not only its id.
    best = next(e["best"] for e in batch.results["out_cards"] if e["best"])
    named = Card.objects.get(pk=best["in"]).display_name
    start = page.index('id="out-advice"')
    assert f"<code>{best['in']}</code> {named}</td>" in page[start : page.index("</table>", start)]
    api = alice_client.get(f"/api/simulations/{batch.pk}/").json()
    assert api["results"]["kind"] == "halftime" and api["results"]["bench"]
    assert {"en", "ja"} <= set(api["results"]["bench"][0]["advice"])
    lines = alice_client.get(f"/simulations/{batch.pk}/halftime.csv").content.decode().splitlines()
    assert lines[0].startswith("baseline_matches,baseline_wins,number,out,in,pairs")
    assert len(lines) == 1 + len(batch.params["swaps"])
    assert bob_client.get(f"/simulations/{batch.pk}/halftime.csv").status_code == 404
    alice_client.cookies["django_language"] = "ja"
    from tests.test_japanese_pages import _data_words, english_in

    ja = alice_client.get(batch.get_absolute_url()).content.decode()
    assert "仕込み" in ja
    left = english_in(ja, _data_words())
    assert left == [], left


def test_cancel_keeps_partial_results(alice, planted):
    deck, card = planted
    batch = create(alice, deck, runs=4, out=first_out(deck))
    services.chunk_run(batch_id=batch.pk, index=0)
    assert services.batch_cancel(batch=batch)
    from play.simulations import selectors

    batch.refresh_from_db()
    results, partial = selectors.batch_shown_results(batch)
    assert partial and results["kind"] == "halftime" and results["baseline"]["runs"] > 0


@pytest.mark.django_db(transaction=True)
def test_a_halftime_batch_on_real_workers_equals_the_same_batch_run_in_process(settings, workers):
    """Real worker processes (the suite's broker) run the kind's chunks; the results equal
    those of the same batch (same seed) run chunk by chunk in this process."""
    from django.contrib.auth import get_user_model

    from catalog.services import catalog_load
    from decks.services import deck_copy
    from tests.waits import wait_until

    catalog_load()
    owner = get_user_model().objects.create_user("hattie", password="pw-halftime-1")
    deck = deck_copy(deck=prebuilt_decks().get(name=BENCHED), owner=owner)
    study = {"out": first_out(deck)}
    inline = run_all(create(owner, deck, runs=12, seed=77, **study))
    workers.start()
    batch = services.batch_create(
        owner=owner,
        request=services.BatchRequest(kind="halftime", deck_a=deck, runs=12, seed=77, study=study),
    )

    def finished():
        batch.refresh_from_db()
        return not batch.is_active

    wait_until(finished, timeout=180, what="halftime batch")
    assert batch.status == "done", workers.logs()
    assert batch.results == inline.results and batch.results["baseline"]["runs"] == 12 * 6


def test_the_simulate_form_offers_the_kind_and_shows_the_refusal(alice, alice_client, planted):
    from django.urls import reverse

    from decks.services import deck_copy

    no_bench = deck_copy(deck=prebuilt_decks().get(name="2002 Starter"), owner=alice)
    form = {"deck": no_bench.slug, "kind": "halftime", "policy_a": "greedy", "runs": 5}
    response = alice_client.post(reverse("play:batch-new"), {**form, "policy_b": "greedy"})
    assert response.status_code == 400
    assert "has no bench" in response.content.decode()
    assert not SimulationBatch.objects.exists()
    deck, _card = planted
    response = alice_client.post(
        reverse("play:batch-new"), {**form, "deck": deck.slug, "policy_b": "greedy"}
    )
    batch = SimulationBatch.objects.get()
    assert response.status_code == 302 and batch.kind == "halftime"
    assert batch.params["swaps"] and batch.deck_a_version.deck == deck


def test_the_card_report_page_asks_for_advice_on_its_own_matches(alice, alice_client, bob_client):
    from decks.services import deck_copy

    deck = deck_copy(deck=prebuilt_decks().get(name=BENCHED), owner=alice)
    report = run_all(create(alice, deck, kind="cards", runs=2, seed=5))
    page = alice_client.get(report.get_absolute_url()).content.decode()
    url = f"/simulations/{report.pk}/halftime/"
    assert f'action="{url}"' in page
    assert bob_client.post(url).status_code == 404  # owner only
    with patch("play.simulations.services.queue_chunks"):
        response = alice_client.post(url)
    batch = SimulationBatch.objects.get(kind="halftime")
    assert response.status_code == 302 and response.url == batch.get_absolute_url()
    assert batch.params["report"] == report.pk and batch.params["report_seed"] == report.seed
    assert batch.sides == report.sides
    no_bench = deck_copy(deck=prebuilt_decks().get(name="2002 Starter"), owner=alice)
    other = run_all(create(alice, no_bench, kind="cards", runs=1, seed=5))
    response = alice_client.post(f"/simulations/{other.pk}/halftime/", follow=True)
    assert "has no bench" in response.content.decode()
    assert SimulationBatch.objects.filter(kind="halftime").count() == 1


@pytest.mark.slow
def test_a_bench_card_worth_bringing_holds_on_fresh_seeds_in_an_independent_engine(alice, planted):
    """Issue #29: a suggestion marked significant must hold when an independent engine re-plays
    it on fresh seeds: the plain-Python engine in another process, its own halftime bot
    (tests/play/simulations/independent_replay.py), seeds the batch never played."""
    import math

    from play.seeds import chunk_seed
    from tests.play.simulations.test_independent_replay import Z95, replay

    deck, card = planted
    ins = [card.id, "CD01-042"]
    batch = run_all(create(alice, deck, runs=500, out=first_out(deck), **{"in": ins}))
    worth = [e for e in batch.results["bench"] if e["verdict"] == "worth"]
    assert card.id in [e["card"] for e in worth]  # the planted card; others may stand too
    played = set()
    for index, start, count in batch.params["plan"]:
        seed = chunk_seed(batch.params["report_seed"], index)
        played.update(halftime.match_seeds(seed, start, count))
    seeds = 700
    for entry in worth:  # every bench card marked worth bringing must hold
        row = entry["best"]
        result = replay(
            batch.sides,
            [row["out"], row["in"]],
            batch.sides[0]["card_data"][row["in"]],
            salt=f"halftime:{batch.pk}:{row['in']}",
            seeds=seeds,
            halftime=True,
        )
        assert result["compiled"] is False and not played & set(result["seeds"])
        n = result["pairs"]
        assert n == seeds * 6 and result["swaps_made"] == n  # legal in every match
        mean = (result["up"] - result["down"]) / n
        se = math.sqrt(((result["up"] + result["down"]) / n - mean * mean) / (n - 1))
        low, high = mean - Z95 * se, mean + Z95 * se
        assert mean > 0 and high > row["interval"][0], (row, mean, se)  # a gain again
        b_se = (row["interval"][1] - row["interval"][0]) / (2 * Z95)
        # the two estimates agree within their intervals (a two-sample z test at 95%)
        assert abs(mean - row["difference"]) <= Z95 * math.hypot(se, b_se), (mean, row)
        if row["in"] == card.id:  # the planted card's gain is large: fresh seeds show it alone
            assert low > 0, (mean, se)
