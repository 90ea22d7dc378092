"""Decks a user owns: the cards in deck and bench, the goalkeepers, sharing, and history.

The database holds the invariants it can (one row per card and zone, quantities of at least 1,
known zones and visibilities, unique share slugs, consecutive version numbers per deck). Game
legality (R-DECK-1..5, R-PK-1) is not a constraint: an illegal deck may be saved as a draft, so
`is_legal` records the verdict of the one legality function at the last save.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from catalog.models import Card, Printing


def new_share_slug() -> str:
    """Return an unguessable share slug (about 96 random bits)."""
    return secrets.token_urlsafe(12)


class Deck(models.Model):
    class Visibility(models.TextChoices):
        PRIVATE = "private", _("Private")
        UNLISTED = "unlisted", _("Unlisted")
        PUBLIC = "public", _("Public")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    slug = models.SlugField(max_length=64, unique=True, default=new_share_slug, editable=False)
    # A card a deck holds cannot be deleted (PROTECT): no path may empty a user's deck behind
    # their back. A sample card becoming real is changed in place and re-validates the deck.
    goalkeeper = models.ForeignKey(
        Card, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    pk_goalkeeper = models.ForeignKey(
        Card, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    copied_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="copies"
    )
    is_sample = models.BooleanField(default=False)
    is_legal = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The owner has seen (dismissed) the catalogue changes up to this version number; the deck
    # page lists the catalogue-change versions after it (decks/catalog_changes.py).
    catalog_seen = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-updated_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(visibility__in=["private", "unlisted", "public"]),
                name="deck_known_visibility",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="deck_has_name"),
        ]
        indexes = [models.Index(fields=["visibility", "is_legal"], name="deck_visibility_legal")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("decks:detail", args=[self.slug])

    @property
    def is_public(self) -> bool:
        return self.visibility == self.Visibility.PUBLIC


class DeckEntry(models.Model):
    class Zone(models.TextChoices):
        DECK = "deck", _("Deck")
        BENCH = "bench", _("Bench")

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_entries")
    zone = models.CharField(max_length=5, choices=Zone.choices)
    quantity = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["deck", "zone", "card"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card", "zone"], name="deckentry_one_row"),
            models.CheckConstraint(condition=Q(quantity__gte=1), name="deckentry_quantity_min"),
            models.CheckConstraint(
                condition=Q(zone__in=["deck", "bench"]), name="deckentry_known_zone"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} {self.card_id} ({self.zone})"


class DeckVersion(models.Model):
    """One saved state of a deck: who, when, a summary of the change, and the whole content.

    `content` is a snapshot (goalkeeper, pk_goalkeeper, deck and bench as {card id: quantity}),
    so any two versions compare exactly and a simulation can pin the deck it used.
    """

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    editor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    name = models.CharField(max_length=100)
    # The description as saved in this version (empty for versions saved before it was kept),
    # so a stale edit can be merged field by field (decks/merge.py).
    description = models.TextField(blank=True, default="")
    summary = models.CharField(max_length=500, blank=True)
    content = models.JSONField()
    is_legal = models.BooleanField()
    # Made by the catalog changing a card the deck holds, not by an edit of the deck.
    catalog_change = models.BooleanField(default=False)
    # What that change was, so it can be said in the reader's language: {"cards": [one record
    # per changed card the deck holds], "problems": [the rules failing after it]}
    # (decks/catalog_changes.py); empty for versions made before it was kept (`summary` then).
    catalog_changes = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="deckversion_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deckversion_number_min"),
        ]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"


class DeckStar(models.Model):
    """A user's favourite: one star per user and deck (public decks only, see decks/services)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="stars")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "deck"], name="deckstar_one_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} ★ {self.deck_id}"


class Collection(models.Model):
    """A user's collection settings: who may see it (private by default) and its share link."""

    class Visibility(models.TextChoices):
        PRIVATE = "private", _("Private")
        LINK = "link", _("Anyone with the link")
        PUBLIC = "public", _("Public")

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection"
    )
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    slug = models.SlugField(max_length=64, unique=True, default=new_share_slug, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(visibility__in=["private", "link", "public"]),
                name="collection_known_visibility",
            ),
        ]

    def __str__(self) -> str:
        return f"collection of {self.owner_id}"

    def get_absolute_url(self) -> str:
        return reverse("decks:collection-shared", args=[self.slug])


class CollectionEntry(models.Model):
    """How many copies of one printing of a card (and variant) a user owns, and their marks.

    A variant is an optional condition and language of print; blank means "not recorded".
    `card` is the printing's card, kept on the row (always written from the printing by
    decks.collections.services) so every "cards I own" count sums over printings and
    variants by card (R-DECK-2 counts the card whatever its printing).
    A row with quantity 0 keeps a hand-marked want for a card the user does not own.
    """

    class Condition(models.TextChoices):
        # The usual grading ladder, best first; blank (the default) is "not recorded".
        ANY = "", _("Not recorded")
        MINT = "mint", _("Mint")
        NEAR_MINT = "near_mint", _("Near mint")
        EXCELLENT = "excellent", _("Excellent")
        GOOD = "good", _("Good")
        PLAYED = "played", _("Played")
        DAMAGED = "damaged", _("Damaged")

    class Language(models.TextChoices):
        ANY = "", _("Not recorded")
        JA = "ja", _("Japanese")
        EN = "en", _("English")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection_entries"
    )
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="collection_entries")
    printing = models.ForeignKey(
        Printing, on_delete=models.CASCADE, related_name="collection_entries"
    )
    condition = models.CharField(max_length=10, choices=Condition.choices, blank=True, default="")
    language = models.CharField(max_length=2, choices=Language.choices, blank=True, default="")
    quantity = models.PositiveSmallIntegerField(default=0)
    for_trade = models.PositiveSmallIntegerField(
        default=0, help_text="Copies marked by hand as haves (for trade)."
    )
    wanted = models.PositiveSmallIntegerField(
        default=0, help_text="Copies marked by hand as wants."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["owner", "card", "printing", "condition", "language"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "printing", "condition", "language"],
                name="collectionentry_one_row_per_printing",
            ),
            models.CheckConstraint(
                condition=Q(quantity__gte=0) & Q(for_trade__gte=0) & Q(wanted__gte=0),
                name="collectionentry_quantity_min",
            ),
            models.CheckConstraint(
                condition=Q(for_trade__lte=models.F("quantity")),
                name="collectionentry_trade_within_owned",
            ),
            models.CheckConstraint(
                condition=Q(
                    condition__in=[
                        "",
                        "mint",
                        "near_mint",
                        "excellent",
                        "good",
                        "played",
                        "damaged",
                    ]
                ),
                name="collectionentry_known_condition",
            ),
            models.CheckConstraint(
                condition=Q(language__in=["", "ja", "en"]), name="collectionentry_known_language"
            ),
        ]
        indexes = [models.Index(fields=["card", "owner"], name="collectionentry_card_owner")]

    def __str__(self) -> str:
        return f"{self.quantity} {self.card_id} ({self.owner_id})"

    def save(self, *args, **kwargs):
        # A row made for a card alone is its first printing's; a printing names its card.
        if self.printing_id is None and self.card_id is not None:
            self.printing = Printing.objects.get(card_id=self.card_id, kind=Printing.Kind.FIRST)
        if self.printing_id is not None:
            self.card_id = self.printing.card_id
        super().save(*args, **kwargs)
