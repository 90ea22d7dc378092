"""A chunk's seed, derived from its batch's seed and its index only: one rule for every batch
kind and study, so any chunk plays the same games whoever runs it, whenever."""

import hashlib


def chunk_seed(batch_seed: int, index: int) -> int:
    """Return a chunk's seed, derived from the batch seed and the chunk index only."""
    digest = hashlib.sha256(f"elevenstars-batch:{batch_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
