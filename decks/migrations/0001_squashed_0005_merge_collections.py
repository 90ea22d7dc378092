"""The decks app's schema as one migration: decks, entries, versions, stars and collections.

It replaces the first history of the app (an initial migration, four parallel second ones and
their empty merges), so a database migrated with those is marked as having this one, and a new
database gets the same tables in one step.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import decks.models


class Migration(migrations.Migration):
    initial = True

    replaces = [
        ("decks", "0001_initial"),
        ("decks", "0002_cards_in_decks_protected_catalog_versions"),
        ("decks", "0002_collections_and_entries"),
        ("decks", "0002_deck_stars"),
        ("decks", "0002_version_keeps_description"),
        ("decks", "0003_merge_collections_and_catalog_versions"),
        ("decks", "0003_merge_deck_stars_and_protected_catalog"),
        ("decks", "0003_merge_version_description_and_catalog_versions"),
        ("decks", "0004_merge_hardening_and_stars"),
        ("decks", "0005_merge_collections"),
    ]

    dependencies = [
        ("catalog", "0001_squashed_0009_card_total"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Deck",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=100, verbose_name="name")),
                (
                    "description",
                    models.TextField(blank=True, max_length=2000, verbose_name="description"),
                ),
                (
                    "visibility",
                    models.CharField(
                        choices=[
                            ("private", "Private"),
                            ("unlisted", "Unlisted"),
                            ("public", "Public"),
                        ],
                        default="private",
                        max_length=10,
                        verbose_name="visibility",
                    ),
                ),
                (
                    "slug",
                    models.SlugField(
                        default=decks.models.new_share_slug,
                        editable=False,
                        max_length=64,
                        unique=True,
                    ),
                ),
                ("is_sample", models.BooleanField(default=False)),
                ("is_legal", models.BooleanField(default=False)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "copied_from",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="copies",
                        to="decks.deck",
                    ),
                ),
                (
                    "goalkeeper",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="catalog.card",
                    ),
                ),
                (
                    "owner",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="decks",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "pk_goalkeeper",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="catalog.card",
                    ),
                ),
            ],
            options={
                "ordering": ["-updated_at", "id"],
            },
        ),
        migrations.CreateModel(
            name="DeckEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "zone",
                    models.CharField(choices=[("deck", "Deck"), ("bench", "Bench")], max_length=5),
                ),
                ("quantity", models.PositiveSmallIntegerField()),
                (
                    "card",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="deck_entries",
                        to="catalog.card",
                    ),
                ),
                (
                    "deck",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entries",
                        to="decks.deck",
                    ),
                ),
            ],
            options={
                "ordering": ["deck", "zone", "card"],
            },
        ),
        migrations.CreateModel(
            name="DeckStar",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "deck",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="stars",
                        to="decks.deck",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "id"],
            },
        ),
        migrations.CreateModel(
            name="DeckVersion",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveIntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("name", models.CharField(max_length=100)),
                ("description", models.TextField(blank=True, default="")),
                ("summary", models.CharField(blank=True, max_length=500)),
                ("content", models.JSONField()),
                ("is_legal", models.BooleanField()),
                ("catalog_change", models.BooleanField(default=False)),
                (
                    "deck",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="versions",
                        to="decks.deck",
                    ),
                ),
                (
                    "editor",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["deck", "-number"],
            },
        ),
        migrations.CreateModel(
            name="Collection",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "visibility",
                    models.CharField(
                        choices=[
                            ("private", "Private"),
                            ("link", "Anyone with the link"),
                            ("public", "Public"),
                        ],
                        default="private",
                        max_length=10,
                        verbose_name="visibility",
                    ),
                ),
                (
                    "slug",
                    models.SlugField(
                        default=decks.models.new_share_slug,
                        editable=False,
                        max_length=64,
                        unique=True,
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "owner",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="collection",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("visibility__in", ["private", "link", "public"])),
                        name="collection_known_visibility",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="CollectionEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "condition",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("", "Not recorded"),
                            ("mint", "Mint"),
                            ("near_mint", "Near mint"),
                            ("played", "Played"),
                            ("damaged", "Damaged"),
                        ],
                        default="",
                        max_length=10,
                    ),
                ),
                (
                    "language",
                    models.CharField(
                        blank=True,
                        choices=[("", "Not recorded"), ("ja", "Japanese"), ("en", "English")],
                        default="",
                        max_length=2,
                    ),
                ),
                ("quantity", models.PositiveSmallIntegerField(default=0)),
                (
                    "for_trade",
                    models.PositiveSmallIntegerField(
                        default=0, help_text="Copies marked by hand as haves (for trade)."
                    ),
                ),
                (
                    "wanted",
                    models.PositiveSmallIntegerField(
                        default=0, help_text="Copies marked by hand as wants."
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "card",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="collection_entries",
                        to="catalog.card",
                    ),
                ),
                (
                    "owner",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="collection_entries",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["owner", "card", "condition", "language"],
                "indexes": [
                    models.Index(fields=["card", "owner"], name="collectionentry_card_owner")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("owner", "card", "condition", "language"),
                        name="collectionentry_one_row",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("quantity__gte", 0), ("for_trade__gte", 0), ("wanted__gte", 0)
                        ),
                        name="collectionentry_quantity_min",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("for_trade__lte", models.F("quantity"))),
                        name="collectionentry_trade_within_owned",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("condition__in", ["", "mint", "near_mint", "played", "damaged"])
                        ),
                        name="collectionentry_known_condition",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("language__in", ["", "ja", "en"])),
                        name="collectionentry_known_language",
                    ),
                ],
            },
        ),
        migrations.AddIndex(
            model_name="deck",
            index=models.Index(fields=["visibility", "is_legal"], name="deck_visibility_legal"),
        ),
        migrations.AddConstraint(
            model_name="deck",
            constraint=models.CheckConstraint(
                condition=models.Q(("visibility__in", ["private", "unlisted", "public"])),
                name="deck_known_visibility",
            ),
        ),
        migrations.AddConstraint(
            model_name="deck",
            constraint=models.CheckConstraint(
                condition=models.Q(("name", ""), _negated=True), name="deck_has_name"
            ),
        ),
        migrations.AddConstraint(
            model_name="deckentry",
            constraint=models.UniqueConstraint(
                fields=("deck", "card", "zone"), name="deckentry_one_row"
            ),
        ),
        migrations.AddConstraint(
            model_name="deckentry",
            constraint=models.CheckConstraint(
                condition=models.Q(("quantity__gte", 1)), name="deckentry_quantity_min"
            ),
        ),
        migrations.AddConstraint(
            model_name="deckentry",
            constraint=models.CheckConstraint(
                condition=models.Q(("zone__in", ["deck", "bench"])), name="deckentry_known_zone"
            ),
        ),
        migrations.AddConstraint(
            model_name="deckstar",
            constraint=models.UniqueConstraint(
                fields=("user", "deck"), name="deckstar_one_per_user"
            ),
        ),
        migrations.AddConstraint(
            model_name="deckversion",
            constraint=models.UniqueConstraint(
                fields=("deck", "number"), name="deckversion_unique_number"
            ),
        ),
        migrations.AddConstraint(
            model_name="deckversion",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)), name="deckversion_number_min"
            ),
        ),
    ]
