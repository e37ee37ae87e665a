"""The card search syntax: free words match names, `field:value` and `field<op>number` filter.

    Guts level<=2 colour:black unique:yes
    element:forest elite:yes cost>=5
    game:berserk-ccg type:flyer "Ледяной дракон"
    (c:red or c:black) -t:city lv<=2 order:cost

Each word (quote a phrase to keep it together) must begin a word of the name,
of its transliteration or of the card's id, in any spelling the catalogue
folds together (case, ё = е, punctuation ignored, Dikiy = Dikij = Dikii).
Operators: `:` and `=` (equals), `!=`, and `<`, `<=`, `>`, `>=` for numbers.
Booleans take yes/no. A field a card's game lacks never matches.

As on Scryfall, terms side by side must all hold, `or` joins alternatives
(binding looser than the side-by-side terms), parentheses group, a leading
`-` negates a term or group, and `order:FIELD` (with `direction:desc`) sorts.
The short aliases players type are `c` colour, `t` kind, `lv` level,
`r` rarity, `s` set, `e` element and `g` game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from cardkit.errors import BadArgument
from cardkit.games.registry import GAMES
from cardkit.textfold import fold, folded_words
from cardkit.visible import quoted


class FieldKind(str, Enum):
    TEXT = "text"
    NUMBER = "number"
    BOOL = "yes/no"
    ELEMENT = "element"
    NAME = "name"


@dataclass(frozen=True)
class SearchField:
    """A field of the query language and the column of `cards` it reads."""

    name: str
    column: str
    kind: FieldKind
    help: str


FIELDS: dict[str, SearchField] = {f.name: f for f in (
    SearchField("game", "game", FieldKind.TEXT, ", ".join(GAMES)),
    SearchField("id", "id", FieldKind.TEXT, "card id (BK1-9 is read as BK1-009)"),
    SearchField("name", "name", FieldKind.NAME, "a word of the name, like a free word"),
    SearchField("set", "set_id", FieldKind.TEXT, "set or series id: BK1, 10, 3, standard"),
    SearchField("kind", "kind", FieldKind.TEXT, "TCG kind, CCG/online type, fleet card type"),
    SearchField("colour", "colour", FieldKind.TEXT, "TCG colour: white, green, black, red"),
    SearchField("element", "elements", FieldKind.ELEMENT, "steppe, mountains, forest, swamps, darkness or neutral"),
    SearchField("rarity", "rarity", FieldKind.TEXT, "CCG rarity or online rarity code"),
    SearchField("level", "level", FieldKind.NUMBER, "TCG level"),
    SearchField("cost", "cost", FieldKind.NUMBER, "total cost (TCG balls + colourless; crystals)"),
    SearchField("elite", "elite", FieldKind.BOOL, "elite (gold) card"),
    SearchField("unique", "is_unique", FieldKind.BOOL, "unique card"),
    SearchField("mercenary", "mercenary", FieldKind.BOOL, "TCG Mercenary"),
)}
ALIASES: dict[str, str] = {
    "type": "kind", "color": "colour", "elements": "element", "lvl": "level",
    # The one-letter forms Scryfall's users type; `e` is the element here, as no Berserk game has editions to name.
    "c": "colour", "t": "kind", "lv": "level", "r": "rarity", "s": "set", "e": "element", "g": "game",
}
# `order:` takes these (and `name`); a card without the value sorts last.
ORDER_FIELDS = ("name", "cost", "level", "set", "kind", "colour", "element", "rarity", "game", "id")
ORDER_COLUMNS = {"name": "latin_key", "element": "elements", "set": "set_id"}

_FILTER = re.compile(r"^(?P<field>[A-Za-z_]+)(?P<op><=|>=|!=|<|>|=|:)(?P<value>.*)$", re.DOTALL)
_YES = {"yes", "y", "true", "1"}
_NO = {"no", "n", "false", "0"}
# Far beyond any card's number, and inside the 64 bits SQLite compares.
MAX_NUMBER = 10**9
# SQLite refuses a WHERE clause past a depth of 1,000; no real question needs more than a few terms.
MAX_TERMS = 50
NUMBER_OPS = ("=", "!=", "<", "<=", ">", ">=")
EQUALITY_OPS = ("=", "!=")


@dataclass(frozen=True)
class Filter:
    field: SearchField
    op: str
    value: str | int | bool


@dataclass(frozen=True)
class Word:
    """A name word or quoted phrase."""

    text: str


@dataclass(frozen=True)
class Not:
    term: Node


@dataclass(frozen=True)
class AllOf:
    """Terms that must all hold (written side by side)."""

    terms: tuple[Node, ...]


@dataclass(frozen=True)
class AnyOf:
    """Alternatives joined by `or`."""

    terms: tuple[Node, ...]


Node = Word | Filter | Not | AllOf | AnyOf


@dataclass(frozen=True)
class Order:
    field: str
    column: str
    descending: bool = False


@dataclass(frozen=True)
class Query:
    """A parsed query: every word and filter in it, the tree they form, and the sort asked for.

    `tree` None means all words and filters together, as in a query with no `or`, `-` or brackets.
    """

    words: tuple[str, ...]
    filters: tuple[Filter, ...]
    tree: Node | None = None
    order: tuple[Order, ...] = ()

    @property
    def ranked_words(self) -> tuple[str, ...]:
        """The words a card's name is ranked against: those that are not negated nor alternatives."""
        if self.tree is None:
            return self.words
        terms = self.tree.terms if isinstance(self.tree, AllOf) else (self.tree,)
        return tuple(t.text for t in terms if isinstance(t, Word))


def known_fields() -> str:
    return ", ".join(FIELDS) + " (also " + ", ".join(f"{a}={b}" for a, b in ALIASES.items()) + ")"


def _value(field: SearchField, op: str, raw: str, token: str) -> str | int | bool:
    if raw == "":
        raise BadArgument(f"{quoted(token)}: no value after {quoted(op)}")
    if field.kind is FieldKind.NUMBER:
        try:
            number = int(raw)
        except ValueError:
            raise BadArgument(f"{quoted(token)}: {field.name} takes a whole number") from None
        if abs(number) > MAX_NUMBER:
            raise BadArgument(f"{quoted(token)}: {field.name} takes a number from -{MAX_NUMBER:,} to {MAX_NUMBER:,}")
        return number
    if field.kind is FieldKind.NAME and op != "=":
        raise BadArgument(f"{quoted(token)}: name takes words, written name:WORD")
    if op not in EQUALITY_OPS:
        raise BadArgument(f"{quoted(token)}: {op} compares numbers; {field.name} is {field.kind.value}")
    if field.kind is FieldKind.BOOL:
        low = raw.lower()
        if low in _YES or low in _NO:
            return low in _YES
        raise BadArgument(f"{quoted(token)}: {field.name} takes yes or no")
    return raw


def _word(token: str) -> str:
    """A name word; one with no letter or digit would match every card, so it is refused."""
    if not fold(token):
        raise BadArgument(f"{quoted(token)} has no letter or digit to search names for")
    return token


_Token = tuple[str, bool]  # text with its quotes removed, and whether any part was quoted


def _tokens(text: str) -> list[_Token]:
    """Split like a shell (quotes keep spaces and brackets), with unquoted brackets as tokens of their own."""
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "()":
            tokens.append((ch, False))
            i += 1
            continue
        out: list[str] = []
        in_quotes = False
        while i < n and not text[i].isspace() and text[i] not in "()":
            if text[i] in "\"'":
                close = text.find(text[i], i + 1)
                if close < 0:
                    raise BadArgument("cannot read the query: No closing quotation")
                out.append(text[i + 1:close])
                in_quotes = True
                i = close + 1
            else:
                out.append(text[i])
                i += 1
        tokens.append(("".join(out), in_quotes))
    return tokens


class _Parser:
    """Recursive descent over the tokens: query = all ("or" all)*; all = unary+; unary = "-"? (atom | "(" query ")")."""

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.at = 0
        self.words: list[str] = []
        self.filters: list[Filter] = []
        self.order: list[Order] = []
        self.descending = False

    def peek(self) -> _Token | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def is_keyword(self, word: str) -> bool:
        token = self.peek()
        return token is not None and not token[1] and token[0].lower() == word

    def query(self) -> Node | None:
        alternatives = [self.all()]
        while self.is_keyword("or"):
            self.at += 1
            alternatives.append(self.all())
        if len(alternatives) == 1:
            return alternatives[0]
        present = [a for a in alternatives if a is not None]
        if len(present) < len(alternatives):
            raise BadArgument("`or` needs a term on each side")
        return AnyOf(tuple(present))

    def all(self) -> Node | None:
        terms: list[Node] = []
        while (token := self.peek()) is not None and token != (")", False) and not self.is_keyword("or"):
            if self.is_keyword("and"):
                self.at += 1
                continue
            term = self.unary()
            if term is not None:
                terms.append(term)
        if not terms:
            return None
        return terms[0] if len(terms) == 1 else AllOf(tuple(terms))

    def unary(self) -> Node | None:
        text, in_quotes = self.tokens[self.at]
        self.at += 1
        if (text, in_quotes) == ("(", False):
            inner = self.query()
            if self.peek() != (")", False):
                raise BadArgument("cannot read the query: a bracket is not closed")
            self.at += 1
            if inner is None:
                raise BadArgument("cannot read the query: empty brackets")
            return inner
        negate = text.startswith("-") and (len(text) > 1 or self.peek() == ("(", False))
        if negate:
            text = text[1:]
            if not text:
                inner = self.unary()
                if inner is None:
                    raise BadArgument("cannot read the query: nothing to negate")
                return Not(inner)
        term = self.atom(text)
        if term is None:
            if negate:
                raise BadArgument(f"-{quoted(text)}: order: and direction: cannot be negated")
            return None
        return Not(term) if negate else term

    def atom(self, token: str) -> Word | Filter | None:
        m = _FILTER.match(token)
        if not m:
            word = _word(token)
            self.words.append(word)
            return Word(word)
        name = m.group("field").lower()
        name = ALIASES.get(name, name)
        value = m.group("value").strip()
        if name in ("order", "sort", "direction"):
            self.directive(name, value, token)
            return None
        if name not in FIELDS:
            raise BadArgument(f"unknown field {quoted(m.group('field'))} in {quoted(token)}; known fields: {known_fields()}")
        field = FIELDS[name]
        op = "=" if m.group("op") == ":" else m.group("op")
        parsed = _value(field, op, value, token)
        if field.kind is FieldKind.NAME:
            word = _word(str(parsed))
            self.words.append(word)
            return Word(word)
        f = Filter(field, op, parsed)
        self.filters.append(f)
        return f

    def directive(self, name: str, value: str, token: str) -> None:
        low = value.lower()
        if name == "direction":
            if low not in ("asc", "desc"):
                raise BadArgument(f"{quoted(token)}: direction takes asc or desc")
            self.descending = low == "desc"
            return
        descending = low.startswith("-")
        low = ALIASES.get(low.lstrip("-"), low.lstrip("-"))
        if low not in ORDER_FIELDS:
            raise BadArgument(f"{quoted(token)}: order takes one of {', '.join(ORDER_FIELDS)}")
        column = ORDER_COLUMNS.get(low, FIELDS[low].column if low in FIELDS else low)
        self.order.append(Order(low, column, descending))


def _weight(token: str) -> int:
    """How many terms a token counts as: a filter one, a word or phrase as many words as it holds (at least one)."""
    if _FILTER.match(token):
        return 1
    return max(1, len(folded_words(token)))


def parse_query(text: str) -> Query:
    """Parse a query into its words, filters, tree and order; `BadArgument` on an unknown field, a bad value or bad brackets."""
    tokens = _tokens(text)
    # A cap keeps the SQL below SQLite's expression-depth limit and the parser's recursion shallow, and the
    # work a query asks for small: `a,a,a,…` is one token but as many words as it has (each is matched).
    brackets = sum(1 for token in tokens if token in (("(", False), (")", False)))
    terms = sum(_weight(token) for token, in_quotes in tokens if in_quotes or token not in ("(", ")"))
    if terms > MAX_TERMS:
        raise BadArgument(f"the query has {terms} words and filters; the limit is {MAX_TERMS}")
    if brackets > MAX_TERMS:
        raise BadArgument(f"the query has {brackets} brackets; the limit is {MAX_TERMS}")
    parser = _Parser(tokens)
    tree = parser.query()
    if parser.peek() is not None:
        raise BadArgument("cannot read the query: `)` without its `(`")
    order = tuple(Order(o.field, o.column, o.descending != parser.descending) for o in parser.order)
    simple = tree is None or isinstance(tree, (Word, Filter)) or (
        isinstance(tree, AllOf) and all(isinstance(t, (Word, Filter)) for t in tree.terms))
    return Query(tuple(parser.words), tuple(parser.filters), None if simple else tree, order)
