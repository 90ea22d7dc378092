"""Extension points of the deck page, so play/ can add to it without decks importing play
(ARCHITECTURE.md: decks/ may import only the engine's pure legality function).

`deck_page_sections` holds callables `(request, deck, *, is_legal) -> {"template": str,
"data": object}` or None; the deck page includes each returned template with `data`, below
the deck's actions, or below the deck itself when the section also says `"after_deck": True`
(what reads the deck rather than acts on it, e.g. the viewer's collection against it).
"""

from collections.abc import Callable

deck_page_sections: list[Callable] = []


def deck_sections(request, deck, *, is_legal: bool) -> list[dict]:
    """Return the extra sections the registered apps give the deck's page, in order."""
    sections = []
    for section in deck_page_sections:
        result = section(request, deck, is_legal=is_legal)
        if result is not None:
            sections.append(result)
    return sections
