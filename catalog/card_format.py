"""The card file format's fields, defined once (README "Importing and exporting cards").

The importer's columns, the bulk-data rows, the admin's card form, the proposal form and data,
and the review's field-by-field difference all read their field lists from here, so a field
added to the format reaches every one of them (tests/catalog/test_card_format.py).
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class CardField:
    """One column of the card file format.

    `model` is the Card attribute it is stored in ("" for `status`, which is derived from
    `is_sample`); `limit` bounds a text value's length; `content` marks what a contributor
    gives for a set number (everything but the id, the set and number, and the bookkeeping).
    """

    name: str
    model: str
    limit: int | None = None
    content: bool = True
    number: bool = False  # a whole number (number, stats), not text
    label: str = ""  # what a person reads for the field (catalog/card_words.py), translated


FIELDS: tuple[CardField, ...] = (
    CardField("id", "id", limit=10, content=False, label=_("Card")),
    CardField("set", "card_set_id", limit=4, content=False, label=_("Set")),
    CardField("number", "number", content=False, number=True, label=_("Number")),
    CardField("name", "name", limit=100, label=_("Name (English)")),
    CardField("name_ja", "name_ja", limit=100, label=_("Name (Japanese)")),
    CardField("name_kana", "name_kana", limit=100, label=_("Reading (kana)")),
    CardField("kind", "kind", limit=10, label=_("Kind")),
    CardField("position", "position", limit=2, label=_("Position")),
    CardField("person", "person", limit=100, label=_("Person")),
    CardField("team", "team_id", limit=100, label=_("Team")),
    CardField("shoot", "shoot", number=True, label=_("Shoot")),
    CardField("keep", "keep", number=True, label=_("Keep")),
    CardField("defense", "defense", number=True, label=_("Defense")),
    CardField("effect", "effect", limit=200, label=_("Effect")),
    CardField("rarity", "rarity", limit=10, label=_("Rarity")),
    CardField("is_sample", "is_sample", content=False, label=_("Sample")),
    CardField("status", "", limit=10, content=False, label=_("Status")),
    CardField("source", "source", limit=200, content=False, label=_("Source")),
)

# Every column of the file, in file order (CSV header, bulk-data keys).
FILE_FIELDS = tuple(f.name for f in FIELDS)
# What a contributor says about a card: the proposal's fields after set and number, and the
# rows of the review's difference.
CONTENT_FIELDS = tuple(f.name for f in FIELDS if f.content)
PROPOSAL_FIELDS = ("set", "number", *CONTENT_FIELDS)
DIFF_FIELDS = CONTENT_FIELDS
# Card attributes a validated row writes (the id is the key; `status` is not stored).
MODEL_FIELDS = tuple(f.model for f in FIELDS if f.model and f.name != "id")
# The admin's card form, by model field name (foreign keys by their field, not `_id`).
ADMIN_FIELDS = tuple(f.model.removesuffix("_id") for f in FIELDS if f.model)
TEXT_LIMITS = {f.name: f.limit for f in FIELDS if f.limit is not None}
