"""Card.api_head / api_tail, Team.api_json: the card list API's JSON, stored.

A search page was 50 JSON objects built per request (json_build_object of 19 fields), most
of PostgreSQL's share of an uncached search (docs/performance.md). The card's own part is now
stored around its team and the team's object on the team (joined per request, so a renamed
team needs no card rewritten). Triggers write the columns on every insert and update,
whatever the path (save, bulk writes, QuerySet.update, raw SQL), so they cannot go stale;
`head + team + tail` is the card exactly as CardSerializer shows it, `effect_text` still the
clause (catalog.api puts the words in).
"""

from django.db import migrations, models

_FIELDS_HEAD = (
    "'id', NEW.id, 'name', NEW.name, 'name_ja', NEW.name_ja, 'name_kana', NEW.name_kana, "
    "'set', NEW.card_set_id, 'number', NEW.number, 'kind', NEW.kind, "
    "'position', NULLIF(NEW.position, ''), 'person', NULLIF(NEW.person, '')"
)
_FIELDS_TAIL = (
    "'shoot', NEW.shoot, 'keep', NEW.keep, 'defense', NEW.defense, "
    "'effect', NULLIF(NEW.effect, ''), 'effect_text', NULLIF(NEW.effect, ''), "
    "'rarity', NEW.rarity, 'is_sample', {sample}, "
    "'status', CASE WHEN NEW.is_sample THEN 'sample' ELSE 'real' END, 'source', NEW.source"
)


def _pg_json(*pairs: tuple[str, str]) -> str:
    """Return SQL writing `"key":value,…` compactly (as DRF renders JSON); to_json quotes."""
    return " || ',' || ".join(f"'\"{key}\":' || {value}" for key, value in pairs)


def _text(column: str, *, blank_is_null: bool = False) -> str:
    value = f"NULLIF(NEW.{column}, '')" if blank_is_null else f"NEW.{column}"
    return f"COALESCE(to_json({value})::text, 'null')"


_PG_HEAD = _pg_json(
    ("id", _text("id")),
    ("name", _text("name")),
    ("name_ja", _text("name_ja")),
    ("name_kana", _text("name_kana")),
    ("set", _text("card_set_id")),
    ("number", "NEW.number::text"),
    ("kind", _text("kind")),
    ("position", _text("position", blank_is_null=True)),
    ("person", _text("person", blank_is_null=True)),
)
_PG_TAIL = _pg_json(
    ("shoot", "NEW.shoot::text"),
    ("keep", "NEW.keep::text"),
    ("defense", "NEW.defense::text"),
    ("effect", _text("effect", blank_is_null=True)),
    ("effect_text", _text("effect", blank_is_null=True)),
    ("rarity", _text("rarity")),
    ("is_sample", "CASE WHEN NEW.is_sample THEN 'true' ELSE 'false' END"),
    ("status", "CASE WHEN NEW.is_sample THEN '\"sample\"' ELSE '\"real\"' END"),
    ("source", _text("source")),
)
_PG_TEAM = _pg_json(("code", _text("code")), ("name", _text("name")), ("name_ja", _text("name_ja")))
# The write, not the read, pays for the JSON, so it is written compactly here.
POSTGRESQL = f"""
CREATE FUNCTION catalog_card_api_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.api_head := '{{' || {_PG_HEAD} || ',"team":';
    NEW.api_tail := ',' || {_PG_TAIL} || '}}';
    RETURN NEW;
END
$$;
CREATE TRIGGER card_api_json BEFORE INSERT OR UPDATE ON catalog_card
    FOR EACH ROW EXECUTE FUNCTION catalog_card_api_json();
CREATE FUNCTION catalog_team_api_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.api_json := '{{' || {_PG_TEAM} || '}}';
    RETURN NEW;
END
$$;
CREATE TRIGGER team_api_json BEFORE INSERT OR UPDATE ON catalog_team
    FOR EACH ROW EXECUTE FUNCTION catalog_team_api_json();
UPDATE catalog_card SET api_head = '';
UPDATE catalog_team SET api_json = '';
"""
POSTGRESQL_DROP = """
DROP TRIGGER IF EXISTS card_api_json ON catalog_card;
DROP FUNCTION IF EXISTS catalog_card_api_json();
DROP TRIGGER IF EXISTS team_api_json ON catalog_team;
DROP FUNCTION IF EXISTS catalog_team_api_json();
"""

_SQLITE_SET = (
    "UPDATE catalog_card SET "
    f"api_head = substr(json_object({_FIELDS_HEAD}), 1, "
    f"length(json_object({_FIELDS_HEAD})) - 1) || ',\"team\":', "
    "api_tail = ',' || substr(json_object("
    + _FIELDS_TAIL.format(sample="CASE WHEN NEW.is_sample THEN json('true') ELSE json('false') END")
    + "), 2) WHERE id = NEW.id;"
)
_SQLITE_TEAM = (
    "UPDATE catalog_team SET api_json = json_object('code', NEW.code, 'name', NEW.name, "
    "'name_ja', NEW.name_ja) WHERE code = NEW.code;"
)
# SQLite triggers cannot change NEW; an AFTER trigger updates the row (recursive triggers are
# off, so that update does not fire the update trigger again).
SQLITE = [
    f"CREATE TRIGGER card_api_json_insert AFTER INSERT ON catalog_card BEGIN {_SQLITE_SET} END",
    f"CREATE TRIGGER card_api_json_update AFTER UPDATE ON catalog_card BEGIN {_SQLITE_SET} END",
    f"CREATE TRIGGER team_api_json_insert AFTER INSERT ON catalog_team BEGIN {_SQLITE_TEAM} END",
    f"CREATE TRIGGER team_api_json_update AFTER UPDATE ON catalog_team BEGIN {_SQLITE_TEAM} END",
    "UPDATE catalog_card SET api_head = ''",
    "UPDATE catalog_team SET api_json = ''",
]
SQLITE_DROP = [
    f"DROP TRIGGER IF EXISTS {table}_api_json_{event}"
    for table in ("card", "team")
    for event in ("insert", "update")
]


def forwards(apps, schema_editor):
    statements = POSTGRESQL if schema_editor.connection.vendor == "postgresql" else SQLITE
    if isinstance(statements, str):
        statements = [statements]
    for sql in statements:
        schema_editor.execute(sql)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for sql in [POSTGRESQL_DROP] if vendor == "postgresql" else SQLITE_DROP:
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("catalog", "0007_card_catalog_order_and_stats_index")]

    operations = [
        migrations.AddField(
            model_name="card",
            name="api_head",
            field=models.TextField(default="", editable=False),
        ),
        migrations.AddField(
            model_name="card",
            name="api_tail",
            field=models.TextField(default="", editable=False),
        ),
        migrations.AddField(
            model_name="team",
            name="api_json",
            field=models.TextField(default="", editable=False),
        ),
        migrations.RunPython(forwards, backwards),
    ]
