"""The import direction of /work/shared/ARCHITECTURE.md, checked on the source.

cardsite/ is wiring only (settings, root URLconf, Celery app): the apps never import it. The
shared API pieces (error shape, throttles, the bounded JSON reader, the tolerant cache) live
in catalog/, the lowest room the others may import. catalog/ imports neither decks/ nor play/
(only the engine's pure effect vocabulary);
decks/ imports play/ only for the pure legality function of the engine.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def imports_of(room: str) -> dict[str, set[str]]:
    return {
        str(path.relative_to(ROOT)): imported_modules(path)
        for path in sorted((ROOT / room).rglob("*.py"))
        if "migrations" not in path.parts
    }


def offenders(room: str, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list:
    return [
        (path, name)
        for path, names in imports_of(room).items()
        for name in sorted(names)
        if name.split(".")[0] in forbidden and not name.startswith(allowed)
    ]


@pytest.mark.parametrize("room", ["catalog", "decks", "play"])
def test_no_app_imports_the_wiring_package(room):
    assert offenders(room, ("cardsite",)) == []


def test_catalog_imports_neither_decks_nor_play_but_the_engines_effect_vocabulary():
    assert offenders("catalog", ("decks", "play"), allowed=("play.engine",)) == []


def test_decks_imports_from_play_only_the_pure_engine():
    assert offenders("decks", ("play",), allowed=("play.engine",)) == []


def test_the_engines_import_no_django_and_no_app():
    forbidden = ("django", "rest_framework", "catalog", "decks", "cardsite", "celery")
    assert offenders("play/engine", forbidden) == []
    assert offenders("play/touchdown", forbidden) == []
