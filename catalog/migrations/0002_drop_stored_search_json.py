"""Drop what the first history stored for the card list API, where a database still has it.

Migrations 0008 and 0009 of that history kept each card's and team's API JSON in columns
(`api_head`, `api_tail`, `Team.api_json`) and the number of cards in a one-row table
(`catalog_cardtotal`), all written by triggers. The card list is now serialized by
`CardSerializer` alone (catalog/api.py), so the triggers, their functions, the columns and
the table go. A database created from 0001 has none of them: every step here is "if exists".
"""

from django.db import migrations

POSTGRESQL = [
    "DROP TRIGGER IF EXISTS card_api_json ON catalog_card",
    "DROP TRIGGER IF EXISTS team_api_json ON catalog_team",
    "DROP TRIGGER IF EXISTS card_total_insert ON catalog_card",
    "DROP TRIGGER IF EXISTS card_total_delete ON catalog_card",
    "DROP TRIGGER IF EXISTS card_total_truncate ON catalog_card",
    "DROP FUNCTION IF EXISTS catalog_card_api_json()",
    "DROP FUNCTION IF EXISTS catalog_team_api_json()",
    "DROP FUNCTION IF EXISTS catalog_card_total()",
    "ALTER TABLE catalog_card DROP COLUMN IF EXISTS api_head",
    "ALTER TABLE catalog_card DROP COLUMN IF EXISTS api_tail",
    "ALTER TABLE catalog_team DROP COLUMN IF EXISTS api_json",
    "DROP TABLE IF EXISTS catalog_cardtotal",
]
SQLITE_TRIGGERS = [
    "card_api_json_insert",
    "card_api_json_update",
    "team_api_json_insert",
    "team_api_json_update",
    "card_total_insert",
    "card_total_delete",
]
COLUMNS = [("catalog_card", "api_head"), ("catalog_card", "api_tail"), ("catalog_team", "api_json")]


def drop(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for sql in POSTGRESQL:
                cursor.execute(sql)
            return
        # SQLite has no DROP COLUMN IF EXISTS: the table's columns say what is there.
        for trigger in SQLITE_TRIGGERS:
            cursor.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        for table, column in COLUMNS:
            present = connection.introspection.get_table_description(cursor, table)
            if column in {info.name for info in present}:
                cursor.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        cursor.execute("DROP TABLE IF EXISTS catalog_cardtotal")


class Migration(migrations.Migration):
    dependencies = [("catalog", "0001_squashed_0009_card_total")]

    operations = [migrations.RunPython(drop, migrations.RunPython.noop)]
