"""CardTotal: the number of cards, kept exact by triggers, so the unfiltered list needs no COUNT.

PostgreSQL: statement-level triggers with transition tables (one UPDATE per statement, so a
bulk insert of 7,000 cards changes the row once) and one for TRUNCATE. SQLite: row triggers.
Both put a missing row back with a recount, so the row is right after any write even when
something emptied the table (Django's flush truncates every table).
"""

from django.db import migrations, models

# No row when it is there (not an aggregate at the top, which always gives one row).
_RECOUNT = (
    "INSERT INTO catalog_cardtotal (id, cards) SELECT 1, (SELECT COUNT(*) FROM catalog_card) "
    "WHERE NOT EXISTS (SELECT 1 FROM catalog_cardtotal WHERE id = 1)"
)
POSTGRESQL = f"""
CREATE FUNCTION catalog_card_total() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta bigint;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        UPDATE catalog_cardtotal SET cards = 0 WHERE id = 1;
        RETURN NULL;
    ELSIF TG_OP = 'INSERT' THEN
        SELECT COUNT(*) INTO delta FROM card_total_added;
    ELSE
        SELECT -COUNT(*) INTO delta FROM card_total_removed;
    END IF;
    IF delta <> 0 THEN
        UPDATE catalog_cardtotal SET cards = cards + delta WHERE id = 1;
        IF NOT FOUND THEN
            {_RECOUNT} ON CONFLICT (id) DO NOTHING;
        END IF;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER card_total_insert AFTER INSERT ON catalog_card
    REFERENCING NEW TABLE AS card_total_added
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_card_total();
CREATE TRIGGER card_total_delete AFTER DELETE ON catalog_card
    REFERENCING OLD TABLE AS card_total_removed
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_card_total();
CREATE TRIGGER card_total_truncate AFTER TRUNCATE ON catalog_card
    FOR EACH STATEMENT EXECUTE FUNCTION catalog_card_total();
{_RECOUNT};
"""
POSTGRESQL_DROP = """
DROP TRIGGER IF EXISTS card_total_insert ON catalog_card;
DROP TRIGGER IF EXISTS card_total_delete ON catalog_card;
DROP TRIGGER IF EXISTS card_total_truncate ON catalog_card;
DROP FUNCTION IF EXISTS catalog_card_total();
"""
# Row triggers: the UPDATE changes the row when it is there; when it is not, the INSERT
# recounts (the count already includes, or no longer includes, this row).
SQLITE = [
    "CREATE TRIGGER card_total_insert AFTER INSERT ON catalog_card BEGIN "
    f"UPDATE catalog_cardtotal SET cards = cards + 1 WHERE id = 1; {_RECOUNT}; END",
    "CREATE TRIGGER card_total_delete AFTER DELETE ON catalog_card BEGIN "
    f"UPDATE catalog_cardtotal SET cards = cards - 1 WHERE id = 1; {_RECOUNT}; END",
    _RECOUNT,
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS card_total_insert",
    "DROP TRIGGER IF EXISTS card_total_delete",
]


def forwards(apps, schema_editor):
    statements = POSTGRESQL if schema_editor.connection.vendor == "postgresql" else SQLITE
    for sql in [statements] if isinstance(statements, str) else statements:
        schema_editor.execute(sql)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for sql in [POSTGRESQL_DROP] if vendor == "postgresql" else SQLITE_DROP:
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0008_card_api_json")]

    operations = [
        migrations.CreateModel(
            name="CardTotal",
            fields=[
                (
                    "id",
                    models.PositiveSmallIntegerField(
                        default=1, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("cards", models.PositiveIntegerField(default=0, editable=False)),
            ],
        ),
        migrations.RunPython(forwards, backwards),
    ]
