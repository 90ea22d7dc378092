"""How a card's fields and values read to a person, in the active language.

A field's name is its label in the card format (catalog/card_format.py); a value is said as a
reader knows it: a kind in words, a club by its name, a sample flag as yes or no, nothing as
"—". The review's difference, a card's revision compare and the decks' catalogue-change
sentences all say fields and values through here, so English and Japanese pages agree.
"""

from django.utils.translation import gettext as _

from catalog.card_format import FIELDS
from catalog.models import Team

_LABELS = {f.name: f.label for f in FIELDS}
NOTHING = "—"


def field_label(name: str) -> str:
    """Return the field's name for a person ("Shoot", "シュート"); an unknown name as it is."""
    label = _LABELS.get(name)
    return str(label) if label else name


def kind_said(value: str) -> str:
    """Return a card kind in words ("player", "フィールドプレーヤー"); an unknown one as it is."""
    words = {"player": _("player"), "goalkeeper": _("goalkeeper"), "event": _("event")}
    return words.get(str(value).lower(), str(value))


def value_said(name: str, value, *, teams: dict[str, Team] | None = None) -> str:
    """Return a field's value as a reader knows it.

    `teams` ({code: Team}) saves a query a value when many are said at once (`teams_for`).
    """
    if value is None or value == "":
        return NOTHING
    if name == "kind":
        return kind_said(value)
    if name == "team":
        if teams is None:
            team = Team.objects.filter(code=value).first()
        else:
            team = teams.get(value)
        return team.display_name if team else str(value)
    if name == "status":
        return {"sample": _("sample"), "real": _("real card")}.get(str(value), str(value))
    if name == "is_sample":
        truth = value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes")
        return _("yes") if truth else _("no")
    return str(value)


def teams_for(codes) -> dict[str, Team]:
    """Return the teams of these codes (None and "" skipped), by code, in one query."""
    wanted = set(codes) - {None, ""}
    return {team.code: team for team in Team.objects.filter(code__in=wanted)} if wanted else {}
