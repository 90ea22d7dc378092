"""Collections per printing (issue #24 item 4): every existing row moves onto its card's first
printing (made by catalog 0006), keeping its quantity, trade marks, condition and language.
Two new grades (excellent, good) join the condition ladder; no existing value changes."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def onto_first_printings(apps, schema_editor):
    CollectionEntry = apps.get_model("decks", "CollectionEntry")
    Printing = apps.get_model("catalog", "Printing")
    first = Printing.objects.filter(kind="first", card_id=models.OuterRef("card_id"))
    CollectionEntry.objects.update(printing_id=models.Subquery(first.values("id")[:1]))
    if schema_editor.connection.vendor == "postgresql":
        # Fire the deferred foreign-key checks now, so the ALTER TABLE below may run.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0009_printings"),
        ("decks", "0002_catalog_changes_seen"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="collectionentry",
            options={"ordering": ["owner", "card", "printing", "condition", "language"]},
        ),
        migrations.RemoveConstraint(
            model_name="collectionentry",
            name="collectionentry_one_row",
        ),
        migrations.RemoveConstraint(
            model_name="collectionentry",
            name="collectionentry_known_condition",
        ),
        migrations.AddField(
            model_name="collectionentry",
            name="printing",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="collection_entries",
                to="catalog.printing",
            ),
        ),
        migrations.RunPython(onto_first_printings, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="collectionentry",
            name="printing",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="collection_entries",
                to="catalog.printing",
            ),
        ),
        migrations.AlterField(
            model_name="collectionentry",
            name="condition",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Not recorded"),
                    ("mint", "Mint"),
                    ("near_mint", "Near mint"),
                    ("excellent", "Excellent"),
                    ("good", "Good"),
                    ("played", "Played"),
                    ("damaged", "Damaged"),
                ],
                default="",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="collectionentry",
            constraint=models.UniqueConstraint(
                fields=("owner", "printing", "condition", "language"),
                name="collectionentry_one_row_per_printing",
            ),
        ),
        migrations.AddConstraint(
            model_name="collectionentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "condition__in",
                        ["", "mint", "near_mint", "excellent", "good", "played", "damaged"],
                    )
                ),
                name="collectionentry_known_condition",
            ),
        ),
    ]
