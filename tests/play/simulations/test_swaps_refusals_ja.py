"""The swap suggestions' refusals are said in the reader's language (issue #29: both languages)."""

import pytest
from django.utils import translation

from play.simulations.kinds import swaps as kind

pytestmark = pytest.mark.django_db


def test_a_field_too_large_is_refused_in_japanese(settings, monkeypatch):
    settings.SIMULATION_SWAPS_MAX_FIELD = 0
    errors: dict = {}

    class Request:
        study = {"source": "catalogue"}

    with translation.override("ja"):
        kind.SwapsKind().prepare(request=Request(), errors=errors)
    message = errors["field"][0]
    assert "入れ替え提案で対戦できるのは 0 デッキまで" in message
