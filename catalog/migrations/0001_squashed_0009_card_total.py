"""The catalog's schema as one migration: sets, products, teams, cards, the catalog version,
and the contributions (proposals, revisions, scans), with PostgreSQL's search indexes.

It replaces the app's first history (0001-0009), so a database migrated with those is marked
as having this one, and a new database gets the same tables in one step. What that history
stored for the card list API and later dropped (card JSON columns, a card total, their
triggers) is not created here; 0002 removes it from databases that have it.
"""

import catalog.models
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# PostgreSQL's search indexes for card names (SQLite searches without them):
# - a trigram GIN index on `search_text` serves substring queries of 3+ characters (pg_trgm;
#   Japanese needs a UTF-8 ctype, which the database is created with);
# - a GIN index on `search_grams` (every 1- and 2-character substring) serves the 1-2
#   character queries trigrams cannot, common for Japanese names (「鈴木」, 「健」).
# fastupdate is off: the catalog changes rarely and in bulk, and rows waiting in a GIN pending
# list are invisible to the planner's choice of index until autovacuum merges them.
SEARCH_INDEXES = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS card_search_trgm ON catalog_card "
    "USING gin (search_text gin_trgm_ops) WITH (fastupdate = off)",
    "CREATE INDEX IF NOT EXISTS card_search_grams ON catalog_card "
    "USING gin (search_grams jsonb_path_ops) WITH (fastupdate = off)",
]
DROP_SEARCH_INDEXES = [
    "DROP INDEX IF EXISTS card_search_grams",
    "DROP INDEX IF EXISTS card_search_trgm",
]


def _on_postgresql(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        with schema_editor.connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)

    return run


search_indexes = _on_postgresql(SEARCH_INDEXES)
drop_search_indexes = _on_postgresql(DROP_SEARCH_INDEXES)


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ("catalog", "0001_initial"),
        ("catalog", "0002_search_indexes"),
        ("catalog", "0003_gin_fastupdate_off"),
        ("catalog", "0004_catalog_state"),
        ("catalog", "0005_card_name_kana"),
        ("catalog", "0005_contributions_revisions_scans"),
        ("catalog", "0006_merge_name_kana_and_contributions"),
        ("catalog", "0007_card_catalog_order_and_stats_index"),
        ("catalog", "0008_card_api_json"),
        ("catalog", "0009_card_total"),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CardSet',
            fields=[
                ('code', models.CharField(max_length=4, primary_key=True, serialize=False)),
                ('name', models.CharField(max_length=100)),
                ('name_ja', models.CharField(max_length=100)),
                ('released', models.DateField(help_text='First day of the release month.')),
                ('kind', models.CharField(choices=[('prebuilt', 'Championship deck (prebuilt)'), ('expansion', 'Expansion')], max_length=10)),
                ('kinds_count', models.PositiveSmallIntegerField(help_text='Number of card kinds (expansions) or of prebuilt decks (championship decks).')),
                ('display_order', models.PositiveSmallIntegerField(unique=True)),
            ],
            options={
                'ordering': ['display_order'],
            },
        ),
        migrations.CreateModel(
            name='Team',
            fields=[
                ('code', models.SlugField(max_length=40, primary_key=True, serialize=False)),
                ('name', models.CharField(max_length=100)),
                ('name_ja', models.CharField(max_length=100)),
                ('is_national', models.BooleanField(default=False)),
            ],
            options={
                'ordering': ['is_national', 'name'],
            },
        ),
        migrations.CreateModel(
            name='CardProposal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('card_id', models.CharField(db_index=True, max_length=10)),
                ('data', models.JSONField()),
                ('source', models.CharField(max_length=200, verbose_name='source')),
                ('note', models.TextField(blank=True, max_length=2000, verbose_name='note')),
                ('status', models.CharField(choices=[('pending', 'Pending review'), ('accepted', 'Accepted'), ('rejected', 'Rejected'), ('changes', 'Changes requested')], default='pending', max_length=10)),
                ('reason', models.TextField(blank=True, max_length=2000, verbose_name='reason')),
                ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('reviewed_at', models.DateTimeField(blank=True, null=True)),
                ('proposer', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='card_proposals', to=settings.AUTH_USER_MODEL)),
                ('reviewer', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='reviewed_card_proposals', to=settings.AUTH_USER_MODEL)),
                ('card_set', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='proposals', to='catalog.cardset')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'permissions': [('review_proposal', 'Can review card proposals (editor)'), ('apply_own_proposal', 'Can apply own card proposals at once (trusted editor)')],
            },
        ),
        migrations.CreateModel(
            name='CatalogState',
            fields=[
                ('id', models.PositiveSmallIntegerField(default=1, editable=False, primary_key=True, serialize=False)),
                ('version', models.UUIDField()),
            ],
            options={
                'constraints': [models.CheckConstraint(condition=models.Q(('id', 1)), name='catalogstate_single_row')],
            },
        ),
        migrations.CreateModel(
            name='Product',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('prebuilt_starter', 'Prebuilt starter'), ('starter', 'Starter'), ('booster', 'Booster')], max_length=20)),
                ('cards_per_product', models.PositiveSmallIntegerField()),
                ('price_yen', models.PositiveIntegerField()),
                ('notes', models.CharField(blank=True, max_length=200)),
                ('card_set', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='products', to='catalog.cardset')),
            ],
            options={
                'ordering': ['card_set__display_order', 'id'],
            },
        ),
        migrations.CreateModel(
            name='Card',
            fields=[
                ('id', models.CharField(max_length=10, primary_key=True, serialize=False)),
                ('number', models.PositiveSmallIntegerField()),
                ('name', models.CharField(max_length=100)),
                ('name_ja', models.CharField(blank=True, max_length=100)),
                ('name_kana', models.CharField(blank=True, help_text='Reading of the Japanese name, in kana (searchable).', max_length=100)),
                ('kind', models.CharField(choices=[('player', 'Player'), ('goalkeeper', 'Goalkeeper'), ('event', 'Event')], max_length=10)),
                ('position', models.CharField(blank=True, choices=[('FW', 'FW'), ('MF', 'MF'), ('DF', 'DF'), ('GK', 'GK')], max_length=2)),
                ('person', models.CharField(blank=True, help_text='R-DECK-3: the same person in two sets is one person.', max_length=100)),
                ('shoot', models.SmallIntegerField(default=0)),
                ('keep', models.SmallIntegerField(default=0)),
                ('defense', models.SmallIntegerField(default=0)),
                ('effect', models.CharField(blank=True, max_length=200)),
                ('rarity', models.CharField(blank=True, max_length=10)),
                ('is_sample', models.BooleanField(default=False)),
                ('source', models.CharField(blank=True, max_length=200)),
                ('search_text', models.TextField(default='', editable=False)),
                ('search_grams', models.JSONField(default=list, editable=False)),
                ('catalog_order', models.PositiveIntegerField(default=0, editable=False)),
                ('card_set', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cards', to='catalog.cardset')),
                ('team', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='cards', to='catalog.team')),
            ],
            options={
                'ordering': ['card_set__display_order', 'number'],
            },
        ),
        migrations.CreateModel(
            name='CardRevision',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('source', models.CharField(blank=True, max_length=200)),
                ('data', models.JSONField()),
                ('accepted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('card', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='revisions', to='catalog.card')),
                ('proposal', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='revision', to='catalog.cardproposal')),
                ('proposed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['card', '-number'],
                'constraints': [models.UniqueConstraint(fields=('card', 'number'), name='revision_unique_number'), models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='revision_number_min')],
            },
        ),
        migrations.CreateModel(
            name='CardScan',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token', models.CharField(max_length=32, unique=True)),
                ('side', models.CharField(choices=[('front', 'Front'), ('back', 'Back')], max_length=5)),
                ('width', models.PositiveIntegerField()),
                ('height', models.PositiveIntegerField()),
                ('thumbnail', models.ImageField(max_length=200, upload_to=catalog.models.scan_path)),
                ('normal', models.ImageField(max_length=200, upload_to=catalog.models.scan_path)),
                ('large', models.ImageField(max_length=200, upload_to=catalog.models.scan_path)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('card', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='scans', to='catalog.card')),
                ('proposal', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='scans', to='catalog.cardproposal')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('side__in', ['front', 'back'])), name='scan_known_side'), models.CheckConstraint(condition=models.Q(('proposal__isnull', False), ('card__isnull', False), _connector='OR'), name='scan_belongs_somewhere')],
            },
        ),
        migrations.AddIndex(
            model_name='cardproposal',
            index=models.Index(fields=['status', 'card_id'], name='proposal_status_card'),
        ),
        migrations.AddConstraint(
            model_name='cardproposal',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['pending', 'accepted', 'rejected', 'changes'])), name='proposal_known_status'),
        ),
        migrations.AddConstraint(
            model_name='cardproposal',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status__in', ['rejected', 'changes']), _negated=True), models.Q(('reason', ''), _negated=True), _connector='OR'), name='proposal_refusal_has_reason'),
        ),
        migrations.AddConstraint(
            model_name='cardproposal',
            constraint=models.CheckConstraint(condition=models.Q(('status', 'pending'), ('reviewed_at__isnull', False), _connector='OR'), name='proposal_review_has_time'),
        ),
        migrations.AddConstraint(
            model_name='cardproposal',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1), ('number__lte', 999)), name='proposal_number_range'),
        ),
        migrations.AddConstraint(
            model_name='cardproposal',
            constraint=models.CheckConstraint(condition=models.Q(('source', ''), _negated=True), name='proposal_has_source'),
        ),
        migrations.AddConstraint(
            model_name='product',
            constraint=models.UniqueConstraint(fields=('card_set', 'kind'), name='product_unique_kind_per_set'),
        ),
        migrations.AddIndex(
            model_name='card',
            index=models.Index(fields=['kind', 'position', 'shoot', 'keep', 'defense'], name='card_kind_pos_stats'),
        ),
        migrations.AddIndex(
            model_name='card',
            index=models.Index(fields=['person'], name='card_person'),
        ),
        migrations.AddIndex(
            model_name='card',
            index=models.Index(fields=['catalog_order'], name='card_catalog_order'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.UniqueConstraint(fields=('card_set', 'number'), name='card_unique_set_number'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(('shoot__gte', 0), ('keep__gte', 0), ('defense__gte', 0)), name='card_stats_non_negative'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1), ('number__lte', 999)), name='card_number_range'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'goalkeeper'), ('position', 'GK')), models.Q(models.Q(('kind', 'goalkeeper'), _negated=True), models.Q(('position', 'GK'), _negated=True)), _connector='OR'), name='card_goalkeeper_iff_gk'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'player'), _negated=True), ('position__in', ['FW', 'MF', 'DF']), _connector='OR'), name='card_player_has_field_position'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'event'), _negated=True), models.Q(('position', ''), ('shoot', 0), ('keep', 0), ('defense', 0)), _connector='OR'), name='card_event_has_no_position_or_stats'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(('kind', 'event'), ('effect', ''), _connector='OR'), name='card_only_events_have_effects'),
        ),
        migrations.AddConstraint(
            model_name='card',
            constraint=models.CheckConstraint(condition=models.Q(('kind', 'event'), models.Q(('person', ''), _negated=True), _connector='OR'), name='card_player_has_person'),
        ),
        migrations.RunPython(search_indexes, drop_search_indexes),
    ]

