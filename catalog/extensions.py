"""Extension points of the catalog pages, so other apps can add to them without the catalog
importing those apps (ARCHITECTURE.md: catalog knows nothing of decks or play).

`card_page_sections` holds callables `(request, card) -> {"template": str, "data": object}`
or None; the card page includes each returned template with `data` in its context. Apps
register theirs in `AppConfig.ready()`.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.dispatch import Signal

from catalog.models import normalize_text

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


# --- search terms that depend on the signed-in user ------------------------------------------


@dataclass(frozen=True)
class UserSearchTerm:
    """A search term another app answers for the request's user, e.g. `is:owned`, `owned>=2`.

    `is_q(user)` is the filter of `is:<name>` (and, negated, of `-is:<name>`/`not:<name>`);
    `count_q(user, lookup, n)` that of `<name><op>n` (lookup: exact, lt, lte, gt, gte), or
    None when the term takes no number. Both must accept an anonymous user (or None) and
    then return a filter that matches nothing. `text`/`negated_text` describe `is:<name>`
    (lazy translations are read in the language active when the query is described);
    `count_text` describes `<name><op>n`, with `%(op)s` (≥, <, …) and `%(n)s` filled in.
    `examples` and `help_text` are what the search pages' syntax help says of the term.
    """

    name: str
    is_q: Callable
    count_q: Callable | None
    text: str
    negated_text: str
    count_text: str = ""
    examples: tuple[str, ...] = ()
    help_text: str = ""


user_search_terms: dict[str, UserSearchTerm] = {}


def user_search_term_register(term: UserSearchTerm) -> None:
    """Register (or replace) a user-dependent search term; call it from AppConfig.ready()."""
    user_search_terms[term.name] = term


def mentions_user_terms(text: str) -> bool:
    """Return whether a query may use a user-dependent term (so its results vary by user)."""
    folded = normalize_text(text or "")
    return any(name in folded for name in user_search_terms)
