"""What play/ adds to other apps' pages through their extension points."""

from play.simulations.forms import SimulationForm


def deck_play_section(request, deck, *, is_legal: bool) -> dict:
    """Return the deck page's Play and Simulate section."""
    form = None
    if is_legal and request.user.is_authenticated:
        form = SimulationForm(user=request.user)
    return {
        "template": "play/_deck_section.html",
        "data": {"deck": deck, "form": form, "is_legal": is_legal},
    }
