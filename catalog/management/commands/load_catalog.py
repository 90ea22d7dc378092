from django.core.management.base import BaseCommand

from catalog.services import catalog_load


class Command(BaseCommand):
    help = "Load the sets, products, clubs and the SAMPLE card pool (idempotent)."

    def handle(self, *args, **options):
        report = catalog_load()
        self.stdout.write(
            f"Catalog: {report.metadata_changes} set/product/team rows written; "
            f"sample cards: {report.cards}."
        )
        if report.skipped_sets:
            self.stdout.write(
                "Sets holding imported cards kept as they are: " + ", ".join(report.skipped_sets)
            )
