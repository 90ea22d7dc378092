"""Read paths of the play app: who may see which batch and log."""

from django.db.models import QuerySet
from django.http import Http404

from play.models import MatchLog, SimulationBatch


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
