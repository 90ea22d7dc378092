"""What exists in the game: sets, their products, the clubs, and the cards.

The database holds every invariant it can (unique set numbers, non-negative stats, goalkeeper
if and only if position GK, events without position or stats), so an importer bug or a manual
edit cannot store a card the engine would misread.
"""

import unicodedata

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

# Katakana ァ..ヶ (U+30A1..U+30F6) to hiragana ぁ..ゖ: readings match in either script.
_KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}


def normalize_text(text: str) -> str:
    """Return text folded for search: NFKC (full-width → half-width, half-width katakana →
    katakana), case-folded, and katakana folded to hiragana, so `すずき`, `スズキ` and `ｽｽﾞｷ`
    are one word."""
    return unicodedata.normalize("NFKC", text or "").casefold().translate(_KATAKANA_TO_HIRAGANA)


def short_grams(text: str) -> list[str]:
    """Return the distinct 1- and 2-character substrings of a normalised text, sorted.

    They back the index for 1–2 character queries, which trigram indexes cannot serve
    (see docs/performance.md).
    """
    grams = set()
    for word in text.split():
        grams.update(word)
        grams.update(word[i : i + 2] for i in range(len(word) - 1))
    return sorted(grams)


def catalog_order(display_order: int, number: int) -> int:
    """Return a card's place in the catalog (set by display order, then number) as one number.

    Stored on the card (`Card.catalog_order`, indexed), so the default order of every search
    is one index scan that stops after a page instead of a join to the sets and a sort of
    every match (docs/performance.md). Numbers are 1..999 (card_number_range).
    """
    return display_order * 1000 + number


class CardSet(models.Model):
    class Kind(models.TextChoices):
        PREBUILT = "prebuilt", _("Championship deck (prebuilt)")
        EXPANSION = "expansion", _("Expansion")

    code = models.CharField(max_length=4, primary_key=True)
    name = models.CharField(max_length=100)
    name_ja = models.CharField(max_length=100)
    released = models.DateField(help_text="First day of the release month.")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    kinds_count = models.PositiveSmallIntegerField(
        help_text="Number of card kinds (expansions) or of prebuilt decks (championship decks)."
    )
    display_order = models.PositiveSmallIntegerField(unique=True)

    class Meta:
        ordering = ["display_order"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        # The set's place in the catalog order is part of each of its cards' sort key.
        self.cards.update(catalog_order=models.F("number") + catalog_order(self.display_order, 0))

    def get_absolute_url(self) -> str:
        return reverse("catalog:set-detail", args=[self.code])

    @property
    def display_name(self) -> str:
        return self.name_ja if get_language() == "ja" else self.name

    @property
    def kinds_label(self) -> str:
        if self.kind == self.Kind.PREBUILT:
            return _("%(n)d decks") % {"n": self.kinds_count}
        return _("%(n)d cards") % {"n": self.kinds_count}


class Product(models.Model):
    class Kind(models.TextChoices):
        PREBUILT_STARTER = "prebuilt_starter", _("Prebuilt starter")
        STARTER = "starter", _("Starter")
        BOOSTER = "booster", _("Booster")

    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="products")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    cards_per_product = models.PositiveSmallIntegerField()
    price_yen = models.PositiveIntegerField()
    notes = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["card_set__display_order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["card_set", "kind"], name="product_unique_kind_per_set")
        ]

    def __str__(self) -> str:
        return f"{self.card_set_id} {self.get_kind_display()}"


class Team(models.Model):
    code = models.SlugField(max_length=40, primary_key=True)
    name = models.CharField(max_length=100)
    name_ja = models.CharField(max_length=100)
    is_national = models.BooleanField(default=False)

    class Meta:
        ordering = ["is_national", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def display_name(self) -> str:
        return self.name_ja if get_language() == "ja" else self.name


class Card(models.Model):
    class Kind(models.TextChoices):
        PLAYER = "player", _("Player")
        GOALKEEPER = "goalkeeper", _("Goalkeeper")
        EVENT = "event", _("Event")

    class Position(models.TextChoices):
        FW = "FW", "FW"
        MF = "MF", "MF"
        DF = "DF", "DF"
        GK = "GK", "GK"

    id = models.CharField(max_length=10, primary_key=True)  # "<set code>-<3-digit number>"
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100)
    name_ja = models.CharField(max_length=100, blank=True)
    name_kana = models.CharField(
        max_length=100, blank=True, help_text="Reading of the Japanese name, in kana (searchable)."
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    position = models.CharField(max_length=2, choices=Position.choices, blank=True)
    person = models.CharField(
        max_length=100, blank=True, help_text="R-DECK-3: the same person in two sets is one person."
    )
    team = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="cards", null=True, blank=True
    )
    shoot = models.SmallIntegerField(default=0)
    keep = models.SmallIntegerField(default=0)
    defense = models.SmallIntegerField(default=0)
    effect = models.CharField(max_length=200, blank=True)
    rarity = models.CharField(max_length=10, blank=True)
    is_sample = models.BooleanField(default=False)
    # Where the card's data came from, as the last accepted contributor gave it.
    source = models.CharField(max_length=200, blank=True)
    search_text = models.TextField(editable=False, default="")
    search_grams = models.JSONField(editable=False, default=list)
    catalog_order = models.PositiveIntegerField(editable=False, default=0)

    class Meta:
        ordering = ["card_set__display_order", "number"]
        constraints = [
            models.UniqueConstraint(fields=["card_set", "number"], name="card_unique_set_number"),
            models.CheckConstraint(
                condition=Q(shoot__gte=0) & Q(keep__gte=0) & Q(defense__gte=0),
                name="card_stats_non_negative",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=999), name="card_number_range"
            ),
            models.CheckConstraint(
                condition=(Q(kind="goalkeeper") & Q(position="GK"))
                | (~Q(kind="goalkeeper") & ~Q(position="GK")),
                name="card_goalkeeper_iff_gk",
            ),
            models.CheckConstraint(
                condition=~Q(kind="player") | Q(position__in=["FW", "MF", "DF"]),
                name="card_player_has_field_position",
            ),
            models.CheckConstraint(
                condition=~Q(kind="event")
                | (Q(position="") & Q(shoot=0) & Q(keep=0) & Q(defense=0)),
                name="card_event_has_no_position_or_stats",
            ),
            models.CheckConstraint(
                condition=Q(kind="event") | Q(effect=""), name="card_only_events_have_effects"
            ),
            models.CheckConstraint(
                condition=Q(kind="event") | ~Q(person=""), name="card_player_has_person"
            ),
        ]
        # The PostgreSQL-only search indexes (trigram and short grams) are created by
        # catalog's first migration, which skips them on SQLite.
        indexes = [
            # Kind, position and stats: the filter controls. With the stats in the index, the
            # COUNT of a search such as `pos:FW shoot>=7` is an index-only scan, not a table scan.
            models.Index(
                fields=["kind", "position", "shoot", "keep", "defense"], name="card_kind_pos_stats"
            ),
            models.Index(fields=["person"], name="card_person"),
            models.Index(fields=["catalog_order"], name="card_catalog_order"),
        ]

    def __str__(self) -> str:
        return f"{self.id} {self.name}"

    def save(self, *args, **kwargs):
        self.refresh_search_fields()
        super().save(*args, **kwargs)
        printings_ensure_first([self.pk])

    def get_absolute_url(self) -> str:
        return reverse("catalog:card-detail", args=[self.id])

    @staticmethod
    def make_id(set_code: str, number: int) -> str:
        return f"{set_code}-{number:03d}"

    @property
    def display_name(self) -> str:
        if get_language() == "ja" and self.name_ja:
            return self.name_ja
        return self.name

    def refresh_search_fields(self, *, display_order: int | None = None) -> None:
        """Recompute the denormalised search columns from the names, reading and person, and
        the catalog order from the set's display order (read from the set if not given)."""
        parts = [self.name, self.name_ja, self.person]
        self.search_text = normalize_text(" ".join(parts + [self.name_kana] * bool(self.name_kana)))
        self.search_grams = short_grams(self.search_text)
        if display_order is None:
            display_order = self.card_set.display_order
        self.catalog_order = catalog_order(display_order, self.number)


def printing_code(set_code: str, number: int, kind: str) -> str:
    """Return a printing's code: `<set>-<3-digit number>`, with `-foil` or `-parallel` for those
    finishes, which share the number of the plain print they are a version of."""
    base = f"{set_code}-{number:03d}"
    return f"{base}-{kind}" if kind in Printing.FINISHES else base


class Printing(models.Model):
    """One printing of a card: its first print, a reprint in a later set, a promo, or a foil or
    parallel version. Each has its own set number (and scans); the game only knows the card
    (R-DECK-2: copies are counted by card, whatever their printing).

    Within a set a number is one printed card: a plain print (first, reprint or promo) holds
    it alone, and each finish (foil, parallel) of that number is one more printing, so the code
    (`ES1-005`, `ES1-005-foil`) is unique. Every card has exactly one first printing, in its
    own set under its own number (made with the card, `printings_ensure_first`).
    """

    class Kind(models.TextChoices):
        FIRST = "first", _("First print")
        REPRINT = "reprint", _("Reprint")
        PROMO = "promo", _("Promo")
        PARALLEL = "parallel", _("Parallel")
        FOIL = "foil", _("Foil")

    FINISHES = ("parallel", "foil")

    code = models.CharField(max_length=20, unique=True, editable=False)
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printings")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="printings")
    number = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(999)]
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    label = models.CharField(max_length=100, blank=True)
    notes = models.CharField(max_length=300, blank=True)
    is_sample = models.BooleanField(default=False)

    class Meta:
        ordering = ["card", "card_set__display_order", "number", "code"]
        constraints = [
            models.UniqueConstraint(
                fields=["card"], condition=Q(kind="first"), name="printing_one_first_per_card"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["first", "reprint", "promo", "parallel", "foil"]),
                name="printing_known_kind",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=999), name="printing_number_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.kind})"

    def save(self, *args, **kwargs):
        self.code = printing_code(self.card_set_id, self.number, self.kind)
        super().save(*args, **kwargs)

    def clean(self):
        """Check an edit (admin) before the database would refuse it, naming each field."""
        from django.core.exceptions import ValidationError

        errors: dict[str, str] = {}
        if self.card_id is None or self.card_set_id is None or self.number is None:
            return  # the form names the missing fields
        if self.kind not in self.Kind.values:
            return
        card = self.card
        was_first = (
            self.pk is not None
            and Printing.objects.filter(pk=self.pk, kind=self.Kind.FIRST).exists()
        )
        if was_first and (self.kind != self.Kind.FIRST or self.card_id != card.pk):
            errors["kind"] = _("A card's first printing stays its first printing.")
        elif self.kind == self.Kind.FIRST:
            if (self.card_set_id, self.number) != (card.card_set_id, card.number):
                errors["kind"] = _(
                    "A first printing is the card's own set and number (%(id)s)."
                ) % {"id": card.id}
            elif card.printings.filter(kind=self.Kind.FIRST).exclude(pk=self.pk).exists():
                errors["kind"] = _("This card already has its first printing.")
        if self.kind in self.FINISHES:
            # A foil or parallel version has the number of a plain print of the same card.
            plain = card.printings.filter(
                card_set_id=self.card_set_id,
                number=self.number,
                kind__in=[self.Kind.FIRST, self.Kind.REPRINT, self.Kind.PROMO],
            )
            if not plain.exists():
                errors["number"] = _(
                    "A foil or parallel printing takes the number of a plain printing of the "
                    "same card in that set."
                )
        code = printing_code(self.card_set_id, self.number, self.kind)
        if Printing.objects.filter(code=code).exclude(pk=self.pk).exists():
            errors.setdefault(
                "number",
                _("Printing %(code)s already exists: a set number is one printed card.")
                % {"code": code},
            )
        elif self.kind not in self.FINISHES:
            taken = Card.objects.filter(card_set_id=self.card_set_id, number=self.number)
            if taken.exclude(pk=self.card_id).exists():
                errors.setdefault(
                    "number", _("That set number is another card's (%(code)s).") % {"code": code}
                )
        if card.is_sample and not self.is_sample:
            errors["is_sample"] = _("A printing of a sample card is a sample too.")
        if errors:
            raise ValidationError(errors)

    @property
    def display_label(self) -> str:
        return self.label or str(self.get_kind_display())


def printings_ensure_first(card_ids=None) -> int:
    """Give every card (or the given ones) its first printing if it has none, and keep each
    first printing's sample mark the card's. Return how many printings were made."""
    cards = Card.objects.all() if card_ids is None else Card.objects.filter(pk__in=card_ids)
    missing = cards.exclude(printings__kind=Printing.Kind.FIRST).values_list(
        "id", "card_set_id", "number", "is_sample"
    )
    made = Printing.objects.bulk_create(
        [
            Printing(
                code=printing_code(set_code, number, Printing.Kind.FIRST),
                card_id=card_id,
                card_set_id=set_code,
                number=number,
                kind=Printing.Kind.FIRST,
                is_sample=is_sample,
            )
            for card_id, set_code, number, is_sample in missing
        ],
        batch_size=500,
    )
    for is_sample in (True, False):
        Printing.objects.filter(
            kind=Printing.Kind.FIRST, card__in=cards.filter(is_sample=is_sample)
        ).exclude(is_sample=is_sample).update(is_sample=is_sample)
    return len(made)


class CatalogState(models.Model):
    """One row whose `version` changes whenever the catalog does: the key of cached searches.

    A random UUID, not a counter, so a response cached for one database (or one rolled-back
    test transaction) can never be served for another state of the catalog.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1, editable=False)
    version = models.UUIDField()

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(id=1), name="catalogstate_single_row")]

    def __str__(self) -> str:
        return str(self.version)


class Changeset(models.Model):
    """Many cards proposed at once (a set's rows from a spreadsheet or the set grid).

    Each card is a CardProposal of the changeset; an editor accepts some, rejects others with
    a reason, and everything accepted is applied in one transaction
    (catalog.contributions.changesets). `version` is the state the review saw, as a
    proposal's is.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending review")
        REVIEWED = "reviewed", _("Reviewed")

    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="changesets"
    )
    # None for an open-data import, which may hold several sets' cards (`origin` names them).
    card_set = models.ForeignKey(
        CardSet, on_delete=models.PROTECT, related_name="changesets", null=True, blank=True
    )
    source = models.CharField(_("source"), max_length=200)
    note = models.TextField(_("note"), blank=True, max_length=2000)
    # An import of another instance's open-data export (catalog/opendata_import.py): the source
    # instance, its licence, the export's format version and checksums, and every card of the
    # export marked new, same, different or kept. None for a changeset a person typed.
    origin = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    version = models.PositiveIntegerField(default=1, editable=False)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reviewed_changesets",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "reviewed"]), name="changeset_known_status"
            ),
        ]

    def __str__(self) -> str:
        return f"changeset {self.pk} ({self.card_set_id or 'open data'})"

    def get_absolute_url(self) -> str:
        return reverse("catalog:changeset-detail", args=[self.pk])


class ReviewedProposal(models.Model):
    """What every reviewed proposal holds (a card's, an erratum's or a ruling's): its source and
    note, the review's status, reason and time, and the version a review must name
    (catalog.contributions.services.ProposalChanged)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending review")
        ACCEPTED = "accepted", _("Accepted")
        REJECTED = "rejected", _("Rejected")
        CHANGES_REQUESTED = "changes", _("Changes requested")

    source = models.CharField(_("source"), max_length=200)
    note = models.TextField(_("note"), blank=True, max_length=2000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    reason = models.TextField(_("reason"), blank=True, max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    reviewed_at = models.DateTimeField(null=True, blank=True)
    # 1 when sent, one more at each edit: a review names the version its editor saw, and one
    # of an older version is refused (catalog.contributions.services.ProposalChanged).
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]


class CardProposal(ReviewedProposal):
    """A contributor's version of one set number: a new real card, or a correction.

    `data` holds the card in the file format's fields (README "Importing and exporting cards"),
    already checked by `catalog.importer.validate_card`; it is checked again on accept.
    """

    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="card_proposals"
    )
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="proposals")
    number = models.PositiveSmallIntegerField()
    card_id = models.CharField(max_length=10, db_index=True)
    data = models.JSONField()
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reviewed_card_proposals",
    )
    # The changeset this card was proposed in (reviewed there, with the others), or None.
    changeset = models.ForeignKey(
        Changeset, on_delete=models.CASCADE, null=True, blank=True, related_name="proposals"
    )
    # A card of an open-data import: the export's whole card row (status and source included),
    # its provenance there, and its mark ("new" or "different") with the field difference.
    origin = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        permissions = [
            ("review_proposal", "Can review card proposals (editor)"),
            ("apply_own_proposal", "Can apply own card proposals at once (trusted editor)"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "accepted", "rejected", "changes"]),
                name="proposal_known_status",
            ),
            models.CheckConstraint(
                condition=~Q(status__in=["rejected", "changes"]) | ~Q(reason=""),
                name="proposal_refusal_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(status="pending") | Q(reviewed_at__isnull=False),
                name="proposal_review_has_time",
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=999), name="proposal_number_range"
            ),
            models.CheckConstraint(condition=~Q(source=""), name="proposal_has_source"),
        ]
        indexes = [models.Index(fields=["status", "card_id"], name="proposal_status_card")]

    def __str__(self) -> str:
        return f"{self.card_id} by {self.proposer} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("catalog:proposal-detail", args=[self.pk])


class ProposalEdit(models.Model):
    """One time a proposer changed their proposal and sent it again.

    An edit costs what a new proposal does (its fields are checked and its scans processed and
    resized again), so it counts against the same daily limit (`PROPOSALS_PER_DAY`).
    """

    proposal = models.ForeignKey(CardProposal, on_delete=models.CASCADE, related_name="edits")
    editor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # The proposal as this edit found it ({"version", "data", "source", "note"}), so a review
    # refused as stale can show what changed since its editor opened the page.
    previous = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["editor", "created_at"], name="proposal_edit_editor_time")]

    def __str__(self) -> str:
        return f"{self.proposal_id} edited by {self.editor_id}"


class CardRevision(models.Model):
    """One accepted state of a card: who proposed it, who accepted it, when, from what source,
    and the whole card as it became (`data`, in the file format's fields)."""

    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="revisions")
    number = models.PositiveIntegerField()
    proposal = models.OneToOneField(
        CardProposal, on_delete=models.SET_NULL, null=True, blank=True, related_name="revision"
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    source = models.CharField(max_length=200, blank=True)
    data = models.JSONField()
    # A revision applied from another instance's open-data export: the source instance, licence,
    # export version and checksum, the changeset, and (for a card's history carried over) who
    # proposed and accepted it there and when. None for a revision made here.
    origin = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["card", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["card", "number"], name="revision_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="revision_number_min"),
        ]

    def __str__(self) -> str:
        return f"{self.card_id} r{self.number}"


class PrintingProposal(ReviewedProposal):
    """A contributor's new printing of a card (a reprint, promo, parallel or foil), with its
    source; reviewed as a card proposal is (catalog.contributions.printings): an editor accepts
    it (the printing is made, checked again), rejects it or asks for changes with a reason, at
    the version the review names; the proposer may edit and resend it meanwhile (each edit is a
    PrintingProposalEdit, counted against the daily limit)."""

    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="printing_proposals"
    )
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printing_proposals")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Printing.Kind.choices)
    label = models.CharField(max_length=100, blank=True)
    notes = models.CharField(max_length=300, blank=True)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reviewed_printing_proposals",
    )
    printing = models.OneToOneField(
        Printing, on_delete=models.SET_NULL, null=True, blank=True, related_name="proposal"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "accepted", "rejected", "changes"]),
                name="printingproposal_known_status",
            ),
            models.CheckConstraint(
                condition=~Q(status__in=["rejected", "changes"]) | ~Q(reason=""),
                name="printingproposal_refusal_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(status="pending") | Q(reviewed_at__isnull=False),
                name="printingproposal_review_has_time",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["reprint", "promo", "parallel", "foil"]),
                name="printingproposal_known_kind",
            ),
        ]
        indexes = [models.Index(fields=["status", "card"], name="printingproposal_status_card")]

    def __str__(self) -> str:
        return f"printing proposal {self.pk} ({self.card_id})"

    def get_absolute_url(self) -> str:
        return reverse("catalog:printing-proposal-detail", args=[self.pk])

    @property
    def code(self) -> str:
        return printing_code(self.card_set_id, self.number, self.kind)

    def fields(self) -> dict:
        """Return the proposed printing's fields, as a form sends them."""
        return {
            "kind": self.kind,
            "set": self.card_set_id,
            "number": self.number,
            "label": self.label,
            "notes": self.notes,
        }


class PrintingProposalEdit(models.Model):
    """One time a proposer changed their printing proposal and sent it again (as ProposalEdit:
    it counts against the daily limit). `previous` keeps the proposal as the edit found it,
    its review included, so a stale review can show what changed and the proposal's page its
    whole history (sent, reviewed, edited)."""

    proposal = models.ForeignKey(PrintingProposal, on_delete=models.CASCADE, related_name="edits")
    editor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # {"version", "fields", "source", "note", "status", "reason", "reviewer", "reviewed_at"}.
    previous = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["editor", "created_at"], name="printing_edit_editor_time")]

    def __str__(self) -> str:
        return f"{self.proposal_id} edited by {self.editor_id}"


def scan_path(instance, filename: str) -> str:
    return f"scans/{instance.token}/{filename}"


class CardScan(models.Model):
    """A photo of one side of a card, kept in three sizes made once on upload (EXIF removed).

    It belongs to a proposal until the proposal is accepted, then to the card as well.
    """

    class Side(models.TextChoices):
        FRONT = "front", _("Front")
        BACK = "back", _("Back")

    token = models.CharField(max_length=32, unique=True)
    proposal = models.ForeignKey(
        CardProposal, on_delete=models.CASCADE, null=True, blank=True, related_name="scans"
    )
    card = models.ForeignKey(
        Card, on_delete=models.SET_NULL, null=True, blank=True, related_name="scans"
    )
    # Which printing of the card the photo shows (blank: not said, read as the first print).
    printing = models.ForeignKey(
        "Printing", on_delete=models.SET_NULL, null=True, blank=True, related_name="scans"
    )
    side = models.CharField(max_length=5, choices=Side.choices)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    thumbnail = models.ImageField(upload_to=scan_path, width_field=None, max_length=200)
    normal = models.ImageField(upload_to=scan_path, max_length=200)
    large = models.ImageField(upload_to=scan_path, max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    # The perceptual hash of the art area (hex, catalog.reading.phash) and the layout it was
    # made with (SetLayout.key): photo recognition compares against it (catalog.readings).
    art_hash = models.CharField(max_length=64, blank=True)
    art_hash_key = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(side__in=["front", "back"]), name="scan_known_side"),
            models.CheckConstraint(
                condition=Q(proposal__isnull=False) | Q(card__isnull=False),
                name="scan_belongs_somewhere",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.side} scan {self.token}"

    # Scan links go through the app (catalog.contributions.views.scan_image), which checks who
    # may see a scan of a proposal not yet applied; never the storage's own URL.
    def url(self, size: str) -> str:
        return reverse("catalog:scan-image", args=[self.token, size])

    @property
    def thumbnail_url(self) -> str:
        return self.url("thumbnail")

    @property
    def normal_url(self) -> str:
        return self.url("normal")

    @property
    def large_url(self) -> str:
        return self.url("large")


def scan_upload_path(instance, filename: str) -> str:
    return f"scan-uploads/{instance.token}/{filename}"


class ScanUpload(models.Model):
    """An uploaded scan waiting for the worker to decode it and make its sizes (issue #26).

    The request only checks the file's header (catalog.scans.scan_probe) and stores its bytes
    here; the control worker's task (catalog.tasks.scan_process) decodes them within a time
    limit, makes the CardScan and deletes the raw file. A failed upload keeps its row, with
    the message the proposer and the editors see, and no file.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Being processed")
        DONE = "done", _("Processed")
        FAILED = "failed", _("Failed")

    token = models.CharField(max_length=32, unique=True)
    proposal = models.ForeignKey(
        CardProposal, on_delete=models.CASCADE, related_name="scan_uploads"
    )
    side = models.CharField(max_length=5, choices=CardScan.Side.choices)
    # Which printing of the card the photo shows, when the proposer said (a reprint, a foil);
    # the scan made from it keeps it (CardScan.printing).
    printing = models.ForeignKey(
        "Printing", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The name the file had on the proposer's machine (shown with a failure), at most 200.
    name = models.CharField(max_length=200, blank=True)
    raw = models.FileField(upload_to=scan_upload_path, max_length=200, blank=True)

    class Reason(models.TextChoices):
        UNREADABLE = "unreadable", "unreadable"
        SLOW = "slow", "past the time limit"
        MISSING = "missing", "raw file missing"
        STALE = "stale", "never processed"

    status = models.CharField(max_length=7, choices=Status.choices, default=Status.PENDING)
    # Why it failed: pages say it in the reader's language (catalog.scans.failure_said); the
    # message is the English sentence of the moment, for the admin and the logs.
    reason = models.CharField(max_length=10, choices=Reason.choices, blank=True)
    message = models.CharField(max_length=400, blank=True)
    scan = models.ForeignKey(
        CardScan, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(side__in=["front", "back"]), name="scan_upload_known_side"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "done", "failed"]),
                name="scan_upload_known_status",
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="scan_upload_status_time")]

    def __str__(self) -> str:
        return f"{self.side} upload {self.token} ({self.status})"


class CardNoteProposal(ReviewedProposal):
    """A contributor's erratum or ruling for one card, reviewed by an editor as a card
    proposal is (catalog.contributions.notes): a version carried by the review, a reason for a
    refusal, edits counted against the daily limit. Accepting it makes an Erratum or a Ruling.

    An erratum has `printed_text` (as printed) and `current_text` (as it now reads); a ruling
    has `text` and `ruling_date`. The other kind's fields stay empty (the constraints say so).
    """

    class Kind(models.TextChoices):
        ERRATUM = "erratum", _("Erratum")
        RULING = "ruling", _("Ruling")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="note_proposals")
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="note_proposals"
    )
    printed_text = models.TextField(_("printed text"), blank=True, max_length=2000)
    current_text = models.TextField(_("current text"), blank=True, max_length=2000)
    text = models.TextField(_("ruling"), blank=True, max_length=2000)
    ruling_date = models.DateField(_("date of the ruling"), null=True, blank=True)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reviewed_note_proposals",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["erratum", "ruling"]), name="note_known_kind"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "accepted", "rejected", "changes"]),
                name="note_known_status",
            ),
            models.CheckConstraint(
                condition=~Q(status__in=["rejected", "changes"]) | ~Q(reason=""),
                name="note_refusal_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(status="pending") | Q(reviewed_at__isnull=False),
                name="note_review_has_time",
            ),
            models.CheckConstraint(condition=~Q(source=""), name="note_has_source"),
            models.CheckConstraint(
                condition=(
                    Q(kind="erratum")
                    & ~Q(printed_text="")
                    & ~Q(current_text="")
                    & Q(text="")
                    & Q(ruling_date__isnull=True)
                )
                | (
                    Q(kind="ruling")
                    & ~Q(text="")
                    & Q(ruling_date__isnull=False)
                    & Q(printed_text="")
                    & Q(current_text="")
                ),
                name="note_fields_of_its_kind",
            ),
        ]
        indexes = [models.Index(fields=["status", "kind"], name="note_status_kind")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.card_id} by {self.proposer} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("catalog:note-detail", args=[self.pk])

    def fields(self) -> dict:
        """Return the proposed fields of its kind, as sent (a date as YYYY-MM-DD)."""
        if self.kind == self.Kind.ERRATUM:
            return {"printed_text": self.printed_text, "current_text": self.current_text}
        return {
            "text": self.text,
            "ruling_date": self.ruling_date.isoformat() if self.ruling_date else "",
        }


class CardNoteEdit(models.Model):
    """One time a proposer changed their erratum or ruling proposal (as ProposalEdit: it counts
    against the daily limit, and keeps the proposal as it was for a stale review's answer)."""

    proposal = models.ForeignKey(CardNoteProposal, on_delete=models.CASCADE, related_name="edits")
    editor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # {"version", "fields", "source", "note"} as the edit found them.
    previous = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["editor", "created_at"], name="note_edit_editor_time")]

    def __str__(self) -> str:
        return f"{self.proposal_id} edited by {self.editor_id}"


class Erratum(models.Model):
    """An accepted erratum: the card's text as printed, as it now reads, and the source."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="errata")
    printed_text = models.TextField(max_length=2000)
    current_text = models.TextField(max_length=2000)
    source = models.CharField(max_length=200)
    # Provenance, as a CardRevision's: the proposal, who sent it and who accepted it.
    proposal = models.OneToOneField(
        CardNoteProposal,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="erratum",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Carried from another instance's open-data export (catalog/opendata_import.py): the source
    # instance, licence, version and checksum, and who proposed and accepted it there and when.
    origin = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["card", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(printed_text="") & ~Q(current_text="") & ~Q(source=""),
                name="erratum_texts_and_source",
            ),
        ]

    def __str__(self) -> str:
        return f"erratum {self.pk} of {self.card_id}"


class Ruling(models.Model):
    """An accepted ruling on a card: its text, the date it was given, and the source."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="rulings")
    text = models.TextField(max_length=2000)
    ruling_date = models.DateField()
    source = models.CharField(max_length=200)
    proposal = models.OneToOneField(
        CardNoteProposal,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ruling",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    origin = models.JSONField(null=True, blank=True)  # as an Erratum's

    class Meta:
        ordering = ["card", "ruling_date", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(text="") & ~Q(source=""), name="ruling_text_and_source"
            ),
        ]

    def __str__(self) -> str:
        return f"ruling {self.pk} of {self.card_id} ({self.ruling_date})"


def layout_template_path(instance, filename: str) -> str:
    return f"layouts/{instance.card_set_id}/{filename}"


class LayoutProposal(ReviewedProposal):
    """A set's layout as a user marked it on a straightened scan (issue #25, 1.): where the name,
    the kana reading, the card number, each stat box and the art are, as fractions of the card
    (catalog.reading.layout.Layout.as_dict). An editor accepts it (it becomes the set's
    SetLayout) or rejects it or asks for changes with a reason (catalog.layouts).
    """

    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="layout_proposals"
    )
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="+")
    regions = models.JSONField()
    # The straightened card (CARD_WIDTH×CARD_HEIGHT PNG) the regions were marked on: the set's
    # template for aligning later scans once accepted.
    template = models.ImageField(upload_to=layout_template_path, max_length=200)
    # The set's layout version this one was marked against (0: the set had none).
    base_version = models.PositiveIntegerField(default=0)
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reviewed_layout_proposals",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "accepted", "rejected", "changes"]),
                name="layoutproposal_known_status",
            ),
            models.CheckConstraint(
                condition=~Q(status__in=["rejected", "changes"]) | ~Q(reason=""),
                name="layoutproposal_refusal_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(status="pending") | Q(reviewed_at__isnull=False),
                name="layoutproposal_review_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"layout of {self.card_set_id} by {self.proposer} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("catalog:layout-proposal", args=[self.pk])


class SetLayout(models.Model):
    """The accepted layout of a set: what reads later scans of it and matches photos of its
    cards (catalog.readings). `version` grows at each accepted change, so hashes of scans
    made with an older layout are made again (CardScan.art_hash_key)."""

    card_set = models.OneToOneField(CardSet, on_delete=models.CASCADE, related_name="layout")
    regions = models.JSONField()
    template = models.ImageField(upload_to=layout_template_path, max_length=200)
    proposal = models.ForeignKey(
        LayoutProposal, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"layout of {self.card_set_id} v{self.version}"

    @property
    def key(self) -> str:
        """What a cached art hash was made with: this set's layout at this version."""
        return f"{self.card_set_id}:{self.version}"


def reading_upload_path(instance, filename: str) -> str:
    return f"reading-uploads/{instance.token}/{filename}"


class ReadingJob(models.Model):
    """One photo or scan read by the control worker (issue #25, 2. and 3.), never on the request
    thread: straightened for marking a layout, read into a grid row's fields with a confidence
    each, or recognised among the set's approved scans (a binder page split into its cards).
    The page polls it for progress and shows its result or its message. The raw photo is
    deleted once read; a straightened card (for marking) is kept as `image`.
    """

    class Kind(models.TextChoices):
        STRAIGHTEN = "straighten", _("Straighten for marking")
        READ = "read", _("Read the fields")
        RECOGNISE = "recognise", _("Recognise the cards")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Being read")
        DONE = "done", _("Read")
        FAILED = "failed", _("Failed")

    class Reason(models.TextChoices):
        BAD_INPUT = "input", "bad input"
        SLOW = "slow", "past the time limit"
        MISSING = "missing", "raw file missing"
        STALE = "stale", "never processed"
        TOOLS = "tools", "tools missing"
        NO_LAYOUT = "layout", "no layout"

    token = models.CharField(max_length=32, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reading_jobs"
    )
    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)  # 0–100, for the page's bar
    # The name the file had on the user's machine (the grid matches rows by it), at most 200.
    name = models.CharField(max_length=200, blank=True)
    raw = models.FileField(upload_to=reading_upload_path, max_length=200, blank=True)
    image = models.FileField(upload_to=reading_upload_path, max_length=200, blank=True)
    result = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=7, choices=Reason.choices, blank=True)
    message = models.CharField(max_length=400, blank=True)
    # Worker CPU seconds the reading took (bench and docs/performance.md: the binder goal).
    cpu_seconds = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["straighten", "read", "recognise"]),
                name="readingjob_known_kind",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "running", "done", "failed"]),
                name="readingjob_known_status",
            ),
            models.CheckConstraint(
                condition=Q(progress__lte=100), name="readingjob_progress_range"
            ),
        ]
        indexes = [models.Index(fields=["status", "updated_at"], name="readingjob_status_time")]

    def __str__(self) -> str:
        return f"{self.kind} job {self.token} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
