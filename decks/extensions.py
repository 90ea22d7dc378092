"""Extension points of the deck page, so play/ can add to it without decks importing play
(ARCHITECTURE.md: decks/ may import only the engine's pure legality function).

`deck_page_sections` holds callables `(request, deck, *, is_legal) -> {"template": str,
"data": object}` or None; the deck page includes each returned template with `data`.
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
