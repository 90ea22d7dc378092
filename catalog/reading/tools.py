"""Are the reading tools here? OpenCV, Tesseract and its Japanese data, or one line saying not.

The recognition uses OpenCV (pip: opencv-python-headless) and Tesseract with its Japanese data
(Debian: tesseract-ocr, tesseract-ocr-jpn) through pytesseract. Where one is missing, the scan
pages say so in one line (`missing_message()`) and the grid works by hand; nothing downloads a
model.
"""

import functools
import shutil
import subprocess

APT_LINE = "apt-get install tesseract-ocr tesseract-ocr-jpn"


@functools.cache
def _tesseract_langs() -> frozenset[str] | None:
    """Return the languages Tesseract has data for, or None if Tesseract is not installed."""
    binary = shutil.which("tesseract")
    if binary is None:
        return None
    try:
        out = subprocess.run(
            [binary, "--list-langs"], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (out.stdout + out.stderr).splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and " " not in line.strip())


def _has_module(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def missing_message() -> str | None:
    """Return one line naming what is missing for recognition, or None when all is there."""
    missing_python = [m for m in ("cv2", "pytesseract", "numpy") if not _has_module(m)]
    if missing_python:
        return (
            f"Scan reading is off: the Python package(s) {', '.join(missing_python)} are missing "
            "(make setup installs them); fill the grid by hand."
        )
    langs = _tesseract_langs()
    if langs is None:
        return (
            f"Scan reading is off: Tesseract is not installed ({APT_LINE}); fill the grid by hand."
        )
    if "jpn" not in langs:
        return (
            "Scan reading is off: Tesseract has no Japanese data (apt-get install "
            "tesseract-ocr-jpn); fill the grid by hand."
        )
    return None


def available() -> bool:
    return missing_message() is None
