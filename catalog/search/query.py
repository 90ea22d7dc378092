"""The card search language: a query string in, a Django filter and an ordering out.

The syntax follows Scryfall's (free words, `field:value`, `-` to negate, `or`, parentheses,
`order:`); docs/search.md is the user's reference. The tokenizer and recursive-descent parser
are written by hand so every error can name its column, and so that no input (a user's typo,
a fuzzer's noise) raises anything but `QuerySyntaxError`. Parsing never touches the database.

Japanese input is first-class: values are NFKC-folded like `Card.search_text`, so full-width
`ＡＲＡＩ` and half-width `ｱﾗｲ` match, and full-width syntax (`ｓｅｔ：ＢＳ`, `（`, `）`) is read
like its ASCII twin.
"""

import difflib
import re
import unicodedata
from dataclasses import dataclass, field, replace

from django.db import connection
from django.db.models import Count, F, Q
from django.db.models.expressions import OrderBy

from catalog import extensions
from catalog.data import TEAMS
from catalog.models import Printing, Team, normalize_text
from catalog.search.messages import syntax_message

# Limits keep the SQL within what both databases accept (SQLite's expression depth is 1000).
MAX_QUERY_LENGTH = 1000
MAX_TERMS = 100
MAX_DEPTH = 20
MAX_NUMBER = 9999

# Set by display order, then number: one indexed column (models.catalog_order).
DEFAULT_ORDER = ["catalog_order"]


class QuerySyntaxError(ValueError):
    """A query the parser cannot read; `str(error)` says what and at which column."""

    def __init__(self, problem: str, position: int, hint: str = ""):
        self.problem = problem
        self.position = position  # 0-based offset into the query text
        self.hint = hint
        message = syntax_message(problem, position, hint)  # in the reader's language
        self.message = message
        super().__init__(message)

    @property
    def column(self) -> int:
        return self.position + 1


# --- the tree -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One condition, with how to say it in plain words either way round."""

    q: Q
    text: str
    negated_text: str


@dataclass(frozen=True)
class Not:
    node: "Node"


@dataclass(frozen=True)
class And:
    nodes: tuple["Node", ...]


@dataclass(frozen=True)
class Or:
    nodes: tuple["Node", ...]


Node = Match | Not | And | Or


@dataclass(frozen=True)
class ParsedQuery:
    """A parsed query: the filter, the ordering (Django `order_by` strings) and plain words."""

    q: Q = field(default_factory=Q)
    order_by: list[str] = field(default_factory=lambda: list(DEFAULT_ORDER))
    terms: list[str] = field(default_factory=list)
    node: Node | None = None
    order_text: str = ""

    def ordering(self) -> list[OrderBy]:
        """Return `order_by` as expressions that put cards without a team last both ways."""
        result = []
        for name in self.order_by:
            if name.startswith("-"):
                result.append(F(name[1:]).desc(nulls_last=True))
            else:
                result.append(F(name).asc(nulls_last=True))
        return result

    @property
    def description(self) -> str:
        return describe(self)


def compile_q(node: Node | None) -> Q:
    """Return the Django filter for a tree (everything for an empty tree)."""
    if node is None:
        return Q()
    if isinstance(node, Match):
        return node.q
    if isinstance(node, Not):
        return ~compile_q(node.node)
    parts = [compile_q(child) for child in node.nodes]
    combined = parts[0]
    for part in parts[1:]:
        combined = combined & part if isinstance(node, And) else combined | part
    return combined


def _describe_node(node: Node, parent: type | None = None) -> str:
    if isinstance(node, Match):
        return node.text
    if isinstance(node, Not):
        if isinstance(node.node, Match):
            return node.node.negated_text
        return f"not ({_describe_node(node.node)})"
    joiner = " and " if isinstance(node, And) else " or "
    text = joiner.join(_describe_node(child, type(node)) for child in node.nodes)
    return f"({text})" if parent is not None and parent is not type(node) else text


def describe(parsed: ParsedQuery) -> str:
    """Return the query in plain words, e.g. "shoot ≥ 5 and set is BS, sorted by name"."""
    text = _describe_node(parsed.node) if parsed.node is not None else "all cards"
    if parsed.order_text:
        text += f", sorted by {parsed.order_text}"
    return text


def _leaves(node: Node | None) -> list[str]:
    if node is None:
        return []
    if isinstance(node, Match):
        return [node.text]
    if isinstance(node, Not):
        if isinstance(node.node, Match):
            return [node.node.negated_text]
        return [f"not ({_describe_node(node.node)})"]
    return [text for child in node.nodes for text in _leaves(child)]


# --- tokens -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    kind: str  # "(", ")", "-", "or", "and", "word", "term", "end"
    position: int
    raw: str = ""
    value: str = ""
    quoted: bool = False
    field: str = ""
    op: str = ""
    value_position: int = 0


QUOTES = {'"': '"“”', "“": '"“”', "”": '"“”', "「": "」", "『": "』"}


def _fold(ch: str) -> str:
    """Return one character as the syntax reads it: full-width `（：＂` become `(:"`."""
    return unicodedata.normalize("NFKC", ch)


def _is_field_char(ch: str) -> bool:
    folded = _fold(ch)
    return len(folded) == 1 and (folded.isascii() and folded.isalpha() or folded == "_")


def _ends_word(ch: str) -> bool:
    return ch.isspace() or _fold(ch) in ("(", ")") or _fold(ch) in QUOTES


class _Lexer:
    def __init__(self, text: str):
        self.text = text
        self.n = len(text)

    def tokens(self) -> list[Token]:
        text, n = self.text, self.n
        for i, ch in enumerate(text):
            if ch == "\x00" or unicodedata.category(ch) == "Cs":
                # Neither can be sent to PostgreSQL; refuse them here, not as a 500 later.
                raise QuerySyntaxError(f"Unexpected character U+{ord(ch):04X}", i)
        result = []
        i = 0
        while True:
            while i < n and text[i].isspace():
                i += 1
            if i >= n:
                result.append(Token("end", i))
                return result
            c = _fold(text[i])
            if c in ("(", ")"):
                result.append(Token(c, i, raw=text[i]))
                i += 1
            elif c == "-":
                if i + 1 >= n or text[i + 1].isspace() or _fold(text[i + 1]) == ")":
                    raise QuerySyntaxError('Nothing to negate after "-"', i)
                result.append(Token("-", i, raw=text[i]))
                i += 1
            elif c in QUOTES:
                value, end = self._quoted(i)
                result.append(Token("word", i, raw=text[i:end], value=value, quoted=True))
                i = end
            else:
                token, i = self._term_or_word(i)
                result.append(token)

    def _quoted(self, start: int) -> tuple[str, int]:
        """Return a quoted text's value and the offset after its closing quote."""
        closers = QUOTES[_fold(self.text[start])]
        chars = []
        i = start + 1
        while i < self.n:
            ch = self.text[i]
            if ch == "\\" and i + 1 < self.n:
                chars.append(self.text[i + 1])
                i += 2
                continue
            if _fold(ch) in closers:
                return "".join(chars), i + 1
            chars.append(ch)
            i += 1
        raise QuerySyntaxError("Unclosed quote", start)

    def _bare(self, start: int) -> int:
        i = start
        while i < self.n and not _ends_word(self.text[i]):
            i += 1
        return i

    def _operator(self, i: int) -> str:
        pair = "".join(_fold(ch) for ch in self.text[i : i + 2])
        if pair in ("!=", "<=", ">="):
            return pair
        if i < self.n and _fold(self.text[i]) in (":", "=", "<", ">"):
            return _fold(self.text[i])
        return ""

    def _term_or_word(self, start: int) -> tuple[Token, int]:
        i = start
        while i < self.n and _is_field_char(self.text[i]):
            i += 1
        op = self._operator(i) if i > start else ""
        if not op:
            end = self._bare(start)
            raw = self.text[start:end]
            keyword = normalize_text(raw)
            if keyword in ("or", "and"):
                return Token(keyword, start, raw=raw), end
            return Token("word", start, raw=raw, value=raw), end
        name = "".join(_fold(ch) for ch in self.text[start:i]).lower()
        value_start = i + len(op)
        if value_start < self.n and _fold(self.text[value_start]) in QUOTES:
            value, end = self._quoted(value_start)
            quoted = True
        else:
            end = self._bare(value_start)
            value, quoted = self.text[value_start:end], False
        token = Token(
            "term",
            start,
            raw=self.text[start:end],
            value=value,
            quoted=quoted,
            field=name,
            op=op,
            value_position=value_start,
        )
        return token, end


# --- fields -------------------------------------------------------------------------------

FIELD_ALIASES = {
    "set": "set",
    "s": "set",
    "kind": "kind",
    "pos": "pos",
    "position": "pos",
    "team": "team",
    "person": "person",
    "rarity": "rarity",
    "r": "rarity",
    "effect": "effect",
    "shoot": "shoot",
    "keep": "keep",
    "def": "defense",
    "defense": "defense",
    "number": "number",
    "year": "year",
    "is": "is",
    "not": "not",
    "has": "has",
    "name": "name",
    "id": "id",
    "printing": "printing",
    "printings": "printings",
    "order": "order",
    "direction": "direction",
    "dir": "direction",
}
KNOWN_FIELDS = (
    "set, kind, pos, team, person, rarity, effect, shoot, keep, def, number, year, "
    "is, not, has, name, id, printing, printings, order, direction"
)

KINDS = {
    "player": "player",
    "players": "player",
    "goalkeeper": "goalkeeper",
    "goalkeepers": "goalkeeper",
    "gk": "goalkeeper",
    "keeper": "goalkeeper",
    "event": "event",
    "events": "event",
}
POSITIONS = ("FW", "MF", "DF", "GK")
RARITIES = ("C", "U", "R", "SR")  # lowest to highest, as the card pool uses them
HAS_VALUES = {"errata": "errata", "erratum": "errata", "ruling": "ruling", "rulings": "ruling"}
# Printing kinds (catalog.models.Printing.Kind): `printing:promo`, and `is:promo` for the
# kinds that set a card apart (every card has a first printing).
PRINTING_KINDS = ("first", "reprint", "promo", "parallel", "foil")
IS_PRINTINGS = ("reprint", "promo", "parallel", "foil")
IS_VALUES = {"sample": None, "pending": None, **KINDS, **dict.fromkeys(IS_PRINTINGS)}

STAT_FIELDS = {"shoot": "shoot", "keep": "keep", "def": "defense", "defense": "defense"}
NUMBER_COLUMNS = {
    "shoot": "shoot",
    "keep": "keep",
    "defense": "defense",
    "number": "number",
    "year": "card_set__released__year",
}
LOOKUPS = {":": "exact", "=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
SYMBOLS = {":": "=", "=": "=", "!=": "≠", "<": "<", "<=": "≤", ">": ">", ">=": "≥"}
OPPOSITE = {"=": "≠", "≠": "=", "<": "≥", "≤": ">", ">": "≤", "≥": "<"}

ORDER_KEYS = {  # key: (columns, words for describe())
    "name": (["name"], "name"),
    "id": (DEFAULT_ORDER, "set and number"),
    "number": (DEFAULT_ORDER, "set and number"),
    "set": (DEFAULT_ORDER, "set and number"),
    "shoot": (["shoot"], "shoot"),
    "keep": (["keep"], "keep"),
    "defense": (["defense"], "defense"),
    "def": (["defense"], "defense"),
    "team": (["team__name"], "team"),
    "kind": (["kind"], "kind"),
}
KNOWN_ORDERS = "name, id, number, set, shoot, keep, defense, team, kind"
DIRECTIONS = {"asc": False, "ascending": False, "desc": True, "descending": True}

_DIGITS = re.compile(r"[0-9]+")
# A card id as people type it: `BS-014`, `bs-14`, `２ＮＤ－３` (after NFKC folding).
_CARD_ID = re.compile(r"(?P<set>[0-9a-z]{2,4})-(?P<number>[0-9]{1,3})", re.IGNORECASE)


def card_id_of(text: str) -> str | None:
    """Return the canonical card id (`BS-014`) a word spells, or None."""
    folded = unicodedata.normalize("NFKC", text).strip().replace("−", "-").replace("‐", "-")
    match = _CARD_ID.fullmatch(folded)
    if match is None or int(match["number"]) == 0:
        return None
    return f"{match['set'].upper()}-{int(match['number']):03d}"


def _fold_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", normalize_text(text))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def pending_proposal_card_ids():
    """Return a subquery of the card ids with a proposal pending review (`is:pending`)."""
    from catalog.models import CardProposal

    return CardProposal.objects.filter(status=CardProposal.Status.PENDING).values("card_id")


def noted_card_ids(what: str):
    """Return a subquery of the card ids with an accepted erratum (`has:errata`) or ruling
    (`has:ruling`)."""
    from catalog.models import Erratum, Ruling

    return (Erratum if what == "errata" else Ruling).objects.values("card_id")


def printing_kind_q(kinds: list[str]) -> Q:
    """Return a Card filter: the cards with a printing of one of the kinds (a subquery, so a
    card with two promos is found once)."""
    return Q(id__in=Printing.objects.filter(kind__in=kinds).values("card_id"))


def printings_count_q(lookup: str, number: int) -> Q:
    """Return a Card filter comparing its number of printings (`printings>1`)."""
    counts = Printing.objects.values("card_id").annotate(n=Count("id"))
    zero_matches = {
        "exact": 0 == number,
        "lt": 0 < number,
        "lte": 0 <= number,
        "gt": False,
        "gte": number == 0,
    }[lookup]
    if zero_matches:
        # A card without printings (none should be) counts 0: kept by excluding the others.
        return ~Q(id__in=counts.exclude(**{f"n__{lookup}": number}).values("card_id"))
    return Q(id__in=counts.filter(**{f"n__{lookup}": number}).values("card_id"))


def _did_you_mean(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f'did you mean "{close[0]}"? ' if close else ""


def _phrase(value: str) -> str:
    """Return a text value folded like `search_text`, inner whitespace collapsed."""
    return " ".join(normalize_text(value).split())


def _items(token: Token) -> list[tuple[str, int]]:
    """Return the comma-separated items of a value with their offsets (quoted: one item)."""
    if token.quoted:
        return [(token.value.strip(), token.value_position)]
    items, offset = [], 0
    for part in re.split(r"[,，]", token.value):
        if part.strip():
            items.append((part.strip(), token.value_position + offset))
        offset += len(part) + 1
    if not items:
        raise QuerySyntaxError(f'"{token.field}" needs a value', token.value_position)
    return items


class _Parser:
    def __init__(self, text: str, vendor: str, user=None):
        self.text = text
        self.vendor = vendor
        self.user = user  # for the terms other apps register (catalog/extensions.py)
        self.tokens = _Lexer(text).tokens()
        self.index = 0
        self.term_count = 0
        self.orders: list[tuple[str, bool | None]] = []
        self.direction_desc = False

    def peek(self) -> Token:
        return self.tokens[self.index]

    def advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def parse(self) -> ParsedQuery:
        node = self.parse_or(depth=0)
        token = self.peek()
        if token.kind != "end":
            raise QuerySyntaxError(f'Unexpected "{token.raw}"', token.position)
        order_by, order_text = self.ordering()
        return ParsedQuery(
            q=compile_q(node),
            order_by=order_by,
            terms=_leaves(node),
            node=node,
            order_text=order_text,
        )

    # grammar: or_expr := and_expr ("or" and_expr)*
    #          and_expr := unary (["and"] unary)*
    #          unary := "-"* ( "(" or_expr ")" | term | word )
    def parse_or(self, depth: int) -> Node | None:
        branches = [self.parse_and(depth)]
        while self.peek().kind == "or":
            keyword = self.advance()
            if branches[-1] is None:
                raise QuerySyntaxError(
                    f'"{keyword.raw}" needs a search term before it', keyword.position
                )
            branch = self.parse_and(depth)
            if branch is None:
                raise QuerySyntaxError(
                    f'"{keyword.raw}" needs a search term after it', keyword.position
                )
            branches.append(branch)
        return branches[0] if len(branches) == 1 else Or(tuple(branches))

    def parse_and(self, depth: int) -> Node | None:
        parts: list[Node] = []
        while self.peek().kind not in ("end", ")", "or"):
            if self.peek().kind == "and":
                keyword = self.advance()
                if not parts or self.peek().kind in ("end", ")", "or", "and"):
                    raise QuerySyntaxError(
                        f'"{keyword.raw}" needs a search term on both sides', keyword.position
                    )
                continue
            node = self.parse_unary(depth)
            if node is not None:
                parts.append(node)
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def parse_unary(self, depth: int) -> Node | None:
        negations = 0
        while self.peek().kind == "-":
            self.advance()
            negations += 1
        token = self.peek()
        if token.kind == "(":
            if depth >= MAX_DEPTH:
                raise QuerySyntaxError(
                    "Too many nested parentheses", token.position, f"at most {MAX_DEPTH}"
                )
            self.advance()
            node = self.parse_or(depth + 1)
            if self.peek().kind != ")":
                raise QuerySyntaxError('Unclosed "("', token.position)
            self.advance()
            if node is None:
                raise QuerySyntaxError(
                    "Nothing to search for inside the parentheses", token.position
                )
        elif token.kind == "term" and FIELD_ALIASES.get(token.field) in ("order", "direction"):
            self.advance()
            if negations:
                raise QuerySyntaxError(f'"{token.field}" cannot be negated', token.position)
            self.sort_term(token)
            return None
        elif token.kind in ("term", "word"):
            self.advance()
            node = self.term(token) if token.kind == "term" else self.word(token.value, token)
        elif token.kind == "end":
            raise QuerySyntaxError("Unexpected end of query", token.position)
        else:
            raise QuerySyntaxError(f'Unexpected "{token.raw}"', token.position)
        if negations % 2:
            return Not(node)
        return node

    def count_term(self, token: Token) -> None:
        self.term_count += 1
        if self.term_count > MAX_TERMS:
            raise QuerySyntaxError("Too many search terms", token.position, f"at most {MAX_TERMS}")

    # --- leaves

    def word(self, value: str, token: Token) -> Match:
        self.count_term(token)
        card_id = None if token.quoted else card_id_of(value)
        if card_id is not None:
            return Match(Q(id=card_id), f"card is {card_id}", f"card is not {card_id}")
        phrase = _phrase(value)
        if not phrase:
            raise QuerySyntaxError("Nothing to search for inside the quotes", token.position)
        if self.vendor == "postgresql" and len(phrase) <= 2 and " " not in phrase:
            # Trigram indexes cannot serve 1–2 characters; the short-gram GIN index can
            # (migration 0002). A phrase without whitespace occurs in search_text exactly
            # when it is an in-word gram, so the gram test alone is the same condition, and
            # the planner estimates it better than both ANDed (docs/performance.md).
            q = Q(search_grams__contains=[phrase])
        else:
            q = Q(search_text__contains=phrase)
        shown = value.strip()
        return Match(q, f'name contains "{shown}"', f'name does not contain "{shown}"')

    def term(self, token: Token) -> Match:
        name = FIELD_ALIASES.get(token.field)
        if name is None and token.field in extensions.user_search_terms:
            return self.user_count_term(token)
        if name is None:
            hint = _did_you_mean(token.field, FIELD_ALIASES) + f"known: {KNOWN_FIELDS}"
            raise QuerySyntaxError(f'Unknown field "{token.field}"', token.position, hint)
        if not token.value.strip():
            raise QuerySyntaxError(f'"{token.field}" needs a value', token.value_position)
        if name in NUMBER_COLUMNS:
            match = self.number_term(name, token)
        elif name == "printings":
            match = self.printings_term(token)
        else:
            op_position = token.value_position - len(token.op)
            if token.op not in (":", "=", "!=") and name != "rarity":
                raise QuerySyntaxError(
                    f'"{token.field}" cannot be compared with "{token.op}"',
                    op_position,
                    'use ":" or "!="',
                )
            match = getattr(self, f"{name}_term")(token)
            if token.op == "!=":
                match = Match(~match.q, match.negated_text, match.text)
        return match

    def set_term(self, token: Token) -> Match:
        self.count_term(token)
        codes = [normalize_text(item).upper() for item, _ in _items(token)]
        shown = ", ".join(codes)
        if len(codes) == 1:
            return Match(Q(card_set_id=codes[0]), f"set is {shown}", f"set is not {shown}")
        return Match(
            Q(card_set_id__in=codes), f"set is one of {shown}", f"set is not one of {shown}"
        )

    def kind_term(self, token: Token) -> Match:
        self.count_term(token)
        kinds = []
        for item, position in _items(token):
            kind = KINDS.get(normalize_text(item))
            if kind is None:
                raise QuerySyntaxError(
                    f'Unknown kind "{item}"',
                    position,
                    "known: player, goalkeeper (gk, keeper), event",
                )
            kinds.append(kind)
        return self._choice("kind", "kind", kinds)

    def pos_term(self, token: Token) -> Match:
        self.count_term(token)
        positions = []
        for item, position in _items(token):
            value = normalize_text(item).upper()
            if value not in POSITIONS:
                raise QuerySyntaxError(
                    f'Unknown position "{item}"', position, "known: FW, MF, DF, GK"
                )
            positions.append(value)
        return self._choice("position", "position", positions)

    def rarity_term(self, token: Token) -> Match:
        self.count_term(token)
        items = _items(token)
        values = [normalize_text(item).upper() for item, _ in items]
        if token.op in (":", "=", "!="):
            return self._choice("rarity", "rarity", values)
        if len(values) != 1 or values[0] not in RARITIES:
            raise QuerySyntaxError(
                f'Unknown rarity "{token.value}"', token.value_position, "known: C, U, R, SR"
            )
        rank = RARITIES.index(values[0])
        chosen = [
            r
            for i, r in enumerate(RARITIES)
            if {"<": i < rank, "<=": i <= rank, ">": i > rank, ">=": i >= rank}[token.op]
        ]
        symbol = SYMBOLS[token.op]
        return Match(
            Q(rarity__in=chosen),
            f"rarity {symbol} {values[0]}",
            f"rarity {OPPOSITE[symbol]} {values[0]}",
        )

    def _choice(self, column: str, label: str, values: list[str]) -> Match:
        shown = ", ".join(values)
        if len(values) == 1:
            return Match(Q(**{column: values[0]}), f"{label} is {shown}", f"{label} is not {shown}")
        return Match(
            Q(**{f"{column}__in": values}),
            f"{label} is one of {shown}",
            f"{label} is not one of {shown}",
        )

    def team_term(self, token: Token) -> Match:
        self.count_term(token)
        # Team names are stored as written (katakana stays katakana): fold width and case only.
        value = " ".join(unicodedata.normalize("NFKC", token.value).casefold().split())
        # A subquery on the small team table, not an OR across the card–team join, so the
        # planner can filter cards by team id (docs/performance.md).
        teams = Team.objects.filter(
            Q(code__icontains=value) | Q(name__icontains=value) | Q(name_ja__icontains=value)
        )
        q = Q(team_id__in=teams.values("code"))
        # The database cannot strip accents portably; for the known clubs, "jubilo" finds
        # "Júbilo Iwata" by folding in Python.
        folded = _fold_accents(value)
        codes = [t.code for t in TEAMS if folded in _fold_accents(t.name)]
        if codes:
            q |= Q(team_id__in=codes)
        shown = token.value.strip()
        return Match(q, f'team matches "{shown}"', f'team does not match "{shown}"')

    def person_term(self, token: Token) -> Match:
        self.count_term(token)
        shown = token.value.strip()
        return Match(
            Q(person__icontains=_phrase(token.value)),
            f'person contains "{shown}"',
            f'person does not contain "{shown}"',
        )

    def effect_term(self, token: Token) -> Match:
        self.count_term(token)
        shown = token.value.strip()
        return Match(
            Q(effect__icontains=_phrase(token.value)),
            f'effect contains "{shown}"',
            f'effect does not contain "{shown}"',
        )

    def name_term(self, token: Token) -> Match:
        return self.word(token.value, replace(token, quoted=True))

    def id_term(self, token: Token) -> Match:
        self.count_term(token)
        ids = []
        for item, position in _items(token):
            card_id = card_id_of(item)
            if card_id is None:
                raise QuerySyntaxError(
                    f'"{item}" is not a card id', position, "write <set>-<number>, e.g. BS-014"
                )
            ids.append(card_id)
        return self._choice("id", "card", ids)

    def printing_term(self, token: Token) -> Match:
        """`printing:promo`: cards with a printing of that kind (comma list: any of them)."""
        self.count_term(token)
        kinds = []
        for item, position in _items(token):
            kind = normalize_text(item)
            if kind not in PRINTING_KINDS:
                hint = _did_you_mean(kind, PRINTING_KINDS) + "known: " + ", ".join(PRINTING_KINDS)
                raise QuerySyntaxError(f'Unknown printing "{item}"', position, hint)
            kinds.append(kind)
        shown = ", ".join(kinds)
        return Match(
            printing_kind_q(kinds),
            f"has a {shown} printing" if len(kinds) == 1 else f"has a printing of {shown}",
            f"has no {shown} printing" if len(kinds) == 1 else f"has no printing of {shown}",
        )

    def printings_term(self, token: Token) -> Match:
        """`printings>1`: compare a card's number of printings (R-DECK-2: one card still)."""
        self.count_term(token)
        value = unicodedata.normalize("NFKC", token.value).strip()
        if not (_DIGITS.fullmatch(value) and len(value) <= len(str(MAX_NUMBER))):
            hint = f"0 to {MAX_NUMBER}" if _DIGITS.fullmatch(value) else ""
            raise QuerySyntaxError(f'"{token.field}" needs a number', token.value_position, hint)
        number, symbol = int(value), SYMBOLS[token.op]
        if token.op == "!=":
            q = ~printings_count_q("exact", number)
        else:
            q = printings_count_q(LOOKUPS[token.op], number)
        return Match(q, f"printings {symbol} {number}", f"printings {OPPOSITE[symbol]} {number}")

    def is_term(self, token: Token) -> Match:
        self.count_term(token)
        value = normalize_text(token.value.strip())
        if value not in IS_VALUES and value in extensions.user_search_terms:
            term = extensions.user_search_terms[value]
            match = Match(term.is_q(self.user), term.text, term.negated_text)
        elif value not in IS_VALUES:
            user_terms = list(extensions.user_search_terms)
            hint = (
                _did_you_mean(value, [*IS_VALUES, *user_terms])
                + "known: "
                + ", ".join(
                    ["sample", "pending", "player", "goalkeeper", "event", *IS_PRINTINGS]
                    + user_terms
                )
            )
            raise QuerySyntaxError(
                f'Unknown value "{token.value}" for "{token.field}"', token.value_position, hint
            )
        elif value == "sample":
            match = Match(Q(is_sample=True), "is a sample card", "is not a sample card")
        elif value in IS_PRINTINGS:
            match = Match(
                printing_kind_q([value]), f"has a {value} printing", f"has no {value} printing"
            )
        elif value == "pending":
            match = Match(
                Q(id__in=pending_proposal_card_ids()),
                "has a proposal pending review",
                "has no proposal pending review",
            )
        else:
            match = self._choice("kind", "kind", [KINDS[value]])
        if FIELD_ALIASES[token.field] == "not":
            match = Match(~match.q, match.negated_text, match.text)
        return match

    not_term = is_term

    def has_term(self, token: Token) -> Match:
        """`has:errata`, `has:ruling`: cards with an accepted erratum or ruling."""
        self.count_term(token)
        value = normalize_text(token.value.strip())
        what = HAS_VALUES.get(value)
        if what is None:
            raise QuerySyntaxError(
                f'Unknown value "{token.value}" for "{token.field}"',
                token.value_position,
                _did_you_mean(value, HAS_VALUES) + "known: errata, ruling",
            )
        if what == "errata":
            return Match(Q(id__in=noted_card_ids("errata")), "has errata", "has no errata")
        return Match(Q(id__in=noted_card_ids("ruling")), "has a ruling", "has no ruling")

    def user_count_term(self, token: Token) -> Match:
        """A registered user-dependent number term, e.g. `owned>=2` (catalog/extensions.py)."""
        term = extensions.user_search_terms[token.field]
        value = unicodedata.normalize("NFKC", token.value).strip()
        if term.count_q is None or token.op == "!=":
            raise QuerySyntaxError(
                f'"{token.field}" cannot be compared with "{token.op}"', token.value_position
            )
        if not (_DIGITS.fullmatch(value) and len(value) <= len(str(MAX_NUMBER))):
            raise QuerySyntaxError(f'"{token.field}" needs a number', token.value_position)
        self.count_term(token)
        symbol = SYMBOLS[token.op]
        q = term.count_q(self.user, LOOKUPS[token.op], int(value))
        if term.count_text:
            return Match(
                q,
                str(term.count_text) % {"op": symbol, "n": value},
                str(term.count_text) % {"op": OPPOSITE[symbol], "n": value},
            )
        return Match(q, f"{term.name} {symbol} {value}", f"{term.name} {OPPOSITE[symbol]} {value}")

    def number_term(self, name: str, token: Token) -> Match:
        self.count_term(token)
        column = NUMBER_COLUMNS[name]
        value = unicodedata.normalize("NFKC", token.value).strip().lower()
        if name in STAT_FIELDS.values() and value in STAT_FIELDS:
            other: F | int = F(STAT_FIELDS[value])
            shown = STAT_FIELDS[value]
        elif _DIGITS.fullmatch(value) and len(value) <= len(str(MAX_NUMBER)):
            other = int(value)
            shown = str(other)
        else:
            hint = f"0 to {MAX_NUMBER}" if _DIGITS.fullmatch(value) else ""
            raise QuerySyntaxError(f'"{token.field}" needs a number', token.value_position, hint)
        symbol = SYMBOLS[token.op]
        if token.op == "!=":
            q = ~Q(**{column: other})
        else:
            q = Q(**{f"{column}__{LOOKUPS[token.op]}": other})
        return Match(q, f"{name} {symbol} {shown}", f"{name} {OPPOSITE[symbol]} {shown}")

    # --- ordering

    def sort_term(self, token: Token) -> None:
        name = FIELD_ALIASES[token.field]
        if not token.value.strip():
            raise QuerySyntaxError(f'"{token.field}" needs a value', token.value_position)
        if token.op not in (":", "="):
            raise QuerySyntaxError(
                f'"{token.field}" cannot be compared with "{token.op}"',
                token.value_position - len(token.op),
                'use ":"',
            )
        value = normalize_text(token.value.strip())
        if name == "direction":
            if value not in DIRECTIONS:
                raise QuerySyntaxError(
                    f'Unknown direction "{token.value}"', token.value_position, "known: asc, desc"
                )
            self.direction_desc = DIRECTIONS[value]
            return
        descending = value.startswith("-")
        key = value.lstrip("-")
        if key not in ORDER_KEYS:
            hint = _did_you_mean(key, ORDER_KEYS) + f"known: {KNOWN_ORDERS}"
            raise QuerySyntaxError(f'Unknown order "{token.value}"', token.value_position, hint)
        self.orders.append((key, True if descending else None))

    def ordering(self) -> tuple[list[str], str]:
        orders = self.orders or [("id", None)]
        order_by: list[str] = []
        seen: set[str] = set()
        texts = []
        for key, explicit in orders:
            descending = self.direction_desc if explicit is None else explicit
            columns, label = ORDER_KEYS[key]
            for column in columns:
                if column not in seen:
                    seen.add(column)
                    order_by.append(f"-{column}" if descending else column)
            texts.append(f"{label} (descending)" if descending else label)
        for column in DEFAULT_ORDER:
            if column not in seen:
                order_by.append(column)
        is_default = not self.orders and not self.direction_desc
        return order_by, "" if is_default else ", then ".join(texts)


def quote_value(value: str) -> str:
    """Return a field value written so the parser reads it back unchanged."""
    if value and not any(_ends_word(ch) for ch in value):
        return value
    escaped = "".join(f"\\{ch}" if ch == "\\" or _fold(ch) in QUOTES['"'] else ch for ch in value)
    return f'"{escaped}"'


def parse_query(text: str, *, vendor: str | None = None, user=None) -> ParsedQuery:
    """Parse a search query into a filter and an ordering, or raise QuerySyntaxError.

    `vendor` is the database vendor the filter is for (default: the default connection's);
    PostgreSQL gets an extra, index-friendly condition for 1–2 character words. `user` is
    the signed-in user the registered user-dependent terms (`is:owned`) are answered for.
    """
    text = text or ""
    if len(text) > MAX_QUERY_LENGTH:
        raise QuerySyntaxError(
            "Query is too long", MAX_QUERY_LENGTH, f"at most {MAX_QUERY_LENGTH} characters"
        )
    return _Parser(text, vendor or connection.vendor, user).parse()
