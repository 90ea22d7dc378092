"""Read each region of a straightened card with Tesseract, with a confidence for each field.

Digits (number, stats) are read with Tesseract's `eng` data restricted to 0–9 as one line;
the name and reading with its `jpn` data. The confidence of a field is the lowest character
confidence Tesseract's LSTM gives (0–100, from its hOCR with character boxes), and 0 when what
was read does not have the field's shape (a stat is 1–2 digits, a number 1–3). A field under the
threshold comes back with an empty value and its confidence, so the grid leaves it empty and
highlighted: never a silent guess (issue #25, 2.).
"""

import html
import re
from dataclasses import dataclass

import cv2
import numpy as np
import pytesseract

from catalog.reading.layout import FIELDS, Layout

THRESHOLD = 85  # below this, a field is left empty for the user (docs/performance.md: the sweep)
LINE_HEIGHT = 64  # crops are scaled to this height: Tesseract reads 30–60 px letters best
DIGIT_SHAPES = {"number": re.compile(r"^\d{1,3}$"), "stat": re.compile(r"^\d{1,2}$")}
# Letters Tesseract's eng model gives for digits of a bold sans face. (Its digit whitelist is
# not used: with it, tesseract 5's LSTM reports confidence 0 or drops a lone "0".)
AS_DIGIT = str.maketrans({"O": "0", "o": "0", "D": "0", "Q": "0", "l": "1", "I": "1", "|": "1"})


@dataclass(frozen=True)
class Field:
    name: str
    value: str  # "" when the confidence is under the threshold
    confidence: int  # 0–100
    read: str  # what Tesseract read, whatever its confidence (for the bench and debugging)

    @property
    def needs_review(self) -> bool:
        return self.value == ""


def _binarise(crop: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    scale = min(4.0, LINE_HEIGHT / max(1, gray.shape[0]))
    gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Text is the minority: make it black on white, whatever the band's colour.
    if np.count_nonzero(binary) < binary.size / 2:
        binary = 255 - binary
    return cv2.copyMakeBorder(binary, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=255)


@dataclass(frozen=True)
class Char:
    text: str
    confidence: float
    left: int
    top: int
    right: int
    bottom: int


HOCR = re.compile(r"class='ocrx_word'|x_bboxes (\d+) (\d+) (\d+) (\d+); x_conf ([\d.]+)'>([^<]*)<")


def _words(image: np.ndarray, lang: str) -> list[list[Char]]:
    """Return Tesseract's words as lists of characters, each with its box and confidence.

    Read from Tesseract's hOCR with character boxes (`hocr_char_boxes`): the LSTM gives a
    confidence for every character, and a word is only as sure as its least sure character.
    """
    hocr = pytesseract.image_to_pdf_or_hocr(
        image, lang=lang, config="--psm 7 -c hocr_char_boxes=1", extension="hocr"
    ).decode("utf-8")
    words: list[list[Char]] = []
    for found in HOCR.finditer(hocr):
        if found.group(1) is None:
            words.append([])
            continue
        text = html.unescape(found.group(6)).strip()
        if text and words:
            left, top, right, bottom = (int(found.group(i)) for i in range(1, 5))
            words[-1].append(Char(text, float(found.group(5)), left, top, right, bottom))
    return [word for word in words if word]


def read_digits(crop: np.ndarray, kind: str) -> tuple[str, int]:
    """Return (digits, confidence) of a number or stat region: its first all-digit word.

    Other words (the footer's "·" after the number, a rarity letter) are ignored. What has not
    the field's shape (a stat is 1–2 digits, a number 1–3) has confidence 0.
    """
    words = _words(_binarise(crop), "eng")
    for word in words:
        chars = [c for c in word if c.text.translate(AS_DIGIT).strip(".,:;-_'`")]
        digits = "".join(c.text for c in chars).translate(AS_DIGIT).strip(".,:;-_'`")
        if digits.isdigit():
            if not DIGIT_SHAPES[kind].match(digits):
                return digits, 0
            return digits, int(min(c.confidence for c in chars))
    return " ".join("".join(c.text for c in word) for word in words), 0


def _widest_gap(binary: np.ndarray) -> tuple[float, float, float, float]:
    """Return (start x, width, ink left, ink right) of the widest blank column run in the text,
    as fractions of the ink's height for the width, pixels otherwise."""
    ink = binary < 128
    if not ink.any():
        return 0.0, 0.0, 0.0, 0.0
    columns = np.flatnonzero(ink.any(axis=0))
    rows = np.flatnonzero(ink.any(axis=1))
    if len(columns) < 2:
        return 0.0, 0.0, 0.0, 0.0
    steps = np.diff(columns)
    widest = int(np.argmax(steps))
    width = float(steps[widest] - 1)
    height = max(1, rows[-1] - rows[0] + 1)
    return float(columns[widest] + 1), width / height, float(columns[0]), float(columns[-1] + 1)


def read_text(crop: np.ndarray) -> tuple[str, int]:
    """Return (text, confidence) of a Japanese name or reading region.

    The confidence is the least sure character's. Tesseract's jpn model puts spaces where it
    likes (its character boxes are approximate); the space is placed from the ink instead: the
    catalog writes a name "前田 徹" (family name, one space, given name), so one space goes
    at the widest blank gap between characters when it is over a quarter of the text's height
    (a space is about a third, the gaps inside and between kanji much less).
    """
    binary = _binarise(crop)
    chars = [c for word in _words(binary, "jpn") for c in word]
    if not chars:
        return "", 0
    # Only the band of the characters read (a line above or below must not fill the gaps).
    top, bottom = min(c.top for c in chars), max(c.bottom for c in chars)
    band = binary[top : bottom + 1]
    start, gap, ink_left, ink_right = _widest_gap(band)
    text = "".join(c.text for c in chars)
    if gap > 0.25:
        # Kanji and kana are all one em wide: count the characters left of the gap by width.
        gap_px = gap * (bottom - top + 1)
        pitch = (ink_right - ink_left - gap_px) / len(chars)
        at = round((start - ink_left) / pitch) if pitch > 0 else 0
        if 0 < at < len(chars):
            text = text[:at] + " " + text[at:]
    return text, int(min(c.confidence for c in chars))


def read_fields(card: np.ndarray, layout: Layout, threshold: int = THRESHOLD) -> dict[str, Field]:
    """Read every text and digit region of the layout on a straightened card."""
    height, width = card.shape[:2]
    fields = {}
    for name, region in layout.regions.items():
        kind = FIELDS[name]
        if kind == "art":
            continue
        x0, y0, x1, y1 = region.pixels(width, height)
        crop = card[y0:y1, x0:x1]
        if kind == "digits":
            read, confidence = read_digits(crop, "number" if name == "number" else "stat")
        else:
            read, confidence = read_text(crop)
        value = read if confidence >= threshold else ""
        if kind == "digits" and value:
            value = str(int(value))  # "007" is number 7
        fields[name] = Field(name=name, value=value, confidence=confidence, read=read)
    return fields
