"""Decks named on the command line: a deck text file or the share slug of a saved deck."""

from pathlib import Path

from decks.formats.text import parse_deck_text
from decks.models import Deck
from decks.services import unknown_card_lines
from play.engine.match import SideDeck
from play.simulations.core import side_deck
from play.simulations.sides import content_snapshot, latest_version, version_snapshot


class DeckInputError(ValueError):
    """A deck argument that cannot be played; the message is one line naming the problem."""


def load_side(arg: str) -> SideDeck:
    """Return the engine side for a deck text file path or a saved deck's slug."""
    if "\x00" in arg:
        raise DeckInputError("a deck argument holds a NUL character")
    path = Path(arg)
    try:
        is_file = bool(path.suffix) or "/" in arg or path.exists()
    except OSError as exc:  # a name too long for the file system
        raise DeckInputError(f"{arg[:60]}: not a deck file ({exc.strerror})") from None
    if is_file:
        snapshot, problems = _from_file(path)
    else:
        deck = Deck.objects.filter(slug=arg).first()
        if deck is None:
            raise DeckInputError(f"{arg}: no such file, and no saved deck has this slug")
        version = latest_version(deck)
        if version is None:
            raise DeckInputError(f"{arg}: the deck was never saved")
        snapshot, problems = version_snapshot(version)
    if problems:
        raise DeckInputError(f"{arg}: the deck is not legal: " + "; ".join(problems))
    return side_deck(snapshot)


def _from_file(path: Path) -> tuple[dict, list[str]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckInputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckInputError(f"{str(path)[:200]}: cannot read it ({exc})") from None
    parsed = parse_deck_text(text)
    errors = parsed.errors + unknown_card_lines(parsed)
    if errors:
        first = sorted(errors, key=lambda e: e.line)
        more = f" (and {len(first) - 1} more)" if len(first) > 1 else ""
        raise DeckInputError(f"{path}: {first[0]}{more}")
    return content_snapshot(name=parsed.name or path.stem, content=parsed.content())
