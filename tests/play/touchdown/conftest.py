"""The Touchdown Heroes engine needs no Django: these tests run with `-p no:django` too."""

import pytest


@pytest.fixture(autouse=True)
def empty_cache():
    """Replace the suite-wide cache fixture (tests/conftest.py): nothing here uses a cache."""
    yield
