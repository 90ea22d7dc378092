"""Printings (issue #24 item 4): every existing card gets its first printing, in its own set
under its own number, with the card's sample mark (decks 0003 then moves every collection
quantity onto it)."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def first_printings(apps, schema_editor):
    Card = apps.get_model("catalog", "Card")
    Printing = apps.get_model("catalog", "Printing")
    rows = Card.objects.values_list("id", "card_set_id", "number", "is_sample").iterator()
    Printing.objects.bulk_create(
        (
            Printing(
                code=f"{set_code}-{number:03d}",
                card_id=card_id,
                card_set_id=set_code,
                number=number,
                kind="first",
                is_sample=is_sample,
            )
            for card_id, set_code, number, is_sample in rows
        ),
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0008_scan_uploads"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Printing",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("code", models.CharField(editable=False, max_length=20, unique=True)),
                (
                    "number",
                    models.PositiveSmallIntegerField(
                        validators=[
                            django.core.validators.MinValueValidator(1),
                            django.core.validators.MaxValueValidator(999),
                        ]
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("first", "First print"),
                            ("reprint", "Reprint"),
                            ("promo", "Promo"),
                            ("parallel", "Parallel"),
                            ("foil", "Foil"),
                        ],
                        max_length=10,
                    ),
                ),
                ("label", models.CharField(blank=True, max_length=100)),
                ("notes", models.CharField(blank=True, max_length=300)),
                ("is_sample", models.BooleanField(default=False)),
                (
                    "card",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="printings",
                        to="catalog.card",
                    ),
                ),
                (
                    "card_set",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="printings",
                        to="catalog.cardset",
                    ),
                ),
            ],
            options={
                "ordering": ["card", "card_set__display_order", "number", "code"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("kind", "first")),
                        fields=("card",),
                        name="printing_one_first_per_card",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("kind__in", ["first", "reprint", "promo", "parallel", "foil"])
                        ),
                        name="printing_known_kind",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("number__gte", 1), ("number__lte", 999)),
                        name="printing_number_range",
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="cardscan",
            name="printing",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="scans",
                to="catalog.printing",
            ),
        ),
        migrations.CreateModel(
            name="PrintingProposal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField()),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("first", "First print"),
                            ("reprint", "Reprint"),
                            ("promo", "Promo"),
                            ("parallel", "Parallel"),
                            ("foil", "Foil"),
                        ],
                        max_length=10,
                    ),
                ),
                ("label", models.CharField(blank=True, max_length=100)),
                ("notes", models.CharField(blank=True, max_length=300)),
                ("source", models.CharField(max_length=200)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Pending review"),
                            ("accepted", "Accepted"),
                            ("rejected", "Rejected"),
                        ],
                        default="pending",
                        max_length=10,
                    ),
                ),
                ("reason", models.TextField(blank=True, max_length=2000)),
                ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                ("reviewed_at", models.DateTimeField(blank=True, null=True)),
                (
                    "card",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="printing_proposals",
                        to="catalog.card",
                    ),
                ),
                (
                    "card_set",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="catalog.cardset",
                    ),
                ),
                (
                    "printing",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="proposal",
                        to="catalog.printing",
                    ),
                ),
                (
                    "proposer",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="printing_proposals",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "reviewer",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="reviewed_printing_proposals",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-created_at", "-id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("status__in", ["pending", "accepted", "rejected"])),
                        name="printingproposal_known_status",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("status", "rejected"), _negated=True),
                            models.Q(("reason", ""), _negated=True),
                            _connector="OR",
                        ),
                        name="printingproposal_rejected_has_reason",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("kind__in", ["reprint", "promo", "parallel", "foil"])),
                        name="printingproposal_known_kind",
                    ),
                ],
            },
        ),
        migrations.RunPython(first_printings, migrations.RunPython.noop, elidable=False),
    ]
