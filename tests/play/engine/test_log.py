"""The bundled log schema and log validation; the engine's independence from Django."""

import json
import re
from pathlib import Path

import pytest

import play.engine
from play.engine.log import LOG_SCHEMA_PATH, LogInvalid, log_errors, validate_log
from play.engine.runner import play_match
from play.engine.testing import sample_side_deck

REPO = Path(__file__).resolve().parents[3]
SHARED_SCHEMA = REPO / ".." / "shared" / "spec" / "match-log.schema.json"


def test_the_bundled_schema_is_a_byte_copy_of_the_shared_one():
    if not SHARED_SCHEMA.exists():
        pytest.skip("the shared spec folder is not beside this checkout")
    assert LOG_SCHEMA_PATH.read_bytes() == SHARED_SCHEMA.read_bytes()


def test_a_played_match_log_validates():
    outcome = play_match(
        sample_side_deck(1), sample_side_deck(2), policy_a="greedy", policy_b="random", seed=3
    )
    validate_log(outcome.log)
    assert log_errors(outcome.log) == []
    json.dumps(outcome.log)  # plain JSON data


def test_a_broken_log_is_reported():
    outcome = play_match(
        sample_side_deck(1), sample_side_deck(2), policy_a="greedy", policy_b="random", seed=3
    )
    outcome.log["events"][1]["offense"] = "C"
    del outcome.log["result"]
    with pytest.raises(LogInvalid, match="events/1/offense"):
        validate_log(outcome.log)
    assert any("result" in line for line in log_errors(outcome.log))


def test_nothing_under_play_engine_imports_django_or_another_app():
    root = Path(play.engine.__file__).parent
    sources = list(root.rglob("*.py"))
    assert sources
    pattern = re.compile(
        r"^\s*(import|from)\s+(django|rest_framework|celery|catalog|decks|cardsite)\b"
        r"|^\s*(import|from)\s+play\.(?!engine\b)",
        re.MULTILINE,
    )
    for source in sources:
        assert not pattern.search(source.read_text(encoding="utf-8")), source
