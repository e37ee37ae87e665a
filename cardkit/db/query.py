"""The card search syntax: free words match names, `field:value` and `field<op>number` filter.

    Guts level<=2 colour:black unique:yes
    element:forest elite:yes cost>=5
    game:berserk-ccg type:flyer "Ледяной дракон"

Words (quote a phrase to keep it together) must all occur in the name, its
transliteration or both spellings folded (case, ё = е, punctuation ignored).
Operators: `:` and `=` (equals), `!=`, and `<`, `<=`, `>`, `>=` for numbers.
Booleans take yes/no. A field a card's game lacks never matches.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from enum import Enum

from cardkit.errors import BadArgument
from cardkit.textfold import fold


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
    SearchField("game", "game", FieldKind.TEXT, "berserk-tcg, berserk-ccg, berserk-online, berserker"),
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
ALIASES: dict[str, str] = {"type": "kind", "color": "colour", "elements": "element", "lvl": "level"}

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
class Query:
    words: tuple[str, ...]
    filters: tuple[Filter, ...]


def known_fields() -> str:
    return ", ".join(FIELDS) + " (also " + ", ".join(f"{a}={b}" for a, b in ALIASES.items()) + ")"


def _value(field: SearchField, op: str, raw: str, token: str) -> str | int | bool:
    if raw == "":
        raise BadArgument(f"{token!r}: no value after {op!r}")
    if field.kind is FieldKind.NUMBER:
        try:
            number = int(raw)
        except ValueError:
            raise BadArgument(f"{token!r}: {field.name} takes a whole number") from None
        if abs(number) > MAX_NUMBER:
            raise BadArgument(f"{token!r}: {field.name} takes a number from -{MAX_NUMBER:,} to {MAX_NUMBER:,}")
        return number
    if field.kind is FieldKind.NAME and op != "=":
        raise BadArgument(f"{token!r}: name takes words, written name:WORD")
    if op not in EQUALITY_OPS:
        raise BadArgument(f"{token!r}: {op} compares numbers; {field.name} is {field.kind.value}")
    if field.kind is FieldKind.BOOL:
        low = raw.lower()
        if low in _YES or low in _NO:
            return low in _YES
        raise BadArgument(f"{token!r}: {field.name} takes yes or no")
    return raw


def _word(token: str) -> str:
    """A name word; one with no letter or digit would match every card, so it is refused."""
    if not fold(token):
        raise BadArgument(f"{token!r} has no letter or digit to search names for")
    return token


def parse_query(text: str) -> Query:
    """Split a query into name words and filters; `BadArgument` on an unknown field or a bad value."""
    try:
        tokens = shlex.split(text)
    except ValueError as exc:
        raise BadArgument(f"cannot read the query: {exc}") from None
    if len(tokens) > MAX_TERMS:
        raise BadArgument(f"the query has {len(tokens)} words and filters; the limit is {MAX_TERMS}")
    words: list[str] = []
    filters: list[Filter] = []
    for token in tokens:
        m = _FILTER.match(token)
        if not m:
            words.append(_word(token))
            continue
        name = m.group("field").lower()
        name = ALIASES.get(name, name)
        if name not in FIELDS:
            raise BadArgument(f"unknown field {m.group('field')!r} in {token!r}; known fields: {known_fields()}")
        field = FIELDS[name]
        op = "=" if m.group("op") == ":" else m.group("op")
        value = _value(field, op, m.group("value").strip(), token)
        if field.kind is FieldKind.NAME:
            words.append(_word(str(value)))
        else:
            filters.append(Filter(field, op, value))
    return Query(tuple(words), tuple(filters))
