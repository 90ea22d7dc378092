"""Swap suggestions (issue #29 item 2): legal candidates, paired seeds, screening against +3
points, a confirmation sized for its power, Holm's correction, refusals, "apply to a copy"."""

from collections import Counter
from unittest.mock import patch

import pytest

from catalog.models import Card
from decks.legality import engine_card
from play.models import SimulationBatch
from play.simulations import services, swaps
from play.simulations.kinds import get as kind_named
from play.simulations.sides import latest_snapshot, prebuilt_decks
from tests.play.simulations.inline import run_all

pytestmark = pytest.mark.django_db

PLANTED_EFFECT = "shoot:+9;keep:+9"  # an event far stronger than any of the catalogue's


def snapshots():
    return [latest_snapshot(deck, "deck", {}, verb="played")[1] for deck in prebuilt_decks()]


def catalogue() -> dict[str, dict]:
    cards = Card.objects.exclude(kind="goalkeeper")
    return {card.id: engine_card(card).to_log() for card in cards}


def known_cards(base, in_cards):
    from play.engine.cards import Card as EngineCard

    data = {**in_cards, **base["card_data"]}
    return {card_id: EngineCard.from_log(d) for card_id, d in data.items()}


def test_every_candidate_keeps_the_deck_legal():
    base = snapshots()[0]
    in_cards = catalogue()
    candidates = swaps.candidate_swaps(base, in_cards)
    known = known_cards(base, in_cards)
    assert candidates
    for swap in candidates:
        assert swaps._problems(swaps.swapped(base, swap, in_cards), known) == [], swap
    persons = {known[c].person for c in base["cards"] if known[c].person}
    copies = Counter(base["cards"])
    # R-DECK-3: a player of an 11th person may not come in for one copy of a 5-copy player
    full = next(c for c, n in copies.items() if known[c].person and n > 1)
    newcomer = next(
        card_id
        for card_id, card in sorted(known.items())
        if card.kind == "player" and card.person not in persons
    )
    assert [full, newcomer] not in candidates
    # R-DECK-2: a goalkeeper never comes into the deck
    assert not any(known[card_in].kind == "goalkeeper" for _, card_in in candidates)
    # an event for an event keeps everything legal
    events = [c for c in copies if known[c].kind == "event"]
    other = next(c for c, card in sorted(known.items()) if card.kind == "event" and c != events[0])
    assert [events[0], other] in candidates


def test_the_baseline_and_every_candidate_play_the_same_seeds():
    sides = snapshots()
    base = sides[0]
    in_cards = catalogue()
    candidates = swaps.candidate_swaps(base, in_cards)[:3]
    seen: dict[tuple, list[int]] = {}
    real = swaps.play_match

    def recording(side_a, side_b, **kwargs):
        seen.setdefault(side_a.cards, []).append(kwargs["seed"])
        return real(side_a, side_b, **kwargs)

    with patch.object(swaps, "play_match", recording):
        result = swaps.run_chunk(
            base=base,
            opponent=sides[1],
            swaps=candidates,
            alive=[0, 1, 2],
            in_cards=in_cards,
            params={},
            runs=4,
            seed=99,
        )
    assert len(seen) == 4  # deck A and 3 different decks
    assert len({tuple(s) for s in seen.values()}) == 1  # the very same 4 seeds for each
    assert len(next(iter(seen.values()))) == 4 and result["runs"] == 4
    for wins, up, down in result["candidates"].values():
        assert wins - result["baseline_wins"] == up - down  # paired: a difference of wins


def test_a_candidate_as_good_as_the_deck_itself_changes_nothing_on_paired_seeds():
    sides = snapshots()
    base = sides[0]
    events = [c for c in set(base["cards"]) if base["card_data"][c]["kind"] == "event"]
    twins = [
        (a, b)
        for a in events
        for b in events
        if a != b and base["card_data"][a]["effect"] == base["card_data"][b]["effect"]
    ]
    out, card_in = sorted(twins)[0]  # two events of the same effect: the same deck in play
    result = swaps.run_chunk(
        base=base,
        opponent=sides[1],
        swaps=[[out, card_in]],
        alive=[0],
        in_cards={},
        params={},
        runs=20,
        seed=5,
    )
    assert result["candidates"]["0"] == [result["baseline_wins"], 0, 0]


def test_screening_drops_what_cannot_be_worth_three_points_and_sends_on_what_clearly_is():
    totals = {
        0: [2000, 100, 300],  # -10 points: below
        1: [2000, 500, 100],  # +20 points: above
        2: [200, 30, 24],  # +3 points on 200 pairs: unclear
        3: [48, 0, 0],  # no outcome changed in 48 pairs: too few to say
        4: [5000, 0, 0],  # none changed in 5,000 pairs: cannot be worth +3
        5: [0, 0, 0],  # not played yet
    }
    assert swaps.screen(list(totals), totals) == {
        "below": [0, 4],
        "above": [1],
        "unclear": [2, 3, 5],
    }


def screening_then_confirmation(rng, *, p_up, p_down, first, opponents, family):
    """Play one swap through the design with outcomes drawn from (p_up, p_down) a pair:
    return "below" if the screening drops it, else whether its confirmation stands at Holm's
    strictest level over `family` (as the kind does)."""
    n = up = down = 0
    for stage in range(swaps.SCREEN_STAGES):
        pairs = swaps.stage_runs(first, stage) * opponents
        u, d, _same = rng.multinomial(pairs, [p_up, p_down, 1 - p_up - p_down])
        n, up, down = n + pairs, up + int(u), down + int(d)
        decided = swaps.screen([0], {0: [n, up, down]})
        if decided["below"]:
            return "below"
        if decided["above"]:
            break
    pairs, _variance, _effect = swaps.confirmation_pairs(n, up, down, family=family)
    runs = max(first, -(-pairs // opponents))
    u, d, _same = rng.multinomial(runs * opponents, [p_up, p_down, 1 - p_up - p_down])
    p_better = swaps.paired(runs * opponents, int(u), int(d), margin=swaps.MARGIN)["p_better"]
    return p_better <= swaps.ALPHA / family


@pytest.mark.parametrize(
    ("p_up", "p_down"),
    [(0.03, 0.0), (0.065, 0.035), (0.30, 0.27)],  # +3 points with few, some, many outcomes changed
)
def test_a_swap_worth_three_points_is_found_at_least_95_times_in_100(p_up, p_down):
    """The goal's promise, checked on the design itself: 2,000 simulated runs of a swap worth
    exactly +3 points (6 field decks, 8 seeds a deck first, 40 swaps confirmed alongside)."""
    import numpy

    rng = numpy.random.default_rng(29)
    found = [
        screening_then_confirmation(rng, p_up=p_up, p_down=p_down, first=8, opponents=6, family=40)
        is True
        for _ in range(2000)
    ]
    assert sum(found) / len(found) >= 0.95


def test_a_swap_worth_nothing_rarely_stands():
    import numpy

    rng = numpy.random.default_rng(30)
    outcomes = [
        screening_then_confirmation(rng, p_up=0.05, p_down=0.05, first=8, opponents=6, family=1)
        for _ in range(2000)
    ]
    assert sum(outcome is True for outcome in outcomes) / len(outcomes) <= 0.05
    assert sum(outcome == "below" for outcome in outcomes) > 1000  # most stop in the screening


def test_a_confirmation_is_sized_for_its_effect_and_its_family():
    # the same screening, a larger family: more pairs (Holm's strictest level is alpha / m)
    one, _v, worth = swaps.confirmation_pairs(1500, 200, 160, family=1)
    forty, _v, _e = swaps.confirmation_pairs(1500, 200, 160, family=40)
    assert forty > one > 0 and worth == swaps.WORTH
    # a swap clearly worth +20 points needs far fewer games than one near +3
    strong, _v, effect = swaps.confirmation_pairs(1500, 400, 100, family=40)
    assert strong * 10 < forty and effect > 0.15
    # the power the rows show: about 97.5% when the pairs asked for are played
    pairs, variance, _e = swaps.confirmation_pairs(1500, 200, 160, family=40)
    assert swaps.power_at(pairs, variance, 40) == pytest.approx(0.975, abs=0.002)
    assert swaps.power_at(pairs // 4, variance, 40) < 0.6


def test_holm_step_down_over_every_candidate_tested():
    # m = 10: the smallest p must be <= 0.005, the next <= 0.05/9, ...
    assert swaps.holm({1: 0.004, 2: 0.0055, 3: 0.2}, m=10) == {1: True, 2: True, 3: False}
    assert swaps.holm({1: 0.006, 2: 0.001}, m=10) == {1: False, 2: True}
    assert swaps.holm({1: 0.04}, m=1) == {1: True}


def test_paired_statistics():
    result = swaps.paired(100, 30, 10)
    assert result["difference"] == pytest.approx(0.2)
    low, high = result["interval"]
    assert low < 0.2 < high and result["p_value"] < 0.01
    assert result["p_better"] == pytest.approx(result["p_value"] / 2)  # one-sided, better
    assert swaps.paired(100, 10, 30)["p_better"] > 0.99  # worse is not better
    # better by more than a margin: a +1.5-point gain on 4,000 pairs is better than the deck,
    # not clearly better by more than +1 point
    small = {"n": 4000, "up": 430, "down": 370}
    assert swaps.paired(*small.values())["p_better"] < 0.02
    assert swaps.paired(*small.values(), margin=swaps.MARGIN)["p_better"] > 0.2
    assert swaps.paired(100, 0, 0)["p_value"] == 1.0


# --- batches ---------------------------------------------------------------------------------


@pytest.fixture
def planted(alice):
    """Alice's copy of the first prebuilt deck, and a catalogue event far stronger than hers."""
    from decks.services import deck_copy

    template = Card.objects.get(pk="02-171")
    card = Card.objects.create(
        id=Card.make_id(template.card_set.code, 990),
        card_set=template.card_set,
        number=990,
        name="Planted",
        name_ja="仕込み",
        kind="event",
        effect=PLANTED_EFFECT,
    )
    deck = deck_copy(deck=prebuilt_decks().first(), owner=alice)
    return deck, card


def swaps_batch(owner, deck, *, runs, seed=3, **study):
    with patch("play.simulations.services.queue_chunks"):
        return services.batch_create(
            owner=owner,
            request=services.BatchRequest(
                kind="swaps", deck_a=deck, runs=runs, seed=seed, study=study
            ),
        )


def test_a_planted_good_swap_is_found_and_stands(alice, planted):
    deck, card = planted
    batch = swaps_batch(alice, deck, runs=80, out=["02-171"], **{"in": [card.id, "02-183"]})
    assert batch.params["swaps"] == [["02-171", "02-183"], ["02-171", card.id]]
    batch = run_all(batch)
    assert batch.status == "done"
    results = batch.results
    assert results["complete"] and results["correction"] == "holm"
    best = results["swaps"][0]
    assert (best["out"], best["in"]) == ("02-171", card.id)
    assert best["stands"] and best["decision"] == "stands" and best["difference"] > 0.03
    assert best["confirmed"]["interval"][0] > 0
    # the confirmation played fresh seeds, as many as its record asked, with its power kept
    last = batch.params["stages"][-1]
    assert last["confirmation"] and results["confirmed"] == len(last["alive"])
    asked = last["runs_each"][str(best["number"])] * len(results["field"])
    assert best["confirmed"]["pairs"] >= asked and best["confirmed"]["power"] >= 0.97
    assert best["confirmed"]["sized_for"] >= swaps.WORTH
    assert deck.versions.count() == 1  # suggestions never touch the deck


@pytest.fixture
def short_confirmation(monkeypatch):
    """A confirmation of 60 pairs a candidate instead of the thousands its power needs: for
    tests of what a batch does with its stages (seeds, pages, downloads), not of its power."""
    monkeypatch.setattr(
        swaps, "confirmation_pairs", lambda n, up, down, *, family: (60, 0.3, swaps.WORTH)
    )


def test_the_same_seed_gives_the_same_report(alice, planted, short_confirmation):
    deck, card = planted
    study = {"out": ["02-171"], "in": [card.id]}
    first = run_all(swaps_batch(alice, deck, runs=2, seed=11, **study))
    second = run_all(swaps_batch(alice, deck, runs=2, seed=11, **study))
    assert first.results == second.results and first.results["runs"] > 0


def test_a_later_stage_is_planned_once_from_the_earlier_results(alice, planted, settings):
    deck, card = planted
    settings.SIMULATION_SWAPS_MAX_FIELD = 50
    batch = swaps_batch(alice, deck, runs=1, out=["02-171", "02-168", "02-163"])
    stage0 = batch.params["stages"][0]["alive"]
    for index in range(batch.chunk_count):
        services.chunk_run(batch_id=batch.pk, index=index)
    batch.refresh_from_db()
    assert batch.status != "done" and len(batch.params["stages"]) == 2
    first, second = batch.params["stages"]
    # 6 pairs each say nothing about +3 points: every candidate is unclear and plays on
    assert first["below"] == [] and first["above"] == [] and second["alive"] == stage0
    assert second["runs"] == 2 and not second["confirmation"]
    assert batch.chunks.count() == batch.chunk_count > 0
    assert (
        not services.batch_next_stage(batch_id=batch.pk)
        or batch.chunks.filter(finished_at__isnull=True).exists()
    )
    batch.refresh_from_db()
    assert len(batch.params["stages"]) == 2  # asking again adds nothing


def test_a_confirmation_that_would_go_over_the_budget_is_scaled_down_and_says_so(alice, planted):
    deck, card = planted
    batch = swaps_batch(alice, deck, runs=40, out=["02-171"], **{"in": [card.id, "02-183"]})
    kind = kind_named("swaps")
    totals = {0: [240, 30, 30], 1: [240, 120, 10]}
    roomy = {**batch.params, "budget": 10**6}
    wanted, power, sized_for = kind._confirmation_runs(roomy, totals, [0, 1], 6, {})
    assert power["0"] == pytest.approx(0.975, abs=0.01) and wanted[0] > wanted[1]
    assert sized_for["0"] == swaps.WORTH < sized_for["1"]  # 1 is clearly better: sized for more
    tight = {**batch.params, "budget": 3000}
    scaled, kept, _sized = kind._confirmation_runs(tight, totals, [0, 1], 6, {})
    assert kind._confirmation_matches(scaled, 6) <= 3000 < kind._confirmation_matches(wanted, 6)
    assert kept["0"] < power["0"]


def refusal(owner, deck, runs=10, **study):
    with pytest.raises(services.BatchInvalid) as raised:
        swaps_batch(owner, deck, runs=runs, **study)
    assert not SimulationBatch.objects.exists()
    return raised.value.errors


def test_refusals_before_anything_is_queued(alice, planted, settings):
    from decks.content import DeckContent
    from decks.services import deck_create

    deck, card = planted
    illegal = deck_create(owner=alice, name="Half", content=DeckContent(deck={"02-171": 2}))
    assert "deck_a" in refusal(alice, illegal)
    settings.SIMULATION_MAX_RUNS = 10_000
    errors = refusal(alice, deck)  # the whole catalogue: thousands of swaps
    assert "candidates" in errors and "at most 10,000" in errors["candidates"][0]
    assert "to screen" in errors["candidates"][0]
    settings.SIMULATION_SWAPS_MAX_FIELD = 3
    assert "6 decks" in refusal(alice, deck)["field"][0]
    settings.SIMULATION_SWAPS_MAX_FIELD = 50
    prebuilt_decks().update(visibility="private")
    assert "empty" in refusal(alice, deck)["field"][0]
    assert "source" in refusal(alice, deck, source="garden")


def test_the_collection_offers_only_cards_owned_beyond_the_decks_copies(alice, planted):
    from decks.models import CollectionEntry

    deck, card = planted
    assert "source" in refusal(alice, deck, source="collection")  # owns nothing
    CollectionEntry.objects.create(owner=alice, card=card, quantity=1)
    CollectionEntry.objects.create(owner=alice, card_id="02-171", quantity=2)  # deck holds 2
    batch = swaps_batch(alice, deck, runs=1, source="collection")
    assert {card_in for _, card_in in batch.params["swaps"]} == {card.id}
    assert kind_named("swaps").label


def test_the_report_is_a_page_an_api_response_and_a_download_and_applies_to_a_copy(
    alice, alice_client, bob_client, planted, short_confirmation
):
    from decks.models import Deck

    deck, card = planted
    batch = run_all(swaps_batch(alice, deck, runs=2, out=["02-171"], **{"in": [card.id]}))
    assert batch.status == "done"
    page = alice_client.get(batch.get_absolute_url()).content.decode()
    assert 'id="swap-suggestions"' in page and "Apply to a copy of my deck" in page
    api = alice_client.get(f"/api/simulations/{batch.pk}/").json()
    assert api["results"]["swaps"][0]["in"] == card.id and api["results"]["correction"] == "holm"
    lines = alice_client.get(f"/simulations/{batch.pk}/swaps.csv").content.decode().splitlines()
    assert lines[0].startswith("baseline_matches,baseline_wins,number,out,in") and len(lines) == 2
    assert lines[1].split(",")[3:5] == ["02-171", card.id]
    assert bob_client.get(f"/simulations/{batch.pk}/swaps.csv").status_code == 404
    apply = f"/simulations/{batch.pk}/swaps/0/apply/"
    assert bob_client.post(apply).status_code == 404  # owner only
    before = deck.versions.get().content
    response = alice_client.post(apply)
    copy = Deck.objects.exclude(pk=deck.pk).get(owner=alice)
    assert response.status_code == 302 and response.url == copy.get_absolute_url()
    assert copy.copied_from == deck and copy.is_legal and copy.versions.count() == 1
    content = copy.versions.get().content
    assert content["deck"][card.id] == 1 and content["deck"]["02-171"] == 1
    assert deck.versions.get().content == before  # the user's deck is untouched
    assert alice_client.post(f"/simulations/{batch.pk}/swaps/7/apply/").status_code == 302
    assert Deck.objects.filter(owner=alice).count() == 2  # an unknown swap makes nothing
    shown = alice_client.get(batch.get_absolute_url()).content.decode()
    assert "No swap number 7" in shown  # the refusal is shown (and the message consumed)
    alice_client.cookies["django_language"] = "ja"
    from tests.test_japanese_pages import _data_words, english_in

    ja = alice_client.get(batch.get_absolute_url()).content.decode()
    left = english_in(ja, _data_words())
    assert left == [], left


@pytest.mark.parametrize(
    "study",
    [{"in": 5}, {"out": "02-171"}, {"out": [1, 2]}, {"in": {"02-161": 1}}, {"source": ["x"]}],
)
def test_a_malformed_study_is_refused_through_the_api(alice, alice_client, planted, study):
    deck, _card = planted
    response = alice_client.post(
        "/api/simulations/",
        {"kind": "swaps", "deck_a": deck.slug, "runs": 2, "study": study},
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    fields = {error["field"] for error in response.json()["errors"]}
    assert fields & {"out", "in", "source"}, fields
    assert not SimulationBatch.objects.exists()
