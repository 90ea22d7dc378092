"""PostgreSQL search indexes for card names (skipped on SQLite).

- A trigram GIN index on `search_text` serves substring queries of 3+ characters (pg_trgm;
  Japanese needs a UTF-8 ctype, which the database is created with).
- A GIN index on `search_grams` (every 1- and 2-character substring) serves the 1–2 character
  queries that trigrams cannot: common for Japanese names (「鈴木」, 「健」).
See docs/performance.md for the EXPLAIN ANALYZE.
"""

from django.db import migrations

FORWARD = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS card_search_trgm ON catalog_card "
    "USING gin (search_text gin_trgm_ops)",
    "CREATE INDEX IF NOT EXISTS card_search_grams ON catalog_card "
    "USING gin (search_grams jsonb_path_ops)",
]
BACKWARD = [
    "DROP INDEX IF EXISTS card_search_grams",
    "DROP INDEX IF EXISTS card_search_trgm",
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
    dependencies = [("catalog", "0001_initial")]
    operations = [migrations.RunPython(run(FORWARD), run(BACKWARD))]
