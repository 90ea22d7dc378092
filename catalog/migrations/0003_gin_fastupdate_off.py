"""Turn off GIN fastupdate on the search indexes (PostgreSQL only).

With fastupdate on, rows loaded after the indexes were created sit in an unsorted pending list
until autovacuum merges it, and the planner uses neither index meanwhile. The catalog changes
rarely and in bulk, so immediate index maintenance is the better trade (docs/performance.md).
"""

from django.db import migrations

FORWARD = [
    "ALTER INDEX IF EXISTS card_search_trgm SET (fastupdate = off)",
    "ALTER INDEX IF EXISTS card_search_grams SET (fastupdate = off)",
    "SELECT gin_clean_pending_list('card_search_trgm'::regclass)",
    "SELECT gin_clean_pending_list('card_search_grams'::regclass)",
]
BACKWARD = [
    "ALTER INDEX IF EXISTS card_search_trgm SET (fastupdate = on)",
    "ALTER INDEX IF EXISTS card_search_grams SET (fastupdate = on)",
]


def run(statements):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        with schema_editor.connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)

    return apply


class Migration(migrations.Migration):
    dependencies = [("catalog", "0002_search_indexes")]
    operations = [migrations.RunPython(run(FORWARD), run(BACKWARD))]
