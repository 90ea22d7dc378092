"""Card.catalog_order: set display order and number as one indexed sort key; the kind and
position index also holds the stats, so counts of stat filters are index-only scans."""

from django.db import migrations, models
from django.db.models import F


def fill(apps, schema_editor):
    CardSet = apps.get_model("catalog", "CardSet")
    Card = apps.get_model("catalog", "Card")
    for code, display_order in CardSet.objects.values_list("code", "display_order"):
        Card.objects.filter(card_set_id=code).update(
            catalog_order=F("number") + display_order * 1000
        )


class Migration(migrations.Migration):
    dependencies = [("catalog", "0006_merge_name_kana_and_contributions")]

    operations = [
        migrations.AddField(
            model_name="card",
            name="catalog_order",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="card",
            index=models.Index(fields=["catalog_order"], name="card_catalog_order"),
        ),
        migrations.RemoveIndex(model_name="card", name="card_kind_position"),
        migrations.AddIndex(
            model_name="card",
            index=models.Index(
                fields=["kind", "position", "shoot", "keep", "defense"], name="card_kind_pos_stats"
            ),
        ),
    ]
