"""Read paths of the replay viewer: who may watch a saved match log.

Who may open a saved log at `/replays/<share_token>/` (docs/play.md):
- its owner, always;
- anyone, when the log's deck (the deck version it was played with) is public or unlisted:
  whoever can open that deck can watch its matches;
- anyone holding the share link of the batch the log came from: the batch page links its
  sample matches with `?batch=<batch share token>`, and the viewer checks that token.
Everything else is a 404, as for a missing log. Uploaded logs name no deck, so they stay the
uploader's own.
"""

from django.http import Http404

from decks.models import Deck
from play.models import MatchLog


def match_log_for_viewer(*, token: str, user, batch_token: str = "") -> MatchLog:
    """Return the saved log if the user may watch it (see the module docstring); else 404."""
    match_log = (
        MatchLog.objects.filter(share_token=token)
        .select_related("deck_version__deck", "batch")
        .first()
    )
    if match_log is None:
        raise Http404("No such match log.")
    if user.is_authenticated and match_log.owner_id == user.id:
        return match_log
    version = match_log.deck_version
    if version is not None and version.deck.visibility in (
        Deck.Visibility.PUBLIC,
        Deck.Visibility.UNLISTED,
    ):
        return match_log
    if match_log.batch is not None and batch_token and batch_token == match_log.batch.share_token:
        return match_log
    raise Http404("No such match log.")
