"""Load a photo safely, find the cards in it and straighten each to the canonical 500×700.

`load_image(data)` refuses what is not a picture we can read: not an image, a decompression
bomb, a side under MIN_SIDE px, a side over MAX_SIDE px or more than MAX_PIXELS pixels, a strip
far from any photo's proportions. `find_cards(image)` finds card outlines: edges (Canny), closed,
their contours, and keeps the quadrilaterals with a card's 5:7 proportions that are not inside
another one. `straighten(image, quad)` maps one outline onto the upright card by perspective
transform (this also undoes the rotation and the scale).

A card lying sideways is turned upright (its long side vertical); a card upside down is not
detected (the photos this is for are held the right way up, within a few degrees).
"""

import io
import warnings

import cv2
import numpy as np
from PIL import Image, ImageOps

from catalog.reading.errors import ReadingError
from catalog.reading.layout import CARD_HEIGHT, CARD_WIDTH

MAX_BYTES = 25 * 1024 * 1024
MAX_PIXELS = 40_000_000  # a 40-megapixel phone photo; more is a bomb for our purposes
MAX_SIDE = 12_000
MIN_SIDE = 64
MAX_ASPECT = 6  # a binder page or a card is at most ~1:1.5; 6:1 is a strip, not a photo
CARD_ASPECT = CARD_WIDTH / CARD_HEIGHT  # 5:7
MIN_CARD_FRACTION = 0.01  # a card smaller than 1% of the photo cannot be read


def load_image(data: bytes) -> np.ndarray:
    """Return the photo as a BGR array, or raise ReadingError saying why it cannot be read."""
    if not data:
        raise ReadingError("The file is empty.")
    if len(data) > MAX_BYTES:
        raise ReadingError("The file is larger than %(mb)s MB.", {"mb": MAX_BYTES // (1024 * 1024)})
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:
                width, height = probe.size
                _check_size(width, height)
                probe.verify()
            with Image.open(io.BytesIO(data)) as picture:
                # A phone stores the photo as its sensor saw it and says how to turn it in
                # EXIF (Orientation); the page shows it turned, so the reading turns it too.
                picture = ImageOps.exif_transpose(picture).convert("RGB")
    except ReadingError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ReadingError(
            "The image is too large to open safely (more than %(pixels)s pixels).",
            {"pixels": f"{MAX_PIXELS:,}"},
        ) from None
    except Exception:  # PIL raises many kinds for a broken or foreign file
        raise ReadingError(
            "The file is not an image (JPEG, PNG or WebP) that can be read."
        ) from None
    return cv2.cvtColor(np.asarray(picture), cv2.COLOR_RGB2BGR)


def _check_size(width: int, height: int) -> None:
    if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
        raise ReadingError(
            "The image is %(size)s pixels: too large to open safely "
            "(at most %(side)s px a side and %(pixels)s pixels).",
            {"size": f"{width}×{height}", "side": f"{MAX_SIDE:,}", "pixels": f"{MAX_PIXELS:,}"},
        )
    if min(width, height) < MIN_SIDE:
        raise ReadingError(
            "The image is %(size)s pixels: too small to show a card (at least %(side)s px a side).",
            {"size": f"{width}×{height}", "side": MIN_SIDE},
        )
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise ReadingError(
            "The image is %(size)s pixels: a strip, not a photo of a card (at most %(ratio)s:1).",
            {"size": f"{width}×{height}", "ratio": MAX_ASPECT},
        )


def _order(points: np.ndarray) -> np.ndarray:
    """Order four points top-left, top-right, bottom-right, bottom-left, long side vertical."""
    points = points.reshape(4, 2).astype(np.float32)
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    points = points[np.argsort(angles)]  # clockwise in image coordinates, from about -180°
    # Start at the top-left: the point with the smallest x + y.
    start = int(np.argmin(points.sum(axis=1)))
    points = np.roll(points, -start, axis=0)
    top = np.linalg.norm(points[1] - points[0])
    side = np.linalg.norm(points[3] - points[0])
    if top > side:  # lying sideways: turn so the long side is vertical
        points = np.roll(points, -1, axis=0)
    return points


def _edge_maps(image: np.ndarray):
    """Edges of the photo, per colour channel (a card can differ from the table in hue only)."""
    blurred = cv2.GaussianBlur(image, (5, 5), 0)
    for low, high in ((20, 60), (50, 150)):
        edges = np.zeros(image.shape[:2], np.uint8)
        for channel in cv2.split(blurred):
            edges |= cv2.Canny(channel, low, high)
        # Wide enough to close gaps in an outline; narrow enough to keep the hole inside a
        # card's border band open on a small card.
        for side in (5, 3):
            yield cv2.dilate(edges, np.ones((side, side), np.uint8), iterations=1)


def _candidates(image: np.ndarray, min_area: float) -> list[tuple[float, np.ndarray]]:
    """Card-shaped contours: 5:7 give or take, nearly filling their rotated rectangle.

    The contours include the holes of the edge map: the inside of a card's outline is such a
    hole, whatever clutter touches the card from outside.
    """
    found = []
    for edges in _edge_maps(image):
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            area = cv2.contourArea(contour)
            if area < min_area:
                continue
            rect = cv2.minAreaRect(contour)
            (cx, cy), (w, h), _ = rect
            if w == 0 or h == 0:
                continue
            aspect = min(w, h) / max(w, h)
            if not 0.64 <= aspect <= 0.78 or area < 0.9 * w * h:
                continue
            hull = cv2.convexHull(contour)
            approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
            quad = approx if len(approx) == 4 else cv2.boxPoints(rect)
            quad = _order(np.asarray(quad))
            # The hole's edge lies ~3 px inside the outline (the dilation): grow it back.
            centre = quad.mean(axis=0)
            quad = centre + (quad - centre) * (1 + 5 / max(w, h))
            found.append((w * h, quad.astype(np.float32)))
    return found


def _inside(inner: np.ndarray, outer: np.ndarray) -> bool:
    centre = tuple(float(v) for v in inner.mean(axis=0))
    return cv2.pointPolygonTest(outer.reshape(-1, 1, 2), centre, False) >= 0


def _is_page(area: float, quad: np.ndarray, candidates) -> bool:
    """Whether a card-shaped outline is a binder page: it holds two cards side by side."""
    inner = [q for a, q in candidates if a < area / 3 and _inside(q, quad)]
    for i, first in enumerate(inner):
        for second in inner[i + 1 :]:
            if not _inside(first, second) and not _inside(second, first):
                return True
    return False


def find_cards(image: np.ndarray, *, most: int = 9) -> list[np.ndarray]:
    """Return the outlines (4×2 float arrays) of the cards in the photo, in reading order.

    Raises ReadingError when there is no card, or more than `most` (a binder page holds 9).
    """
    height, width = image.shape[:2]
    # Work on a copy at most ~1600 px on its long side: enough for the outline, and quick.
    scale = min(1.0, 1600 / max(height, width))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    min_area = MIN_CARD_FRACTION * small.shape[0] * small.shape[1]
    candidates = sorted(_candidates(small, min_area), key=lambda c: -c[0])
    kept: list[tuple[float, np.ndarray]] = []
    for area, quad in candidates:
        if any(_inside(quad, other) for _, other in kept):
            continue
        if _is_page(area, quad, candidates):
            continue
        kept.append((area, quad))
    if kept:
        # Cards in one photo are about the same size: drop outlines much smaller than the
        # largest (the art box of a card whose outline was missed, a sticker on the table).
        largest = kept[0][0]
        kept = [(a, q) for a, q in kept if a >= 0.5 * largest]
    if not kept:
        raise ReadingError(
            "No card found in the photo: put the card on a plain surface, whole and in focus."
        )
    if len(kept) > most:
        raise ReadingError(
            "Found %(n)s cards in the photo; a photo may hold at most %(most)s (one binder page).",
            {"n": len(kept), "most": most},
        )
    quads = [q / scale for _, q in kept]
    # Reading order: rows (by centre y, a row being within half a card's height), then x.
    card_height = float(np.median([np.linalg.norm(q[3] - q[0]) for q in quads]))
    quads.sort(key=lambda q: (q[:, 1].mean(), q[:, 0].mean()))
    rows: list[list[np.ndarray]] = []
    for quad in quads:
        if rows and abs(quad[:, 1].mean() - rows[-1][0][:, 1].mean()) < card_height / 2:
            rows[-1].append(quad)
        else:
            rows.append([quad])
    return [q for row in rows for q in sorted(row, key=lambda q: q[:, 0].mean())]


def straighten(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Return the card inside `quad` upright at CARD_WIDTH×CARD_HEIGHT (BGR)."""
    target = np.array(
        [[0, 0], [CARD_WIDTH - 1, 0], [CARD_WIDTH - 1, CARD_HEIGHT - 1], [0, CARD_HEIGHT - 1]],
        dtype=np.float32,
    )
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
    return cv2.warpPerspective(
        image,
        matrix,
        (CARD_WIDTH, CARD_HEIGHT),
        flags=cv2.INTER_CUBIC,
        borderMode=cv2.BORDER_REPLICATE,
    )


ALIGN_SIZE = (CARD_WIDTH // 2, CARD_HEIGHT // 2)


def _structure(card: np.ndarray) -> np.ndarray:
    """The card's edges, blurred: what aligning compares (not colours, which differ by club)."""
    gray = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY) if card.ndim == 3 else card
    gray = cv2.resize(gray, ALIGN_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.GaussianBlur(cv2.magnitude(gx, gy), (0, 0), 2)


def align(card: np.ndarray, template: np.ndarray, art: tuple[int, int, int, int]) -> np.ndarray:
    """Align a straightened card onto the set's template (a scan the layout was marked on).

    The outline found in a photo can be a few pixels off (or the inside of a border whose
    outer edge was lost against the table); the layout's regions are small, so the card is
    then registered on the template by ECC (affine) on their edge images, the art area
    masked out since it differs from card to card. A registration that fails or that would
    move the card implausibly (over 20 % in scale, 12 % in position) is not applied.
    """
    fixed = _structure(template)
    moving = _structure(card)
    mask = np.full(fixed.shape, 255, np.uint8)
    x0, y0, x1, y1 = (v // 2 for v in art)
    mask[y0:y1, x0:x1] = 0
    warp = np.eye(2, 3, dtype=np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5)
    try:
        _, warp = cv2.findTransformECC(fixed, moving, warp, cv2.MOTION_AFFINE, criteria, mask, 5)
    except cv2.error:
        return card
    linear, shift = warp[:, :2], warp[:, 2]
    scales = np.linalg.svd(linear, compute_uv=False)
    if not (0.8 < scales.min() and scales.max() < 1.25) or np.any(
        np.abs(shift) > 0.12 * np.array(ALIGN_SIZE)
    ):
        return card
    full = warp.copy()
    full[:, 2] *= 2
    return cv2.warpAffine(
        card,
        full,
        (CARD_WIDTH, CARD_HEIGHT),
        flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def largest(quads: list[np.ndarray]) -> np.ndarray:
    """The largest of the outlines: the card of a one-card photo."""
    return max(quads, key=lambda q: cv2.contourArea(q.reshape(-1, 1, 2)))


def find_card(image: np.ndarray) -> np.ndarray:
    """Return the one card of a single-card photo, straightened (the largest outline found)."""
    return straighten(image, largest(find_cards(image)))
