"""The reading pipeline's bad-input messages in the reader's language.

catalog/reading/ is plain Python and words its refusals in English (catalog.reading.errors);
the worker stores that sentence on the job. A page shows it through `said`, which recognises
each of the pipeline's sentences and gives it again in the active language, with its numbers;
a sentence it does not know is shown as it is.
"""

import re

from django.utils.translation import gettext as _


def _patterns():
    return [
        (r"The file is empty\.", lambda m: _("The file is empty.")),
        (
            r"The file is larger than (\d+) MB\.",
            lambda m: _("The file is larger than %(mb)s MB.") % {"mb": m[1]},
        ),
        (
            r"The image is too large to open safely \(more than ([\d,]+) pixels\)\.",
            lambda m: (
                _("The image is too large to open safely (more than %(n)s pixels).") % {"n": m[1]}
            ),
        ),
        (
            r"The file is not an image \(JPEG, PNG or WebP\) that can be read\.",
            lambda m: _("The file is not an image (JPEG, PNG or WebP) that can be read."),
        ),
        (
            r"The image is (\d+)×(\d+) pixels: too large to open safely .*",
            lambda m: (
                _("The image is %(w)s×%(h)s pixels: too large to open safely.")
                % {"w": m[1], "h": m[2]}
            ),
        ),
        (
            r"The image is (\d+)×(\d+) pixels: too small to show a card \(at least (\d+) px a "
            r"side\)\.",
            lambda m: (
                _(
                    "The image is %(w)s×%(h)s pixels: too small to show a card (at least "
                    "%(min)s px a side)."
                )
                % {"w": m[1], "h": m[2], "min": m[3]}
            ),
        ),
        (
            r"The image is (\d+)×(\d+) pixels: a strip, not a photo of a card "
            r"\(at most (\d+):1\)\.",
            lambda m: (
                _(
                    "The image is %(w)s×%(h)s pixels: a strip, not a photo of a card (at most "
                    "%(ratio)s:1)."
                )
                % {"w": m[1], "h": m[2], "ratio": m[3]}
            ),
        ),
        (
            r"No card found in the photo: .*",
            lambda m: _(
                "No card found in the photo: put the card on a plain surface, whole and in focus."
            ),
        ),
        (
            r"Found (\d+) cards in the photo; a photo may hold at most (\d+) .*",
            lambda m: (
                _(
                    "Found %(n)s cards in the photo; a photo may hold at most %(most)s (one binder "
                    "page)."
                )
                % {"n": m[1], "most": m[2]}
            ),
        ),
    ]


def said(message: str) -> str:
    """The pipeline's sentence in the active language (as it is when not recognised)."""
    for pattern, words in _patterns():
        match = re.fullmatch(pattern, message.strip())
        if match:
            return words(match)
    return message
