"""A set's layout: where on a straightened card each field is, as plain data with validation.

A layout is marked once per set (issue #25, 1.): a region for the name, the kana reading, the
card number, each stat box and the art. Regions are fractions of the straightened card (0 to 1,
left/top to right/bottom), so they do not depend on the scan's resolution. The later SetLayout
model stores `Layout.as_dict()`; `Layout.from_dict()` validates what a user marked and refuses a
region outside the card with a message naming the region.

`generated_face_layout(set_code)` derives the layout of the app's own generated faces
(catalog/faces.py) from their geometry. Real sets are marked by users; this one is for the
synthetic test set and for sets that only have generated faces.
"""

from dataclasses import dataclass

from catalog.reading.errors import ReadingError

# What each field is read as: digits (number, stats), Japanese text (name, reading), or the art
# area matched by perceptual hash.
FIELDS = {
    "name": "text",
    "reading": "text",
    "number": "digits",
    "shoot": "digits",
    "keep": "digits",
    "defense": "digits",
    "art": "art",
}
REQUIRED = ("name", "number", "art")
# The straightened card, in pixels: the 5:7 of a trading card (catalog/faces.py's 250×350, ×2).
CARD_WIDTH, CARD_HEIGHT = 500, 700
MIN_REGION = 0.01  # a region thinner than 1% of the card cannot hold a readable character


@dataclass(frozen=True)
class Region:
    """A rectangle on the straightened card, in fractions of its width and height."""

    left: float
    top: float
    right: float
    bottom: float

    def pixels(
        self, width: int = CARD_WIDTH, height: int = CARD_HEIGHT
    ) -> tuple[int, int, int, int]:
        """Return (x0, y0, x1, y1) in pixels of a card image of that size."""
        return (
            round(self.left * width),
            round(self.top * height),
            round(self.right * width),
            round(self.bottom * height),
        )


@dataclass(frozen=True)
class Layout:
    set_code: str
    regions: dict[str, Region]

    def as_dict(self) -> dict:
        return {
            "set": self.set_code,
            "regions": {
                name: [r.left, r.top, r.right, r.bottom] for name, r in self.regions.items()
            },
        }

    @classmethod
    def from_dict(cls, data) -> "Layout":
        """Validate a marked layout; raise ReadingError naming the first bad region."""
        if not isinstance(data, dict) or not isinstance(data.get("regions"), dict):
            raise ReadingError("A layout needs a set and its regions.", field="layout")
        set_code = str(data.get("set") or "")
        regions = {}
        for name, box in data["regions"].items():
            regions[name] = _region(name, box)
        for name in REQUIRED:
            if name not in regions:
                raise ReadingError(
                    "The layout has no region for the %(region)s.", {"region": name}, field=name
                )
        return cls(set_code=set_code, regions=regions)

    def fields(self, kind: str) -> list[str]:
        return [name for name in self.regions if FIELDS[name] == kind]


def _region(name, box) -> Region:
    if name not in FIELDS:
        known = ", ".join(FIELDS)
        raise ReadingError(
            "Unknown region “%(name)s” (known: %(known)s).",
            {"name": name, "known": known},
            field="layout",
        )
    if not isinstance(box, (list, tuple)) or len(box) != 4:
        raise ReadingError(
            "The %(region)s region needs four numbers: left, top, right, bottom.",
            {"region": name},
            field=name,
        )
    try:
        left, top, right, bottom = (float(v) for v in box)
    except (TypeError, ValueError):
        raise ReadingError(
            "The %(region)s region has a value that is not a number.", {"region": name}, field=name
        ) from None
    if not all(0.0 <= v <= 1.0 for v in (left, top, right, bottom)):
        raise ReadingError(
            "The %(region)s region is marked outside the card: every edge must lie on the image "
            "(0 to 1), got %(edges)s.",
            {"region": name, "edges": f"{left:g}, {top:g}, {right:g}, {bottom:g}"},
            field=name,
        )
    if right - left < MIN_REGION or bottom - top < MIN_REGION:
        raise ReadingError(
            "The %(region)s region is empty or upside down: right must be past left and bottom "
            "below top.",
            {"region": name},
            field=name,
        )
    return Region(left, top, right, bottom)


def _box(x0: float, y0: float, x1: float, y1: float) -> list[float]:
    """A box in catalog/faces.py's 250×350 viewBox, as fractions."""
    from catalog import faces

    return [x0 / faces.WIDTH, y0 / faces.HEIGHT, x1 / faces.WIDTH, y1 / faces.HEIGHT]


def generated_face_layout(set_code: str) -> Layout:
    """Return the layout of the generated faces of a set, from catalog/faces.py's geometry.

    Name: the Japanese name on the header band (baseline y=62, ≤ 22 px). Number: the three
    digits after "<set code> " in the footer (baseline y=330, 11 px bold), placed by the set
    code's width. Stats: the value in each of the three boxes (baseline y=288, 28 px). Art: the
    picture area (y 88–216). The generated faces print no kana reading, so no reading region.
    """
    from catalog import faces

    box = (faces.WIDTH - 36 - 16) / 3
    # The footer's "<code> " in 11 px bold: Noto Sans CJK's Latin capitals and digits are about
    # 0.64 em, a space 0.26 em (measured: "BS " 16.6 px, "2ND " 25.1, "CD00 " 30.5).
    code_width = 11 * (0.64 * len(set_code) + 0.26)
    number_x = 18 + code_width
    regions = {
        "name": _box(14, 39, faces.WIDTH - 14, 66.5),
        "number": _box(number_x - 1.5, faces.HEIGHT - 32, number_x + 25, faces.HEIGHT - 16),
        "art": _box(18, 88, faces.WIDTH - 18, 216),
    }
    for index, field in enumerate(("shoot", "keep", "defense")):
        x = 18 + index * (box + 8)
        regions[field] = _box(x + 6, 262, x + box - 6, 294)
    return Layout.from_dict({"set": set_code, "regions": regions})
