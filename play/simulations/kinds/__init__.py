"""The registry of batch kinds: every module of this package registers one kind, once.

Services, the API, forms, settings and templates look a kind up here instead of branching on
its name. Adding a kind is one module here (and its test); see `base.BatchKind`.
"""

from __future__ import annotations

import importlib
import pkgutil

from play.simulations.kinds.base import BatchKind

_KINDS: dict[str, BatchKind] = {}


def register(kind: BatchKind) -> BatchKind:
    """Add a kind to the registry; a second kind with the same key is a programming error."""
    if kind.key in _KINDS:
        raise ValueError(f"Batch kind {kind.key!r} is registered twice.")
    _KINDS[kind.key] = kind
    return kind


def unregister(key: str) -> None:
    """Remove a kind (tests that register a throwaway kind clean up with this)."""
    _KINDS.pop(key, None)


def get(key: str) -> BatchKind | None:
    """Return the kind with this key, or None."""
    return _KINDS.get(key)


def all_kinds() -> list[BatchKind]:
    """Return every registered kind, in display order."""
    return sorted(_KINDS.values(), key=lambda kind: (kind.order, kind.key))


def keys() -> tuple[str, ...]:
    return tuple(kind.key for kind in all_kinds())


def choices() -> list[tuple[str, str]]:
    """Return (key, label) of every kind, for form and API choices."""
    return [(kind.key, kind.label) for kind in all_kinds()]


def _discover() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.name != "base" and not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")


_discover()
