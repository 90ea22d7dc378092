"""Batches run in the test's own process, as workers would: every chunk of every stage."""

from play.models import SimulationBatch
from play.simulations import services


def run_all(batch) -> SimulationBatch:
    """Run every unfinished chunk in index order until the batch plans no further stage (a
    staged kind adds the next stage's chunks when one finishes), or it stops being active."""
    while True:
        batch.refresh_from_db()
        left = list(
            batch.chunks.filter(finished_at__isnull=True)
            .order_by("index")
            .values_list("index", flat=True)
        )
        if not left or not batch.is_active:
            return batch
        for index in left:
            services.chunk_run(batch_id=batch.pk, index=index)
