"""Match-log validation against the bundled copy of the shared JSON Schema.

Checking a whole log against the schema's `anyOf` of event shapes is slow (each event is tried
against every shape), so `log_errors` checks each event against the one shape its `type` names,
and falls back to the full `anyOf` for an event of no known type. Every shape requires its own
`type` constant, so this finds exactly the errors the full schema would; a test compares the two.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path

import jsonschema

LOG_SCHEMA_PATH = Path(__file__).with_name("match-log.schema.json")


@lru_cache(maxsize=1)
def log_schema() -> dict:
    """Return the match-log schema."""
    schema = json.loads(LOG_SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


@lru_cache(maxsize=1)
def log_validator() -> jsonschema.Draft202012Validator:
    """Return a validator for the full schema (slow on long logs; see the module docstring)."""
    return jsonschema.Draft202012Validator(log_schema())


@lru_cache(maxsize=1)
def _split_validators() -> tuple[jsonschema.Draft202012Validator, dict, object]:
    schema = log_schema()
    shell = copy.deepcopy(schema)
    shell["properties"]["events"]["items"] = True
    by_type = {}
    for shape in schema["$defs"]["event"]["anyOf"]:
        variants = shape.get("oneOf", [shape])
        kind = variants[0]["properties"]["type"]["const"]
        by_type[kind] = jsonschema.Draft202012Validator({**shape, "$defs": schema["$defs"]})
    any_event = jsonschema.Draft202012Validator({"$ref": "#/$defs/event", "$defs": schema["$defs"]})
    return jsonschema.Draft202012Validator(shell), by_type, any_event


def log_errors(log: dict) -> list[str]:
    """Return every schema violation in the log, as readable lines (empty when valid)."""
    shell, by_type, any_event = _split_validators()
    errors = [_line(error.absolute_path, error.message) for error in shell.iter_errors(log)]
    events = log.get("events") if isinstance(log, dict) else None
    if isinstance(events, list):
        for index, event in enumerate(events):
            kind = event.get("type") if isinstance(event, dict) else None
            validator = by_type.get(kind, any_event) if isinstance(kind, str) else any_event
            for error in validator.iter_errors(event):
                errors.append(_line(["events", index, *error.absolute_path], error.message))
    return errors


def validate_log(log: dict) -> None:
    """Raise ValueError listing the schema violations if the log does not match the schema."""
    errors = log_errors(log)
    if errors:
        raise LogInvalid(errors)


class LogInvalid(ValueError):
    """A log that does not match the schema; `errors` lists every violation."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = errors
        shown = "; ".join(errors[:5]) + (
            f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        )
        super().__init__(f"The match log does not match the schema: {shown}")


def _line(path, message: str) -> str:
    return f"{'/'.join(str(p) for p in path) or '(top)'}: {message}"
