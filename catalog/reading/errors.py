"""The one error the reading pipeline raises for bad input: a clear message, nothing saved.

Every check that refuses an input (not an image, a decompression bomb, an image too small or a
strip too long, no card in the photo, too many cards, a layout region outside the card) raises
`ReadingError` with a message that says what was wrong, in words a user can act on. Callers (the
scan pages, the worker task) show `str(error)` and save nothing.
"""


class ReadingError(ValueError):
    """Bad input to the reading pipeline; `str(error)` is the message for the user."""

    def __init__(self, message: str, *, field: str = "image"):
        super().__init__(message)
        self.field = field
