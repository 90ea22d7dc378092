"""Read paths of solo play: whose games one may open, the goalkeepers, one's saved logs.

The goldfish's deck is `play.simulations.sides.goldfish_deck` (batches use the same one).
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from catalog.models import Card as CatalogCard
from play.models import MatchLog, SoloGame


def solo_games_of(user) -> QuerySet[SoloGame]:
    """Return the user's own solo games (nobody else's are ever listed)."""
    if not user.is_authenticated:
        return SoloGame.objects.none()
    return SoloGame.objects.filter(owner=user).select_related("deck_version", "opponent_version")


def solo_game_for_owner(*, user, game_id: int) -> SoloGame:
    """Return the user's game; another user's game is a 404 like a missing one."""
    game = solo_games_of(user).filter(pk=game_id).first()
    if game is None:
        raise Http404("No such game.")
    return game


def goalkeeper_choices() -> QuerySet[CatalogCard]:
    """Return the catalog's goalkeepers, strongest defense first."""
    return CatalogCard.objects.filter(kind=CatalogCard.Kind.GOALKEEPER).order_by("-defense", "id")


def solo_logs_of(user) -> QuerySet[MatchLog]:
    """Return the user's own solo and uploaded logs, newest first (batch samples excluded)."""
    return (
        MatchLog.objects.filter(owner=user)
        .exclude(source=MatchLog.Source.BATCH)
        .only("id", "title", "share_token", "source", "created_at")
    )
