"""Read each region of a straightened card with Tesseract, with a confidence for each field.

Digits (number, stats) are read with Tesseract's `eng` data restricted to 0–9 as one line;
the name and reading with its `jpn` data. The confidence of a field is the lowest word
confidence Tesseract gives (0–100) through `pytesseract.image_to_data`, and 0 when what was
read does not have the field's shape (a stat is 1–2 digits, a number 1–3). A field under the
threshold comes back with an empty value and its confidence, so the grid leaves it empty and
highlighted: never a silent guess (issue #25, 2.).
"""

import re
from dataclasses import dataclass

import cv2
import numpy as np
import pytesseract

from catalog.reading.layout import FIELDS, Layout

THRESHOLD = 70  # below this, a field is left empty for the user
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


def _words(image: np.ndarray, lang: str, config: str) -> list[tuple[str, float, int, int, int]]:
    """Return Tesseract's words: (text, confidence, left, right, height) in reading order."""
    data = pytesseract.image_to_data(
        image, lang=lang, config=config, output_type=pytesseract.Output.DICT
    )
    return [
        (text.strip(), float(conf), left, left + width, height)
        for text, conf, left, width, height in zip(
            data["text"], data["conf"], data["left"], data["width"], data["height"], strict=True
        )
        if text.strip() and float(conf) >= 0
    ]


def read_digits(crop: np.ndarray, kind: str) -> tuple[str, int]:
    """Return (digits, confidence) of a number or stat region: its first all-digit word.

    Other words (the footer's "·" after the number, a rarity letter) are ignored. What has not
    the field's shape (a stat is 1–2 digits, a number 1–3) has confidence 0.
    """
    words = _words(_binarise(crop), "eng", "--psm 7")
    for text, conf, *_ in words:
        digits = text.translate(AS_DIGIT).strip(".,:;-_'`")
        if digits.isdigit():
            if not DIGIT_SHAPES[kind].match(digits):
                return digits, 0
            return digits, int(conf)
    return " ".join(w[0] for w in words), 0


def read_text(crop: np.ndarray) -> tuple[str, int]:
    """Return (text, confidence) of a Japanese name or reading region.

    The confidence is the mean of the words'. Tesseract's jpn model cuts a line into many
    "words"; they are joined without a space unless the gap between them is over a fifth of
    the line's height, so "前田 徹" comes back as the catalog writes it, not "前 田 徹".
    """
    words = _words(_binarise(crop), "jpn", "--psm 7")
    if not words:
        return "", 0
    line_height = max(w[4] for w in words)
    text = words[0][0]
    for previous, word in zip(words, words[1:], strict=False):
        text += (" " if word[2] - previous[3] > line_height / 5 else "") + word[0]
    return text, int(sum(w[1] for w in words) / len(words))


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
