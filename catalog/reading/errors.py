"""The one error the reading pipeline raises for bad input: a clear message, nothing saved.

Every check that refuses an input (not an image, a decompression bomb, an image too small or a
strip too long, no card in the photo, too many cards, a layout region outside the card) raises
`ReadingError` with a message that says what was wrong, in words a user can act on. Callers (the
scan pages, the worker task) show `str(error)` and save nothing.

The message is an English template with named values (`template`, `params`), said in the active
language when it is shown (`said()`; the Japanese is in locale/ja/LC_MESSAGES/django.po). A
worker stores the template and values with a failed job, so the page says it in the language of
whoever reads it, not the worker's (catalog.readings.failure_said).
"""

from django.utils.translation import gettext, gettext_noop

# The regions of a layout, as a person names them (catalog.reading.layout.FIELDS).
REGION_LABELS = {
    "name": gettext_noop("name"),
    "reading": gettext_noop("kana reading"),
    "number": gettext_noop("card number"),
    "shoot": gettext_noop("shoot box"),
    "keep": gettext_noop("keep box"),
    "defense": gettext_noop("defense box"),
    "art": gettext_noop("art"),
}


def say(template: str, params: dict | None = None) -> str:
    """The template in the active language with its values (a region named by its label)."""
    values = dict(params or {})
    if values.get("region") in REGION_LABELS:
        values["region"] = gettext(REGION_LABELS[values["region"]])
    try:
        return gettext(template) % values if values else gettext(template)
    except (KeyError, TypeError, ValueError):  # a translation that lost a value: the English
        return template % values if values else template


class ReadingError(ValueError):
    """Bad input to the reading pipeline; `str(error)` is the message for the user."""

    def __init__(self, template: str, params: dict | None = None, *, field: str = "image"):
        self.template = template
        self.params = dict(params or {})
        self.field = field
        super().__init__(template)

    def said(self) -> str:
        return say(self.template, self.params)

    def __str__(self) -> str:
        return self.said()
