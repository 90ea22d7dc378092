"""Extension points of the catalog pages, so other apps can add to them without the catalog
importing those apps (ARCHITECTURE.md: catalog knows nothing of decks or play).

`card_page_sections` holds callables `(request, card) -> {"template": str, "data": object}`
or None; the card page includes each returned template with `data` in its context. Apps
register theirs in `AppConfig.ready()`.
"""

from collections.abc import Callable

from django.dispatch import Signal

card_page_sections: list[Callable] = []


def card_sections(request, card) -> list[dict]:
    """Return the extra sections the registered apps give the card's page, in order."""
    sections = []
    for section in card_page_sections:
        result = section(request, card)
        if result is not None:
            sections.append(result)
    return sections


# Sent inside the transaction that changed cards, with `changes`: a list of CardChange
# (catalog.importer). decks/ listens and re-validates every deck holding a changed card, so a
# failure there rolls the card change back too.
cards_changed = Signal()

# Callables `(card_ids: set[str]) -> set[str]` returning the ids some other app still uses;
# `import_cards --replace-sample` keeps those sample cards instead of deleting them.
card_in_use_checks: list[Callable] = []


def cards_in_use(card_ids: set[str]) -> set[str]:
    """Return the ids among `card_ids` that a registered app still uses."""
    used: set[str] = set()
    for check in card_in_use_checks:
        used |= set(check(card_ids))
    return used
