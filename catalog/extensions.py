"""Extension points of the catalog pages, so other apps can add to them without the catalog
importing those apps (ARCHITECTURE.md: catalog knows nothing of decks or play).

`card_page_sections` holds callables `(request, card) -> {"template": str, "data": object}`
or None; the card page includes each returned template with `data` in its context. Apps
register theirs in `AppConfig.ready()`.
"""

from collections.abc import Callable

card_page_sections: list[Callable] = []


def card_sections(request, card) -> list[dict]:
    """Return the extra sections the registered apps give the card's page, in order."""
    sections = []
    for section in card_page_sections:
        result = section(request, card)
        if result is not None:
            sections.append(result)
    return sections
