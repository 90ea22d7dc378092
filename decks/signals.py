"""How decks hooks into the catalog: sample decks after a load, a section on card pages."""

from decks.selectors import public_decks_using
from decks.services import sample_decks_sync

CARD_PAGE_DECKS = 20


def make_sample_decks(sender, *, pool, skipped_sets=(), **kwargs):
    """Create or update the sample prebuilt decks when the catalog has been loaded."""
    sample_decks_sync(pool=pool, skipped_sets=skipped_sets)


def public_decks_section(request, card):
    """Return the card page's list of public decks that use the card."""
    decks = public_decks_using(card)
    return {
        "template": "decks/_card_decks.html",
        "data": {
            "card": card,
            "decks": decks[:CARD_PAGE_DECKS],
            "total": decks.count(),
        },
    }
