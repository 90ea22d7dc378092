"""The reading pipeline end to end: photo bytes in, fields with confidences and matches out.

`read_scan(data, layout)`: one card (a later scan of a set) → its fields (ocr.Field).
`recognise(data, layout, references)`: one card or a binder page (up to 9 cards) → for each
card found, in reading order, its straightened image, its phash Match and (optionally) its
fields. Bad input raises ReadingError (catalog/reading/errors.py) and nothing is saved: these
functions only read.
"""

from dataclasses import dataclass, field

import numpy as np

from catalog.reading import ocr, phash, straighten
from catalog.reading.layout import Layout

BINDER_PAGE = 9  # cards a binder page holds


@dataclass
class FoundCard:
    image: np.ndarray  # straightened, CARD_WIDTH×CARD_HEIGHT BGR
    match: phash.Match | None = None
    fields: dict[str, ocr.Field] = field(default_factory=dict)
    # Where the card lies in the photo: x, y, width, height as fractions of the photo's size,
    # so a page can show the user's own crop beside the match.
    box: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)


def upright(image: np.ndarray, quad: np.ndarray, layout: Layout, template=None) -> np.ndarray:
    """Straighten the card in `quad`, then align it on the set's template when there is one."""
    card = straighten.straighten(image, quad)
    if template is not None:
        card = straighten.align(card, template, layout.regions["art"].pixels())
    return card


def read_scan(
    data: bytes, layout: Layout, threshold: int = ocr.THRESHOLD, template=None
) -> dict[str, ocr.Field]:
    """Find the card in a photo or scan, straighten (and align) it, read the layout's fields.

    `template`: an upright image of a card of the set, the one the layout was marked on.
    """
    image = straighten.load_image(data)
    card = upright(image, straighten.largest(straighten.find_cards(image)), layout, template)
    return ocr.read_fields(card, layout, threshold)


def recognise(
    data: bytes,
    layout: Layout,
    references: dict[str, np.ndarray],
    *,
    read_fields: bool = False,
    template=None,
) -> list[FoundCard]:
    """Split a photo into its cards (a binder page: at most 9) and match each to the set's scans."""
    image = straighten.load_image(data)
    found = []
    for quad in straighten.find_cards(image, most=BINDER_PAGE):
        card = FoundCard(image=upright(image, quad, layout, template), box=_box(quad, image))
        card.match = phash.match(phash.art_hash(card.image, layout), references)
        if read_fields:
            card.fields = ocr.read_fields(card.image, layout)
        found.append(card)
    return found


def _box(quad: np.ndarray, image: np.ndarray) -> tuple[float, float, float, float]:
    height, width = image.shape[:2]
    left, top = (float(v) for v in quad.min(axis=0))
    right, bottom = (float(v) for v in quad.max(axis=0))
    left, top = max(0.0, left / width), max(0.0, top / height)
    right, bottom = min(1.0, right / width), min(1.0, bottom / height)
    return (round(left, 4), round(top, 4), round(right - left, 4), round(bottom - top, 4))


def reference_hashes(scans: dict[str, np.ndarray], layout: Layout) -> dict[str, np.ndarray]:
    """Hash the art of approved scans (card id → upright card image, any resolution)."""
    import cv2

    from catalog.reading.layout import CARD_HEIGHT, CARD_WIDTH

    return {
        card_id: phash.art_hash(cv2.resize(scan, (CARD_WIDTH, CARD_HEIGHT)), layout)
        for card_id, scan in scans.items()
    }
