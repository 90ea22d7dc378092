"""Each app's migrations are one line of history, and they describe the models as they are."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.db.migrations.loader import MigrationLoader

APPS = ("catalog", "decks", "play")


@pytest.mark.parametrize("app", APPS)
def test_each_app_has_one_leaf_and_a_linear_history(app):
    loader = MigrationLoader(None, ignore_no_migrations=True)
    graph = loader.graph
    assert len(graph.leaf_nodes(app)) == 1, graph.leaf_nodes(app)
    for key in graph.nodes:
        if key[0] != app:
            continue
        parents_in_app = [parent for parent in graph.node_map[key].parents if parent.key[0] == app]
        children_in_app = [child for child in graph.node_map[key].children if child.key[0] == app]
        assert len(parents_in_app) <= 1 and len(children_in_app) <= 1, key


@pytest.mark.django_db
def test_the_models_need_no_new_migration():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:  # --check exits 1 when a migration would be written
        pytest.fail("the models changed without a migration:\n" + out.getvalue())
