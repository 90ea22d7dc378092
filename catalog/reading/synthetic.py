"""The synthetic test set: the app's generated faces rendered to PNG, then photographed.

1. `sample_cards(n)`: the first n player and keeper cards of the sample pool's Basic Set
   (catalog/sample.py), as unsaved Card objects (no database needed).
2. `render_faces(cards)`: renders their faces (catalog/faces.py's SVG) with headless Chromium, so
   the Japanese is drawn with the installed Debian fonts (fonts-noto-cjk / fonts-ipafont-gothic),
   at 500×700. A grid of faces is one screenshot, cut into cards.
3. `with_art(face, seed)`: the generated faces all show the same star for a club; a real
   approved scan shows a photo of the player there. This paints a seeded picture (gradient and
   blobs) into the art area so the perceptual-hash matching has art to tell cards apart by. The
   result is the set's "approved scan".
4. `phone_photo(scan, rng)`: rotation ±4°, scale 0.6–1.0, a slight perspective, brightness
   ±25 %, blur, JPEG at quality 70, on a cluttered background.
5. `binder_page(scans, rng)`: 9 scans in a 3×3 grid, photographed the same way.

Everything is a function of its seed; the tests use a dozen cards, bench/reading.py 200.
"""

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

from catalog.reading.layout import CARD_HEIGHT, CARD_WIDTH, generated_face_layout

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
GRID_COLUMNS = 5
GRID_ROWS = 4


def sample_cards(n: int, set_code: str = "BS") -> list:
    """Return the first n non-event cards of a set of the sample pool, unsaved, with set/team."""
    from catalog.data import SETS, TEAMS
    from catalog.models import Card, CardSet, Team
    from catalog.sample import generate, reading

    info = next(s for s in SETS if s.code == set_code)
    card_set = CardSet(code=info.code, name=info.name, name_ja=info.name_ja)
    teams = {t.code: Team(code=t.code, name=t.name, name_ja=t.name_ja) for t in TEAMS}
    cards = []
    for sample in generate().cards:
        if sample.set_code != set_code or sample.kind == "event":
            continue
        row = sample.as_row()
        card = Card(
            id=row["id"],
            card_set=card_set,
            number=row["number"],
            name=row["name"],
            name_ja=row["name_ja"],
            name_kana=reading(row["name_ja"]),
            kind=row["kind"],
            position=row["position"],
            person=row["person"],
            team=teams.get(row["team"]) if row["team"] else None,
            shoot=row["shoot"],
            keep=row["keep"],
            defense=row["defense"],
            rarity=row["rarity"],
            is_sample=True,
        )
        cards.append(card)
        if len(cards) == n:
            break
    return cards


def render_faces(cards) -> list[np.ndarray]:
    """Render each card's generated face to a 500×700 BGR image with headless Chromium."""
    from catalog import faces

    if CHROMIUM is None:
        raise RuntimeError(
            "headless Chromium is needed to render the faces (apt-get install chromium)"
        )
    out: list[np.ndarray] = []
    per_shot = GRID_COLUMNS * GRID_ROWS
    with tempfile.TemporaryDirectory() as folder:
        for start in range(0, len(cards), per_shot):
            batch = cards[start : start + per_shot]
            html = ['<html><body style="margin:0;background:#fff">']
            for index, card in enumerate(batch):
                svg = faces.card_face_svg(card).replace(
                    f'width="{faces.WIDTH}" height="{faces.HEIGHT}"',
                    f'width="{CARD_WIDTH}" height="{CARD_HEIGHT}"',
                    1,
                )
                x = (index % GRID_COLUMNS) * CARD_WIDTH
                y = (index // GRID_COLUMNS) * CARD_HEIGHT
                html.append(
                    f'<div style="position:absolute;left:{x}px;top:{y}px;'
                    f'width:{CARD_WIDTH}px;height:{CARD_HEIGHT}px">{svg}</div>'
                )
            html.append("</body></html>")
            page = Path(folder) / "faces.html"
            page.write_text("".join(html), encoding="utf-8")
            shot = Path(folder) / "faces.png"
            subprocess.run(
                [
                    CHROMIUM,
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--hide-scrollbars",
                    "--force-device-scale-factor=1",
                    f"--user-data-dir={folder}/profile",
                    f"--window-size={GRID_COLUMNS * CARD_WIDTH},{GRID_ROWS * CARD_HEIGHT}",
                    f"--screenshot={shot}",
                    page.as_uri(),
                ],
                check=True,
                capture_output=True,
                timeout=120,
            )
            grid = cv2.imread(str(shot))
            for index in range(len(batch)):
                x = (index % GRID_COLUMNS) * CARD_WIDTH
                y = (index // GRID_COLUMNS) * CARD_HEIGHT
                out.append(grid[y : y + CARD_HEIGHT, x : x + CARD_WIDTH].copy())
    return out


def with_art(face: np.ndarray, seed: int, set_code: str = "BS") -> np.ndarray:
    """Paint a seeded picture into the art area, as a real scan shows a photo there."""
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = generated_face_layout(set_code).regions["art"].pixels()
    w, h = x1 - x0, y1 - y0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a, b = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
    angle = rng.uniform(0, np.pi)
    t = (np.cos(angle) * xx / w + np.sin(angle) * yy / h + 1) / 2
    art = (a[None, None, :] * (1 - t[..., None]) + b[None, None, :] * t[..., None]).astype(np.uint8)
    for _ in range(int(rng.integers(6, 12))):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        axes = (int(rng.integers(w // 12, w // 3)), int(rng.integers(h // 12, h // 2)))
        cv2.ellipse(art, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    art = cv2.GaussianBlur(art, (0, 0), 2)
    out = face.copy()
    out[y0:y1, x0:x1] = art
    return out


def _clutter(rng: random.Random, width: int, height: int) -> np.ndarray:
    """A table top with things on it: a wood-ish gradient, papers, lines, scribbles, text."""
    base = np.array([rng.randint(60, 200) for _ in range(3)], dtype=np.float32)
    yy = np.linspace(0, 1, height, dtype=np.float32)[:, None, None]
    canvas = np.clip(base + yy * rng.uniform(-60, 60), 0, 255).astype(np.uint8)
    canvas = np.ascontiguousarray(np.broadcast_to(canvas, (height, width, 3)))
    for _ in range(rng.randint(25, 45)):
        colour = tuple(rng.randint(0, 255) for _ in range(3))
        kind = rng.random()
        x, y = rng.randint(0, width), rng.randint(0, height)
        if kind < 0.3:
            cv2.line(
                canvas,
                (x, y),
                (rng.randint(0, width), rng.randint(0, height)),
                colour,
                rng.randint(1, 6),
            )
        elif kind < 0.55:
            cv2.circle(canvas, (x, y), rng.randint(5, width // 8), colour, rng.choice([-1, 2, 4]))
        elif kind < 0.8:
            text = "".join(
                rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789 ") for _ in range(rng.randint(4, 14))
            )
            cv2.putText(
                canvas,
                text,
                (x, y),
                cv2.FONT_HERSHEY_SIMPLEX,
                rng.uniform(0.5, 2.0),
                colour,
                rng.randint(1, 3),
            )
        else:
            # a scrap of paper, not card-shaped (too long or too square to pass for a card)
            w = rng.randint(width // 12, width // 3)
            h = rng.choice([int(w * rng.uniform(0.1, 0.4)), int(w * rng.uniform(0.95, 1.05))])
            pts = cv2.boxPoints(((x, y), (w, h), rng.uniform(0, 180))).astype(np.int32)
            cv2.fillPoly(canvas, [pts], colour)
    noise = np.random.default_rng(rng.randint(0, 2**31)).normal(0, 6, canvas.shape)
    return np.clip(canvas + noise, 0, 255).astype(np.uint8)


def _photograph(
    subject: np.ndarray, rng: random.Random, canvas_size: tuple[int, int], scale: float
):
    """Place `subject` on a cluttered table, rotated and a little skewed, then degrade it."""
    width, height = canvas_size
    canvas = _clutter(rng, width, height)
    h, w = subject.shape[:2]
    sw, sh = w * scale, h * scale
    angle = np.deg2rad(rng.uniform(-4, 4))
    cx = rng.uniform(width / 2 - (width - sw) / 4, width / 2 + (width - sw) / 4)
    cy = rng.uniform(height / 2 - (height - sh) / 4, height / 2 + (height - sh) / 4)
    corners = np.array([[-sw / 2, -sh / 2], [sw / 2, -sh / 2], [sw / 2, sh / 2], [-sw / 2, sh / 2]])
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    placed = corners @ rotation.T + [cx, cy]
    placed += np.array(
        [[rng.uniform(-0.015, 0.015) * sw, rng.uniform(-0.015, 0.015) * sh] for _ in range(4)]
    )
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(source, placed.astype(np.float32))
    warped = cv2.warpPerspective(subject, matrix, (width, height), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (width, height))
    photo = np.where(mask[..., None] > 127, warped, canvas)
    photo = np.clip(photo.astype(np.float32) * rng.uniform(0.75, 1.25), 0, 255).astype(np.uint8)
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.5, 1.3))
    ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 70])
    assert ok
    return jpeg.tobytes()


def phone_photo(scan: np.ndarray, rng: random.Random) -> bytes:
    """Return a JPEG (bytes) of the scan as a phone photo of the card on a cluttered table."""
    return _photograph(scan, rng, (760, 1000), rng.uniform(0.6, 1.0))


def binder_page(scans: list[np.ndarray], rng: random.Random, *, columns: int = 3) -> bytes:
    """Return a JPEG of the scans in a binder page (3×3 pockets) photographed on a table."""
    gap = 24
    rows = -(-len(scans) // columns)
    page = np.full(
        (rows * (CARD_HEIGHT + gap) + gap, columns * (CARD_WIDTH + gap) + gap, 3), 235, np.uint8
    )
    for index, scan in enumerate(scans):
        x = gap + (index % columns) * (CARD_WIDTH + gap)
        y = gap + (index // columns) * (CARD_HEIGHT + gap)
        page[y : y + CARD_HEIGHT, x : x + CARD_WIDTH] = scan
    h, w = page.shape[:2]
    canvas = (int(w * 0.75), int(h * 0.75))
    return _photograph(page, rng, canvas, rng.uniform(0.6, 0.66))


def scans_and_photos(n: int, seed: int = 25):
    """Return (cards, approved scans, phone photos as JPEG bytes) of n synthetic cards."""
    cards = sample_cards(n)
    faces = render_faces(cards)
    scans = [with_art(face, seed * 100_000 + i) for i, face in enumerate(faces)]
    rng = random.Random(seed)
    photos = [phone_photo(scan, rng) for scan in scans]
    return cards, scans, photos
