"""What play/ adds to other apps' pages through their extension points."""

from play.simulations.forms import SimulationForm
from play.simulations.selectors import batches_sharing_deck


def deck_play_section(request, deck, *, is_legal: bool) -> dict:
    """Return the deck page's Play and Simulate section."""
    form = None
    if is_legal and request.user.is_authenticated:
        form = SimulationForm(user=request.user, deck=deck)
    shared = []
    if request.user.is_authenticated:  # the viewer's own batches of this deck
        shared = batches_sharing_deck(deck=deck, owner=request.user)
    return {
        "template": "play/_deck_section.html",
        "data": {"deck": deck, "form": form, "is_legal": is_legal, "shared_batches": shared},
    }
