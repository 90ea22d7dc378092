"""Write paths of the catalog: loading the real metadata and the sample pool."""

from dataclasses import dataclass

from django.db import transaction
from django.dispatch import Signal

from catalog import data, sample
from catalog.importer import ImportReport, import_rows
from catalog.models import Card, CardSet, Product, Team

# Sent after `catalog_load`; decks/ listens to create the sample prebuilt decks
# (the catalog knows nothing of decks: ARCHITECTURE.md).
catalog_loaded = Signal()


@dataclass
class LoadReport:
    metadata_changes: int
    cards: ImportReport
    skipped_sets: list[str]


def _upsert(model, key: dict, values: dict) -> int:
    """Create or update one row; return 1 if anything was written, else 0."""
    obj = model.objects.filter(**key).first()
    if obj is None:
        model.objects.create(**key, **values)
        return 1
    if all(getattr(obj, name) == value for name, value in values.items()):
        return 0
    for name, value in values.items():
        setattr(obj, name, value)
    obj.save()
    return 1


def catalog_load() -> LoadReport:
    """Load sets, products, teams and the sample pool; running it twice changes nothing.

    Sample cards are not loaded into a set that already holds imported (non-sample) cards, so
    a real card list imported with --replace-sample stays as it is.
    """
    changes = 0
    with transaction.atomic():
        for info in data.SETS:
            changes += _upsert(
                CardSet,
                {"code": info.code},
                {
                    "name": info.name,
                    "name_ja": info.name_ja,
                    "released": info.released,
                    "kind": info.kind,
                    "kinds_count": info.kinds_count,
                    "display_order": info.display_order,
                },
            )
        for info in data.PRODUCTS:
            changes += _upsert(
                Product,
                {"card_set_id": info.set_code, "kind": info.kind},
                {
                    "cards_per_product": info.cards_per_product,
                    "price_yen": info.price_yen,
                    "notes": info.notes,
                },
            )
        for info in data.TEAMS:
            changes += _upsert(
                Team,
                {"code": info.code},
                {"name": info.name, "name_ja": info.name_ja, "is_national": info.is_national},
            )
        real_sets = set(
            Card.objects.filter(is_sample=False).values_list("card_set_id", flat=True).distinct()
        )
        pool = sample.generate()
        rows = [
            (index, card.as_row())
            for index, card in enumerate(pool.cards, start=1)
            if card.set_code not in real_sets
        ]
        for _, row in rows:
            row["set"] = row.pop("set_code")
        report = import_rows(rows, default_sample=True)
    catalog_loaded.send(sender=catalog_load, pool=pool, skipped_sets=sorted(real_sets))
    return LoadReport(changes, report, sorted(real_sets))
