"""Helpers shared by the solo play tests (the fixtures are in tests/play/conftest.py)."""

from play.solo import services as solo


def first_player_cards(position: solo.Position, count: int) -> tuple[str, ...]:
    """The first `count` player cards in seat A's hand."""
    hand = position.match.hand("A")
    return tuple(c.id for c in hand if c.kind == "player")[:count]
