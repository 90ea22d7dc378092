"""Read paths of simulations: who may see which batch, its progress and its results."""

from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils import timezone

from play.models import MatchLog, SimulationBatch, SimulationChunk
from play.simulations import kinds
from play.simulations.bots import bot_label


def batches_of(user) -> QuerySet[SimulationBatch]:
    """Return the user's own batches (nobody else's are ever listed)."""
    if not user.is_authenticated:
        return SimulationBatch.objects.none()
    return SimulationBatch.objects.filter(owner=user).select_related(
        "deck_a_version__deck", "deck_b_version__deck"
    )


def batch_for_owner(*, user, batch_id: int) -> SimulationBatch:
    batch = batches_of(user).filter(pk=batch_id).first()
    if batch is None:
        raise Http404("No such simulation.")
    return batch


def batch_by_share_token(token: str) -> SimulationBatch:
    batch = (
        SimulationBatch.objects.filter(share_token=token)
        .select_related("deck_a_version__deck", "deck_b_version__deck")
        .first()
    )
    if batch is None:
        raise Http404("No such simulation.")
    return batch


def sample_logs(batch: SimulationBatch) -> QuerySet[MatchLog]:
    return batch.sample_logs.order_by("chunk_index", "sample_number").only(
        "id", "title", "share_token", "chunk_index", "sample_number", "created_at"
    )


def sample_logs_noted(batch: SimulationBatch) -> list[tuple[MatchLog, str, str]]:
    """Return the sample logs, each with its title in the reader's words and what its kind says
    of the side it played (the lab cell of a sweep: every cell plays the same seeds, so the
    title alone cannot tell them)."""
    logs = list(sample_logs(batch))
    kind = kinds.get(batch.kind)
    if not logs or kind is None:
        return [(log, log.title, "") for log in logs]
    opponents = dict(batch.chunks.values_list("index", "opponent"))
    sides = batch.sides or []
    notes = []
    for log in logs:
        opponent = opponents.get(log.chunk_index)
        side = sides[opponent] if opponent is not None and opponent < len(sides) else None
        note = kind.side_note(side) if isinstance(side, dict) else ""
        notes.append((log, kind.title_text(log.title), note))
    return notes


def chunk_results_by_opponent(batch: SimulationBatch) -> dict[int, list[dict]]:
    """Return the finished chunks' results by the side (opponent, lab cell) they played."""
    rows = batch.chunks.filter(finished_at__isnull=False).order_by("index")
    by_opponent: dict[int, list[dict]] = {}
    for opponent, result in rows.values_list("opponent", "result"):
        by_opponent.setdefault(opponent, []).append(result)
    return by_opponent


def batch_results(batch: SimulationBatch) -> dict:
    """Return the batch's results computed from its finished chunk rows."""
    by_opponent = chunk_results_by_opponent(batch)
    kind = kinds.get(batch.kind)
    return kind.summarize(sides=batch.sides, params=batch.params, by_opponent=by_opponent)


def batch_shown_results(batch: SimulationBatch) -> tuple[dict | None, dict | None]:
    """Return (the results to show, how partial they are) for a batch's page, JSON and API.

    A finished batch shows its stored results. A cancelled one (which stores none) shows the
    results of the chunks that finished before the cancel, marked partial: `{"runs": runs
    played, "planned": runs planned, "chunks": finished chunks, "chunk_count": all chunks}`.
    """
    if batch.results or batch.status != SimulationBatch.Status.CANCELLED:
        return batch.results, None
    done = list(batch.chunks.filter(finished_at__isnull=False).values_list("runs", flat=True))
    if not done:
        return None, None
    planned = sum(batch.chunks.values_list("runs", flat=True))
    partial = {
        "runs": sum(done),
        "planned": planned,
        "chunks": len(done),
        "chunk_count": batch.chunk_count,
    }
    return {**batch_results(batch), "partial": partial}, partial


def batch_side_names(batch: SimulationBatch, results: dict | None = None) -> dict:
    """Return how a batch's pages name its sides: each deck by its name, with its bot.

    `{"A": {"deck": ..., "bot": ..., "label": "Deck (bot)"}, "B": {...}}`, from the results
    when they name them, else from the batch's sides snapshot and params (older batches).
    Never "A"/"B": a side without a deck (the Touchdown lab) has empty words.
    """
    kind = kinds.get(batch.kind)
    plays_matches = getattr(kind, "plays_matches", False)
    many = getattr(kind, "opponents_label", None)  # a gauntlet: every prebuilt deck in turn
    named = (results or {}).get("sides") or {}
    names = {}
    for index, side in enumerate("AB"):
        given = named.get(side) or {}
        deck = given.get("deck")
        if deck is None and index and many:
            deck = str(many)
        elif deck is None and index < len(batch.sides):
            deck = (batch.sides[index] or {}).get("name")
        bot = given.get("bot")
        if bot is None and plays_matches:
            bot = batch.params.get(f"policy_{side.lower()}")
        words = bot_label(bot) if bot else ""
        label = f"{deck} ({words})" if deck and words else deck or words
        names[side] = {"deck": deck or "", "bot": bot, "bot_label": words, "label": label}
    return names


def batch_progress(batch: SimulationBatch) -> dict:
    """Return {done, total, runs_done, eta_seconds} computed from the chunk rows."""
    done_rows = batch.chunks.filter(finished_at__isnull=False)
    done = done_rows.count()
    eta = None
    if batch.is_active and batch.started_at and 0 < done < batch.chunk_count:
        elapsed = (timezone.now() - batch.started_at).total_seconds()
        eta = elapsed / done * (batch.chunk_count - done)
    runs_done = sum(done_rows.values_list("runs", flat=True))
    return {
        "done": done,
        "total": batch.chunk_count,
        "runs_done": runs_done,
        "eta_seconds": eta,
        "queue_position": batch_queue_position(batch),
    }


def batch_queue_position(batch: SimulationBatch) -> int | None:
    """How many waiting chunk messages the broker serves before this queued batch's first one.

    Exact for the queue as it stands: every published chunk row keeps its message's priority and
    publish time (`services.queue_chunks`), and Redis serves the lowest priority first, first
    in, first out within a priority. So the messages ahead of the batch's first waiting message
    (priority p, published at t) are the waiting messages of other batches with a priority
    below p, or equal to p and published before t. A batch with nothing published yet (the
    broker was down) is behind every waiting message. None once the batch is running.
    """
    if batch.status != SimulationBatch.Status.QUEUED:
        return None
    waiting = SimulationChunk.objects.filter(
        batch__status__in=SimulationBatch.ACTIVE,
        queued_at__isnull=False,
        last_attempt_at__isnull=True,
        finished_at__isnull=True,
    ).annotate(served=Coalesce("priority", 0))  # a message kombu got no priority for: 0
    first = (
        waiting.filter(batch_id=batch.pk)
        .order_by("served", "queued_at", "index")
        .values("served", "queued_at")
        .first()
    )
    others = waiting.exclude(batch_id=batch.pk)
    if first is None:
        return others.count()
    return others.filter(
        Q(served__lt=first["served"]) | Q(served=first["served"], queued_at__lt=first["queued_at"])
    ).count()


def batches_sharing_deck(*, deck, owner) -> list[SimulationBatch]:
    """Return the batches of this deck the user ran: each has a read-only share link showing it."""
    return list(
        SimulationBatch.objects.filter(owner=owner)
        .filter(Q(deck_a_version__deck=deck) | Q(deck_b_version__deck=deck))
        .order_by("-created_at")[:20]
    )
