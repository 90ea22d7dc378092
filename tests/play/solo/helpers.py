"""Helpers shared by the solo play tests (the fixtures are in tests/play/conftest.py)."""

from play.engine import HalftimeSwaps
from play.models import SoloGame
from play.solo import services as solo


def first_player_cards(position: solo.Position, count: int) -> tuple[str, ...]:
    """The first `count` player cards in seat A's hand."""
    hand = position.match.hand("A")
    return tuple(c.id for c in hand if c.kind == "player")[:count]


def play_to_full_time(game: SoloGame) -> solo.Position:
    """Play on to full time: both sides by autoplay, no halftime swap; return the position."""
    for _ in range(10):
        game.refresh_from_db()
        position = solo.solo_match(game)
        match = position.match
        if match.is_terminal():
            break
        if match.decision == "halftime_swaps" and match.actor == "A":
            solo.solo_act(game=game, revision=game.revision, action=HalftimeSwaps("A", ()))
        elif match.current_side() == "B":
            solo.solo_bot_step(game=game, revision=None, all_steps=True)
        else:
            solo.solo_autoplay_half(game=game, revision=game.revision)
    game.refresh_from_db()
    assert game.is_finished
    return position
