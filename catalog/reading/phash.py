"""Recognise a catalogued card from a photo: a perceptual hash of its art area, nearest scans.

The hash is the classic DCT pHash, written here in a few lines of numpy/OpenCV rather than
taken from the `imagehash` package: it needs nothing OpenCV does not already give (resize, DCT),
and a 256-bit hash (16×16 low frequencies of a 64×64 grey image) tells 200+ arts apart better
than imagehash's default 64 bits. The art area is the region the set's layout marks.

`match(photo_hash, references)` ranks the set's approved scans by Hamming distance and
returns the top 3; it abstains (no `best`) when the best two are within ABSTAIN_MARGIN bits of
each other, or when even the best is farther than MAX_DISTANCE (a card not in the set).
"""

from dataclasses import dataclass

import cv2
import numpy as np

from catalog.reading.layout import Layout

HASH_SIDE = 16  # 16×16 = 256 bits
SAMPLE_SIDE = 64
ABSTAIN_MARGIN = 12  # bits between the best and the second best under which we abstain
MAX_DISTANCE = 96  # of 256: farther than this is no card of the set


def art_hash(card: np.ndarray, layout: Layout) -> np.ndarray:
    """Return the 256-bit pHash (bool array) of the art area of a straightened card."""
    height, width = card.shape[:2]
    x0, y0, x1, y1 = layout.regions["art"].pixels(width, height)
    art = card[y0:y1, x0:x1]
    gray = cv2.cvtColor(art, cv2.COLOR_BGR2GRAY) if art.ndim == 3 else art
    small = cv2.resize(gray, (SAMPLE_SIDE, SAMPLE_SIDE), interpolation=cv2.INTER_AREA)
    low = cv2.dct(small.astype(np.float32))[:HASH_SIDE, :HASH_SIDE]
    return (low > np.median(low)).flatten()


@dataclass(frozen=True)
class Match:
    top: list[tuple[str, int]]  # (card id, distance in bits), best first, at most 3
    best: str | None  # None: abstained (too close to call, or no card of the set)
    reason: str = ""
    # Why it abstained, as a word a page can say in its own language: "no_references",
    # "unlike" (nothing close enough) or "too_close" (the best two within ABSTAIN_MARGIN).
    why: str = ""


def match(photo_hash: np.ndarray, references: dict[str, np.ndarray]) -> Match:
    """Rank the reference hashes (card id → hash) by distance to the photo's; top 3."""
    if not references:
        return Match(
            top=[],
            best=None,
            reason="The set has no approved scans to compare with.",
            why="no_references",
        )
    ids = list(references)
    table = np.stack([references[i] for i in ids])
    distances = np.count_nonzero(table != photo_hash[None, :], axis=1)
    order = np.argsort(distances, kind="stable")[:3]
    top = [(ids[i], int(distances[i])) for i in order]
    if top[0][1] > MAX_DISTANCE:
        return Match(
            top=top, best=None, reason="No approved scan of the set looks like it.", why="unlike"
        )
    if len(top) > 1 and top[1][1] - top[0][1] < ABSTAIN_MARGIN:
        return Match(
            top=top,
            best=None,
            reason=f"Too close to call between {top[0][0]} and {top[1][0]}: pick one.",
            why="too_close",
        )
    return Match(top=top, best=top[0][0])
