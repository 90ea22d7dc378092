"""Search syntax errors in the reader's language.

The parser (catalog/search/query.py) words its errors in English as it finds them; this module
matches each sentence and says it again through gettext, so a new error the table does not
know yet still reads, in English, rather than failing. The English text is unchanged: every
msgid below, filled with the matched values, is the parser's own sentence.
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_

_Q = r'"(?P<a>.*?)"'
PROBLEMS = [
    (r"Unexpected character U\+(?P<a>[0-9A-F]+)", N_("Unexpected character U+%(a)s")),
    (r'Nothing to negate after "-"', N_('Nothing to negate after "-"')),
    (r"Unclosed quote", N_("Unclosed quote")),
    (r'Unclosed "\("', N_('Unclosed "("')),
    (r"Unexpected end of query", N_("Unexpected end of query")),
    (r"Too many search terms", N_("Too many search terms")),
    (r"Too many nested parentheses", N_("Too many nested parentheses")),
    (r"Nothing to search for inside the quotes", N_("Nothing to search for inside the quotes")),
    (
        r"Nothing to search for inside the parentheses",
        N_("Nothing to search for inside the parentheses"),
    ),
    (_Q + r" needs a search term before it", N_('"%(a)s" needs a search term before it')),
    (_Q + r" needs a search term after it", N_('"%(a)s" needs a search term after it')),
    (_Q + r" needs a search term on both sides", N_('"%(a)s" needs a search term on both sides')),
    (_Q + r" needs a value", N_('"%(a)s" needs a value')),
    (_Q + r" needs a number", N_('"%(a)s" needs a number')),
    (_Q + r" cannot be negated", N_('"%(a)s" cannot be negated')),
    (_Q + r' cannot be compared with "(?P<b>.*?)"', N_('"%(a)s" cannot be compared with "%(b)s"')),
    (r"Unknown field " + _Q, N_('Unknown field "%(a)s"')),
    (r"Unknown kind " + _Q, N_('Unknown kind "%(a)s"')),
    (r"Unknown position " + _Q, N_('Unknown position "%(a)s"')),
    (r"Unknown rarity " + _Q, N_('Unknown rarity "%(a)s"')),
    (r"Unknown order " + _Q, N_('Unknown order "%(a)s"')),
    (r"Unknown printing " + _Q, N_('Unknown printing "%(a)s"')),
    (r"Unknown direction " + _Q, N_('Unknown direction "%(a)s"')),
    (r"Unknown value " + _Q + r' for "(?P<b>.*?)"', N_('Unknown value "%(a)s" for "%(b)s"')),
    (r"Unexpected " + _Q, N_('Unexpected "%(a)s"')),
]
HINTS = [
    (r'did you mean "(?P<a>.*?)"\? ', N_('did you mean "%(a)s"? ')),
    (r"known: (?P<a>.*)", N_("known: %(a)s")),
    (r"at most (?P<a>\d+)", N_("at most %(a)s")),
    (r"(?P<a>\d+) to (?P<b>\d+)", N_("%(a)s to %(b)s")),
    (r'use ":" or "!="', N_('use ":" or "!="')),
    (r'use ":"', N_('use ":"')),
]


def _say(text: str, table) -> str:
    for pattern, msgid in table:
        match = re.fullmatch(pattern, text)
        if match:
            return _(msgid) % match.groupdict()
    return text


def _say_hint(hint: str) -> str:
    parts, rest = [], hint
    close = re.match(HINTS[0][0], rest)
    if close:
        parts.append(_(HINTS[0][1]) % close.groupdict())
        rest = rest[close.end() :]
    return "".join(parts) + (_say(rest, HINTS[1:]) if rest else "")


def syntax_message(problem: str, position: int, hint: str = "") -> str:
    """Return "<problem> at column N (hint)" in the active language."""
    message = _("%(problem)s at column %(column)d") % {
        "problem": _say(problem, PROBLEMS),
        "column": position + 1,
    }
    if hint:
        message += _(" (%(hint)s)") % {"hint": _say_hint(hint)}
    return message
