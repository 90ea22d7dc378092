"""A saved deck as engine input: the sides snapshot and the problems that block play."""

import pytest

from decks.content import DeckContent
from decks.engine_input import content_snapshot, version_snapshot
from decks.models import Deck
from decks.selectors import latest_version

pytestmark = pytest.mark.django_db


def sample_version():
    deck = Deck.objects.filter(is_sample=True, is_legal=True).order_by("slug").first()
    return latest_version(deck)


def test_a_legal_version_becomes_a_snapshot_with_every_card_and_no_problems():
    version = sample_version()
    snapshot, problems = version_snapshot(version)
    content = DeckContent.from_json(version.content)
    assert problems == []
    assert snapshot["name"] == version.name
    assert len(snapshot["cards"]) == sum(content.deck.values())
    assert snapshot["goalkeeper"] == content.goalkeeper
    assert set(snapshot["cards"]) <= set(snapshot["card_data"])


def test_unknown_cards_are_a_problem_and_give_no_snapshot():
    content = DeckContent.from_json(sample_version().content)
    broken = DeckContent.from_json({**content.to_json(), "goalkeeper": "NO-SUCH-CARD"})
    snapshot, problems = content_snapshot(name="x", content=broken)
    assert snapshot == {}
    assert problems == ["unknown card id(s) NO-SUCH-CARD"]


def test_the_latest_version_is_the_highest_number():
    version = sample_version()
    assert latest_version(version.deck) == version.deck.versions.order_by("-number").first()
