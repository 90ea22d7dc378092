"""Deck against deck: full matches of deck A against deck B, both played by bots."""

from django.utils.translation import gettext_lazy as _

from play.simulations.kinds import register
from play.simulations.kinds.base import DeckKind


class MatchKind(DeckKind):
    key = "match"
    label = _("Deck against deck")
    order = 30
    both_sides_played = True
    needs_opponent = True


register(MatchKind())
