"""Deck text and deck JSON to a header and unresolved card lines; no catalogue needed."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cardkit.decks.model import MAX_COUNT, Entry
from cardkit.decks.words import deck_words
from cardkit.jsonio import json_shown, whole_number
from cardkit.problems import Problem, error
from cardkit.visible import bidi_control, hidden_break, quoted, shortened

# Section titles, card-type headings, total lines and the words around a count come from data/deck-words.json
# (`Main`, `Основная колода`, `Существа`, `Итого`, `шт.`); the patterns are built on first use. A title or
# heading may carry counts, brackets, dashes, colons and the word `cards` after it (`Основная колода (30):`,
# `Существа - 24 шт.`). A `//` comment that is nothing but a section title with such filler around it starts
# that section: `// Sideboard`, Cockatrice's `// 10 Sideboard`, `// Sideboard (15)`, `// 15 Sideboard cards`.
# Any other word makes it prose (`// swap these for the sideboard plan`), a comment.


@dataclass(frozen=True)
class _Patterns:
    section_title: re.Pattern[str]
    comment_section: re.Pattern[str]
    heading: re.Pattern[str]
    # The count after the name: after a dash (`Кочевник - 3`, a unit optional) or before a unit (`Кочевник 3 шт.`).
    # A bare number after a name is no count: `Кочевник 10001` is a name and a CCG id.
    dash_count: re.Pattern[str]
    unit_count: re.Pattern[str]


def _words_pattern(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _patterns() -> _Patterns:
    words = deck_words()
    names = rf"(?P<name>{words.titles_pattern()})"
    units = rf"(?:{_words_pattern(words.count_units)})\b\.?"
    filler = rf"(?:[\s()\[\]:.,\-\u2013\u2014]|[0-9]|(?:{_words_pattern(words.card_words)})\b|{units})*"
    dashes = "[" + "".join(re.escape(d) for d in words.count_dashes) + "]"
    return _Patterns(
        re.compile(rf"^{names}{filler}$", re.IGNORECASE),
        re.compile(rf"^//{filler}{names}{filler}$", re.IGNORECASE),
        re.compile(rf"^(?:{words.headings_pattern()}){filler}$", re.IGNORECASE),
        re.compile(rf"^(?P<card>\S.*?)\s+{dashes}\s*(?P<count>[0-9]+)(?:\s*{units})?$", re.IGNORECASE),
        re.compile(rf"^(?P<card>\S.*?)\s+(?P<count>[0-9]+)\s*{units}$", re.IGNORECASE),
    )


# `SB: 2 Name`, as Cockatrice and MTGO-style lists write a side-deck card wherever it stands.
_SIDE_PREFIX = re.compile(r"^SB\s*:\s*", re.IGNORECASE)
# `3x`, `3×`, and `3х` typed on a Russian keyboard layout (Cyrillic х, U+0445).
_CARD = re.compile(r"^(?P<count>[+-]?[0-9]+)(?:\s*[xX×хХ])?\s+(?P<card>\S.*)$")
# `Guts x3`, `Guts ×3`: the count after the name, as many pasted lists write it.
_CARD_COUNT_AFTER = re.compile(r"^(?P<card>\S.*?)\s+[xX×хХ]\s*(?P<count>[0-9]+)$")
# MTG Arena's `Name (SET) 12`: the set code and collector number are the card id `SET-12`.
_ARENA_CARD = re.compile(r"^(?P<name>\S.*?)\s+\((?P<set>[A-Za-z][A-Za-z0-9]{1,5})\)\s+(?P<number>[0-9]{1,5})$")
# A key in any script (`игра:`, `Spiel:`): a letter, then letters, digits, spaces, `-` and `_`.
_HEADER = re.compile(r"^(?P<key>[^\W\d_][\w -]{0,39}?)\s*:\s*(?P<value>.*)$")
_INLINE_COMMENT = re.compile(r"\s+(#|//).*$")
HEADER_KEYS: tuple[str, ...] = ("game", "format", "player", "name", "event")


@dataclass
class ParsedDeck:
    """What a deck file says, before any card is looked up."""

    header: dict[str, str] = field(default_factory=dict)
    header_lines: dict[str, int] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    source: str = "text"


def _section_of(name: str) -> str:
    return deck_words().section(name) or "main"


# Unsigned counts of this many digits or fewer are plain ints (the pattern admits ASCII digits only).
_SHORT_COUNT = 5


def _text_count_problem(digits: str, line: int, card: str) -> Problem | None:
    """The problem with a card line's count as written, if any."""
    shown = shortened(digits, 24)
    if digits.startswith("-"):
        try:
            actual: int | str = -whole_number(digits[1:])
        except ValueError:
            actual = shown
        return error("PARSE_ERROR", f"count {shown} is not positive", line=line, card=card, limit=1, actual=actual)
    if digits.startswith("+"):
        # One count parser for every text file: ASCII digits, no sign (`redeals: +1` is refused too).
        return error("PARSE_ERROR", f"count {shown} is not a whole number (ASCII digits, no sign)", line=line, card=card,
                     actual=shown)
    try:
        return _count_problem(whole_number(digits), line=line, card=card)
    except ValueError:
        pass  # the pattern admits only digits, so the number is too long to be a count
    return error("PARSE_ERROR", f"count {shown} is over {MAX_COUNT}", line=line, card=card, limit=MAX_COUNT, actual=shown)


def _count_problem(raw: Any, line: int | None = None, pointer: str | None = None, card: str | None = None) -> Problem | None:
    if isinstance(raw, bool) or not isinstance(raw, int):
        return error("PARSE_ERROR", f"count {json_shown(raw, 24)} is not a whole number", line=line, pointer=pointer, card=card, actual=raw)
    if raw < 1:
        return error("PARSE_ERROR", f"count {raw} is not positive", line=line, pointer=pointer, card=card, limit=1, actual=raw)
    if raw > MAX_COUNT:
        return error("PARSE_ERROR", f"count {raw} is over {MAX_COUNT}", line=line, pointer=pointer, card=card, limit=MAX_COUNT, actual=raw)
    return None


def _arena_card(text: str) -> str:
    """`Name (BK1) 9`, as MTG Arena exports write a card, as `Name (BK1-9)`; any other text as it is."""
    m = _ARENA_CARD.match(text)
    return f"{m['name']} ({m['set']}-{m['number']})" if m else text


CARD_LINES_KEPT = 50_000
"""Lines remembered across decks (a big event writes the same `3 Guts` and `game: berserk` thousands of times)."""

# What a line is, by kind: the first item says which. The last two kinds are never kept: a card line
# with an unusual count, and one with a problem (said again at each line that has it).
_CARD_LINE, _SKIPPED, _SECTION_LINE, _HEADER_LINE, _CARD_LINE_ONCE, _BAD_CARD_LINE = range(6)
_KNOWN_LINES: dict[str, tuple[Any, ...]] = {}


def _known_lines() -> dict[str, tuple[Any, ...]]:
    """Raw line -> what it was read as, for lines that read the same wherever they stand.

    `(_CARD_LINE, side prefix, card text, count)`: a plain card line (only its section comes from the
    lines above); `(_SKIPPED,)`: blank or a comment; `(_SECTION_LINE, section)`: a section title;
    `(_HEADER_LINE, key, value, clipped line)`: a `key: value` line, which is a header or a problem
    depending on where it stands. Read once per process; the first `CARD_LINES_KEPT` distinct ones are kept.
    """
    return _KNOWN_LINES


def parse_text(text: str) -> ParsedDeck:
    """Header lines, `Main`/`Side` sections and `N CARD` lines; anything else is PARSE_ERROR at its line.

    Pasted exports read too: `// Sideboard`-style section comments and `SB: N CARD` side-deck lines.
    """
    out = ParsedDeck(source="text")
    section = "main"
    in_header = True
    patterns = _patterns()
    words = deck_words()
    known = _known_lines()
    keep = len(known) < CARD_LINES_KEPT
    entries = out.entries
    new = tuple.__new__
    card_line, card_line_once = _CARD_LINE, _CARD_LINE_ONCE  # locals: compared on every line
    for number, raw in enumerate(text.split("\n"), start=1):
        seen = known.get(raw)
        if seen is None:
            seen = _read_line(raw, number, out, patterns, words)
            if seen is None:
                continue
            if keep and seen[0] < card_line_once:
                known[raw] = seen
        kind = seen[0]
        if kind == card_line or kind == card_line_once:
            in_header = False
            _, side, card, count = seen
            # `tuple.__new__`: an Entry without the keyword handling of its constructor, the cost of most lines.
            entries.append(new(Entry, ("side" if side else section, number, card, count, None, None, ())))
        elif kind == _BAD_CARD_LINE:
            in_header = False
        elif kind == _SECTION_LINE:
            section, in_header = seen[1], False
        elif kind == _HEADER_LINE:
            key = seen[1]
            if in_header or key in HEADER_KEYS:
                if key in out.header_lines:
                    out.problems.append(error("PARSE_ERROR", f"`{key}:` given again (first on line {out.header_lines[key]})",
                                              line=number))
                else:
                    out.header[key], out.header_lines[key] = seen[2], number
            else:
                out.problems.append(error("PARSE_ERROR", f"not a card line (expected `N CARD`): {quoted(seen[3])}", line=number))
    return out


def _read_line(raw: str, number: int, out: ParsedDeck, patterns: _Patterns, words: Any) -> tuple[Any, ...] | None:
    """What the line `raw` is (see `_known_lines`); None for a line with a problem, which goes into `out` as it is."""
    hidden = hidden_break(raw)
    if hidden:
        out.problems.append(error("PARSE_ERROR", f"the line holds {hidden}; put each card on a line of its own: {quoted(raw)}",
                                  line=number))
        return None
    line = raw.strip().lstrip("\ufeff")
    m = patterns.comment_section.match(line)
    if m:
        return (_SECTION_LINE, _section_of(m.group("name")))
    if not line or line.startswith("#") or line.startswith("//"):
        return (_SKIPPED,)
    line = _INLINE_COMMENT.sub("", line)
    m = patterns.section_title.match(line)
    if m:
        return (_SECTION_LINE, _section_of(m.group("name")))
    if patterns.heading.match(line):
        # `Существа:`, `Итого: 30 карт`: a group's heading or the list's total, no card and no new section.
        return (_SKIPPED,)
    side_prefix = _SIDE_PREFIX.match(line)
    rest = line[side_prefix.end():] if side_prefix else line
    m = (_CARD.match(rest) or _CARD_COUNT_AFTER.match(rest) or patterns.dash_count.match(rest)
         or patterns.unit_count.match(rest))
    if m:
        card = _arena_card(m.group("card").strip())
        bidi = bidi_control(card)
        if bidi:
            out.problems.append(error("PARSE_ERROR", f"the card text holds {bidi}: {quoted(line)}", line=number, card=card))
            return (_BAD_CARD_LINE,)
        digits = m.group("count")
        # The common line (`3 Guts`) is read once here; anything unusual goes through `whole_number`'s checks.
        count = int(digits) if len(digits) <= _SHORT_COUNT and digits.isdigit() else 0
        if 1 <= count <= MAX_COUNT:
            return (_CARD_LINE, side_prefix is not None, card, count)
        problem = _text_count_problem(digits, number, card)
        if problem:
            out.problems.append(problem)
            return (_BAD_CARD_LINE,)
        # A count `whole_number` reads but the short path does not (a long `000003`): an entry, not kept.
        return (_CARD_LINE_ONCE, side_prefix is not None, card, whole_number(digits))
    if side_prefix:
        out.problems.append(error("PARSE_ERROR", f"not a side-deck card line (expected `SB: N CARD`): {quoted(line)}",
                                  line=number))
        return None
    m = _HEADER.match(line)
    if m:
        return (_HEADER_LINE, words.header_key(m.group("key")), m.group("value").strip(), line)
    out.problems.append(error("PARSE_ERROR", f"not a card line (expected `N CARD`): {quoted(line)}", line=number))
    return None


def parse_json(data: Any) -> ParsedDeck | None:
    """A JSON deck object (header fields plus `main`/`side` lists); None if `data` is not an object."""
    if not isinstance(data, dict):
        return None
    out = ParsedDeck(source="json")
    for key, value in data.items():
        if key in ("main", "side"):
            continue
        if isinstance(value, str):
            out.header[str(key).lower()] = value.strip()
        else:
            out.problems.append(error("PARSE_ERROR", f"header field {quoted(key)} must be a string", pointer=f"/{key}"))
    for section in ("main", "side"):
        items = data.get(section, [])
        if not isinstance(items, list):
            out.problems.append(error("PARSE_ERROR", f"`{section}` must be a list of {{card, count}}", pointer=f"/{section}"))
            continue
        for i, item in enumerate(items):
            pointer = f"/{section}/{i}"
            card = item.get("card") if isinstance(item, dict) else None
            if not isinstance(card, str) or not card.strip():
                out.problems.append(error("PARSE_ERROR", "entry needs a `card` string and a `count`", pointer=pointer))
                continue
            count = item.get("count")
            problem = _count_problem(count, pointer=pointer, card=card.strip())
            if problem:
                out.problems.append(problem)
                continue
            out.entries.append(Entry(section=section, line=None, text=card.strip(), count=count, pointer=pointer))
    return out


def looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")
