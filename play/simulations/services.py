"""Write paths of the play app: turning saved decks into engine input, and simulation batches.

Batches follow one design (ARCHITECTURE.md, issue #5): the batch row and every chunk row are
planned in one transaction; chunk tasks are queued on commit; a task claims nothing and counts
nothing, it computes its chunk (a pure function of the batch seed and chunk index) and writes
the result with a conditional UPDATE that only the first finisher wins; the batch is marked
done by a conditional UPDATE when no chunk is left unfinished.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from decks.content import DeckContent
from decks.legality import engine_card
from decks.models import Deck, DeckVersion
from decks.selectors import UnknownCards, cards_of
from play.engine.legality import deck_problems
from play.lab import core as lab
from play.models import MatchLog, SimulationBatch, SimulationChunk
from play.simulations import core as simulation
from play.simulations.selectors import batch_results

log = logging.getLogger(__name__)


class BatchInvalid(ValueError):
    """Bad batch parameters: `errors` maps each field to its messages."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))


class ChunkGaveUp(RuntimeError):
    """A chunk failed too often; its batch is marked failed."""


def latest_version(deck: Deck) -> DeckVersion | None:
    return deck.versions.order_by("-number").first()


def version_snapshot(version: DeckVersion) -> tuple[dict, list]:
    """Return (engine-ready snapshot, problems) for a deck version as the catalog stands."""
    return content_snapshot(name=version.name, content=DeckContent.from_json(version.content))


def content_snapshot(*, name: str, content: DeckContent) -> tuple[dict, list[str]]:
    """Return (engine-ready snapshot, problems) for deck content; problems block play."""
    try:
        cards = cards_of(content)
    except UnknownCards as exc:
        return {}, [f"unknown card id(s) {', '.join(exc.ids)}"]
    engine = {card_id: engine_card(card) for card_id, card in cards.items()}
    deck_cards = [engine[c] for c in sorted(content.deck) for _ in range(content.deck[c])]
    bench_cards = [engine[c] for c in sorted(content.bench) for _ in range(content.bench[c])]
    goalkeeper = engine.get(content.goalkeeper) if content.goalkeeper else None
    pk_goalkeeper = engine.get(content.pk_goalkeeper) if content.pk_goalkeeper else None
    problems = deck_problems(
        deck=[(c, 1) for c in deck_cards],
        bench=[(c, 1) for c in bench_cards],
        goalkeeper=goalkeeper,
        pk_goalkeeper=pk_goalkeeper,
    )
    if problems:
        return {}, [f"{p.rule}: {p.message}" for p in problems]
    snapshot = simulation.side_snapshot(
        name=name,
        cards=[c.to_log() for c in deck_cards],
        goalkeeper=goalkeeper.to_log(),
        pk_goalkeeper=pk_goalkeeper.to_log() if pk_goalkeeper else None,
        bench=[c.to_log() for c in bench_cards],
    )
    return snapshot, []


def gauntlet_decks() -> list[Deck]:
    """Return the public prebuilt (sample) decks a gauntlet plays against, in a fixed order."""
    return list(
        Deck.objects.filter(
            is_sample=True, visibility=Deck.Visibility.PUBLIC, is_legal=True
        ).order_by("slug")
    )


@dataclass
class BatchRequest:
    kind: str
    deck_a: Deck
    deck_b: Deck | None = None
    runs: int = 1000
    seed: int | None = None
    policy_a: str = "greedy"
    policy_b: str = "greedy"


def _common_errors(*, owner, runs, seed) -> dict[str, list[str]]:
    """Return the problems every kind of batch checks: runs, seed, the per-user limit."""
    errors: dict[str, list[str]] = {}
    limit = settings.SIMULATION_MAX_RUNS
    if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= limit:
        errors["runs"] = [f"Runs must be a whole number from 1 to {limit:,}."]
    if seed is not None and not 0 <= seed < 2**63:
        errors["seed"] = ["The seed must be a whole number from 0 to 2^63 - 1."]
    active = SimulationBatch.objects.filter(owner=owner, status__in=SimulationBatch.ACTIVE)
    if active.count() >= settings.SIMULATION_MAX_ACTIVE_PER_USER:
        errors["non_field_errors"] = [
            f"You already have {settings.SIMULATION_MAX_ACTIVE_PER_USER} batches running; "
            "wait for one to finish or cancel it."
        ]
    return errors


def _check(request: BatchRequest, owner) -> dict[str, list[str]]:
    errors = _common_errors(owner=owner, runs=request.runs, seed=request.seed)
    if request.kind not in simulation.KINDS:
        errors["kind"] = [f"Unknown kind {request.kind!r}: use {', '.join(simulation.KINDS)}."]
    for name in ("policy_a", "policy_b"):
        if getattr(request, name) not in simulation.POLICIES:
            errors[name] = [f"Unknown policy: use {', '.join(simulation.POLICIES)}."]
    if request.kind in ("pk", "match") and request.deck_b is None:
        errors["deck_b"] = ["This kind of batch needs an opponent deck."]
    return errors


def _batch_save(
    *, kind: str, runs: int, seed: int | None, opponents: int, opponent_versions=(), **fields
) -> SimulationBatch:
    """Write the batch and all of its chunk rows in one transaction; queue them on commit."""
    chunk_size = settings.SIMULATION_CHUNK_SIZE[kind]
    specs = simulation.plan_chunks(kind=kind, runs=runs, chunk_size=chunk_size, opponents=opponents)
    with transaction.atomic():
        batch = SimulationBatch.objects.create(
            kind=kind,
            runs=runs,
            seed=seed if seed is not None else random.SystemRandom().getrandbits(62),
            chunk_size=chunk_size,
            chunk_count=len(specs),
            **fields,
        )
        batch.opponent_versions.set(opponent_versions)
        SimulationChunk.objects.bulk_create(
            SimulationChunk(batch=batch, index=s.index, opponent=s.opponent, runs=s.runs)
            for s in specs
        )
        transaction.on_commit(lambda: queue_chunks(batch.id, range(len(specs))))
    return batch


def batch_create(*, owner, request: BatchRequest) -> SimulationBatch:
    """Create a batch and its chunk rows; queue the chunks once the transaction commits."""
    errors = _check(request, owner)
    versions: list[DeckVersion] = []
    sides: list[dict] = []
    decks = [("deck_a", request.deck_a)]
    if request.kind in ("pk", "match"):
        decks.append(("deck_b", request.deck_b))
    elif request.kind == "goldfish":
        decks.append(("deck_b", request.deck_b or _default_goldfish_opponent()))
    elif request.kind == "gauntlet":
        decks += [("deck_b", deck) for deck in gauntlet_decks()]
    for field, deck in decks:
        if deck is None:
            errors.setdefault(field, []).append("No opponent deck is available.")
            continue
        version = latest_version(deck)
        snapshot, problems = version_snapshot(version) if version else ({}, ["never saved"])
        if problems:
            errors.setdefault(field, []).append(
                f"{deck.name} is not legal, so it cannot be simulated: " + "; ".join(problems)
            )
        versions.append(version)
        sides.append(snapshot)
    if errors:
        raise BatchInvalid(errors)
    params = {"runs": request.runs, "policy_a": request.policy_a, "policy_b": request.policy_b}
    if request.kind == "goldfish":
        params["policy_b"] = "passive"
    if request.kind == "pk":
        params["exact"] = simulation.exact_pk_probability(
            simulation.side_deck(sides[0]), simulation.side_deck(sides[1])
        )
    return _batch_save(
        kind=request.kind,
        runs=request.runs,
        seed=request.seed,
        opponents=len(sides) - 1,
        opponent_versions=versions[1:],
        owner=owner,
        deck_a_version=versions[0],
        deck_b_version=versions[1] if len(versions) == 2 else None,
        params=params,
        sides=sides,
    )


def lab_batch_create(
    *, owner, variants: list[dict], runs: int, seed: int | None = None
) -> SimulationBatch:
    """Create a Touchdown Heroes lab batch: `runs` games of each rule variant (1 or 2)."""
    errors = _common_errors(owner=owner, runs=runs, seed=seed)
    if not 1 <= len(variants) <= 2:
        errors["variants"] = ["Give one rule variant, or two to compare."]
    cleaned = []
    for number, variant in enumerate(variants[:2]):
        try:
            cleaned.append(lab.clean_variant(variant, prefix=f"variant_{'ab'[number]}_"))
        except lab.VariantError as exc:
            errors.update(exc.errors)
    if errors:
        raise BatchInvalid(errors)
    return _batch_save(
        kind=SimulationBatch.Kind.TOUCHDOWN,
        runs=runs,
        seed=seed,
        opponents=len(cleaned),
        owner=owner,
        params={"runs": runs, "variants": [v["label"] for v in cleaned]},
        sides=cleaned,
    )


def _default_goldfish_opponent() -> Deck | None:
    decks = gauntlet_decks()
    return decks[0] if decks else None


def queue_chunks(batch_id: int, indexes) -> None:
    from play.tasks import simulation_chunk_run

    for index in indexes:
        simulation_chunk_run.delay(batch_id, index)


def batch_cancel(*, batch: SimulationBatch) -> bool:
    """Cancel an active batch; return whether it was active."""
    return bool(
        SimulationBatch.objects.filter(pk=batch.pk, status__in=SimulationBatch.ACTIVE).update(
            status=SimulationBatch.Status.CANCELLED, finished_at=timezone.now()
        )
    )


def batch_fail(*, batch_id: int, reason: str) -> None:
    SimulationBatch.objects.filter(pk=batch_id, status__in=SimulationBatch.ACTIVE).update(
        status=SimulationBatch.Status.FAILED, failure_reason=reason, finished_at=timezone.now()
    )


def chunk_run(*, batch_id: int, index: int) -> bool:
    """Compute one chunk and record it; return False when there was nothing to do.

    Safe to run any number of times: a chunk already finished, or of a batch no longer
    active, is skipped; the result write is a conditional UPDATE the first finisher wins.
    """
    batch = SimulationBatch.objects.filter(pk=batch_id).first()
    if batch is None or not batch.is_active:
        return False
    now = timezone.now()
    claimed = SimulationChunk.objects.filter(
        batch_id=batch_id, index=index, finished_at__isnull=True
    ).update(attempts=F("attempts") + 1, last_attempt_at=now)
    if not claimed:
        return False
    chunk = SimulationChunk.objects.get(batch_id=batch_id, index=index)
    if chunk.attempts > settings.SIMULATION_MAX_ATTEMPTS:
        reason = (
            f"Chunk {index} failed {chunk.attempts - 1} times; giving up. "
            f"Last error: {chunk.last_error or 'the worker running it was lost'}"
        )
        batch_fail(batch_id=batch_id, reason=reason)
        raise ChunkGaveUp(reason)
    SimulationBatch.objects.filter(pk=batch_id, status=SimulationBatch.Status.QUEUED).update(
        status=SimulationBatch.Status.RUNNING, started_at=now
    )
    first_of_opponent = not SimulationChunk.objects.filter(
        batch_id=batch_id, opponent=chunk.opponent, index__lt=index
    ).exists()
    keep_logs = simulation.SAMPLE_LOGS_PER_OPPONENT if first_of_opponent else 0
    if batch.kind in ("pk", "touchdown"):
        keep_logs = 0  # no Eleven Stars match to replay
    spec = simulation.ChunkSpec(index, chunk.opponent, chunk.runs)
    result, logs = simulation.run_chunk(
        kind=batch.kind,
        sides=batch.sides,
        params=batch.params,
        spec=spec,
        seed=simulation.chunk_seed(batch.seed, index),
        keep_logs=keep_logs,
    )
    with transaction.atomic():
        won = SimulationChunk.objects.filter(
            batch_id=batch_id, index=index, finished_at__isnull=True
        ).update(result=result, finished_at=timezone.now(), last_error="")
        if won:
            MatchLog.objects.bulk_create(
                [
                    MatchLog(
                        owner_id=batch.owner_id,
                        source=MatchLog.Source.BATCH,
                        title=_log_title(batch, match_log),
                        batch_id=batch_id,
                        chunk_index=index,
                        sample_number=number,
                        deck_version_id=batch.deck_a_version_id,
                        log=match_log,
                    )
                    for number, match_log in enumerate(logs)
                ],
                ignore_conflicts=True,
            )
    if won:
        batch_finish_if_complete(batch_id=batch_id)
    return bool(won)


def _log_title(batch: SimulationBatch, match_log: dict) -> str:
    a, b = match_log["sides"]["A"]["name"], match_log["sides"]["B"]["name"]
    goals = match_log["result"]["goals"]
    pk = match_log["result"]["pk"]
    score = f"{goals['A']}–{goals['B']}" + (f" (PK {pk['A']}–{pk['B']})" if pk else "")
    return f"{a} {score} {b}"


def chunk_record_error(*, batch_id: int, index: int, error: str) -> None:
    SimulationChunk.objects.filter(batch_id=batch_id, index=index).update(last_error=error[:2000])


def batch_finish_if_complete(*, batch_id: int) -> bool:
    """Mark the batch done, with its merged results, if every chunk has finished."""
    if SimulationChunk.objects.filter(batch_id=batch_id, finished_at__isnull=True).exists():
        return False
    batch = SimulationBatch.objects.get(pk=batch_id)
    results = batch_results(batch)
    unfinished = SimulationChunk.objects.filter(batch=OuterRef("pk"), finished_at__isnull=True)
    return bool(
        SimulationBatch.objects.filter(pk=batch_id, status__in=SimulationBatch.ACTIVE)
        .filter(~Exists(unfinished))
        .update(status=SimulationBatch.Status.DONE, results=results, finished_at=timezone.now())
    )


def batches_reconcile(*, stall_seconds: int | None = None) -> int:
    """Re-queue unfinished chunks of active batches that nobody has touched for a while.

    A chunk whose worker died (kill -9, a lost node) is redelivered by the broker only after
    its visibility timeout; this makes stalled batches move again sooner. Running a chunk
    twice is harmless, so re-queueing is safe. Returns the number of chunks re-queued.
    """
    stall = stall_seconds if stall_seconds is not None else settings.SIMULATION_STALL_SECONDS
    cutoff = timezone.now() - timedelta(seconds=stall)
    stalled = SimulationChunk.objects.filter(
        batch__status__in=SimulationBatch.ACTIVE,
        finished_at__isnull=True,
        batch__created_at__lt=cutoff,
    ).filter(Q(last_attempt_at__isnull=True) | Q(last_attempt_at__lt=cutoff))
    pairs = list(stalled.values_list("batch_id", "index"))
    for batch_id, index in pairs:
        SimulationChunk.objects.filter(batch_id=batch_id, index=index).update(
            last_attempt_at=timezone.now()
        )
        queue_chunks(batch_id, [index])
    if pairs:
        log.info("Re-queued %d stalled chunk(s)", len(pairs))
    return len(pairs)
