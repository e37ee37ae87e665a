"""Making user-supplied text visible before it reaches a terminal or a report.

A player name, a file name, a card line or a header value can hold an escape
sequence that clears the screen and draws a fake row, a carriage return that
overwrites one, a newline that splits a CSV row, or a right-to-left override
that reverses what follows. Every renderer passes such text through `visible`,
which writes each character Python does not call printable (controls, format
characters such as the bidi overrides, line and paragraph separators) the way
`repr` does: `\\x1b`, `\\r`, `\\n`, `\\u202e`; a byte of a file name that is not UTF-8 as
the byte, `\\xff` (not Python's `\\udcff`). The plain space stays a space.
"""

from __future__ import annotations

import re

# The patterns below are strings that `re` compiles on first use and keeps: compiling them all at import
# cost a short command (an engine's `moves`) half a millisecond, for text checks most runs never make.

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:
        # A byte that is not UTF-8 in a file name, which Python keeps as a lone surrogate: shown as the byte it is.
        code -= 0xDC00
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(value: object) -> str:
    """`value` as text with every non-printable character escaped; one line, nothing hidden."""
    text = "" if value is None else str(value)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


QUOTED_MOST = 80
"""How much of a user's text a message quotes: a 100,000-character query is not repeated in its error line."""


def shortened(text: str, most: int = QUOTED_MOST) -> str:
    """`text`, or past `most` characters only the first `most`, an ellipsis and how long it is:
    `aaaa… (100,000 characters)`. The one shortening of user text in messages (`quoted` quotes it too)."""
    return text if len(text) <= most else f"{text[:most]}… ({len(text):,} characters)"


_LONG_RUN = re.compile(rf"\S{{{QUOTED_MOST + 1},}}")


def shortened_message(text: str) -> str:
    """A message another library words (click's usage errors) with the user's text in it raw, shortened as
    `quoted` shortens: each run of more than `QUOTED_MOST` non-space characters `shortened`, and the whole
    past four times that. A 100,000-character argument is not repeated in its error line."""
    text = _LONG_RUN.sub(lambda m: shortened(m.group()), text)
    return shortened(text, 4 * QUOTED_MOST)


def quoted(value: object, most: int = QUOTED_MOST) -> str:
    """User text as every message quotes it: `repr`'s quotes and escapes (`'Guts'`, `'a\\x1bb'`), and past `most`
    characters only the first `most`, an ellipsis and how long it is: `'aaaa…' (100,000 characters)`.
    Anything but text is shown as `repr` shows it, shortened alike."""
    if not isinstance(value, str):
        return shortened(repr(value), most)
    if len(value) <= most:
        return repr(value)
    return f"{value[:most] + '…'!r} ({len(value):,} characters)"


# JSON escapes the C0 controls itself (raw ones in its text are the layout between tokens); everything
# else `visible` escapes it leaves raw when `ensure_ascii` is off: DEL, C1 controls, format characters
# such as bidi overrides and tag characters, separators, lone surrogates, unassigned code points.
_NOT_PLAIN_ASCII = "[^\x00-\x7e]+"


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xd800 + (code >> 10):04x}\\u{0xdc00 + (code & 0x3ff):04x}"


def _json_run(m: re.Match[str]) -> str:
    run = m.group()
    if run.isprintable():
        return run
    return "".join(ch if ch.isprintable() else _json_escape(ch) for ch in run)


def visible_json(text: str) -> str:
    """JSON text with every character `visible` escapes written as `\\uXXXX`: the same data, safe to print.

    Outside strings JSON holds only ASCII, so escaping across the whole text changes strings alone.
    """
    return re.sub(_NOT_PLAIN_ASCII, _json_run, text)


def visible_lines(text: str) -> str:
    """`visible` for each line of a multi-line text a program composed from user data: its own line
    breaks stay, every other control, escape or bidi character is written out."""
    return "\n".join(visible(line) for line in text.split("\n"))


# Spreadsheets run a cell starting with one of these as a formula; some read the full-width and small
# forms of the signs (typed with an East Asian input method) as the signs themselves.
FORMULA_START: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20",
                                  "\ufe66", "\ufe62", "\ufe63")
# A number is no formula: `-3` stays a number.
_PLAIN_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"


def csv_cell(value: object) -> str:
    """A CSV cell: made visible first (a CR or LF can't split the row), then kept text when a spreadsheet
    would run it as a formula (a leading `'`). Every CSV cardkit writes or serves goes through this."""
    text = visible(value)
    if text.startswith(FORMULA_START) and not re.fullmatch(_PLAIN_NUMBER, text):
        return "'" + text
    return text



# Unicode's other mandatory line breaks (UAX #14: NEL, LS, PS, VT, FF): an editor or a browser may show one
# as a line break inside what cardkit reads as one line (lines end at a newline), so what a reader sees
# would not be what is read. (A lone carriage return stays inside its line, as it always has.)
_HIDDEN_BREAK = "[\x0b\x0c\x85\u2028\u2029]"
# Bidirectional controls reorder what follows on screen: a name holding one shows other text than it holds.
_BIDI_CONTROL = "[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"


def hidden_break(text: str) -> str | None:
    """`U+XXXX, which other programs show as a line break` for the first such character in `text`, or None.

    Every reader of line-based or named input refuses these rather than strip them as whitespace.
    """
    m = re.search(_HIDDEN_BREAK, text)
    return f"U+{ord(m.group()):04X}, which other programs show as a line break" if m else None


def bidi_control(text: str) -> str | None:
    """`U+XXXX, a bidirectional control that makes it display as other text` for the first in `text`, or None."""
    m = re.search(_BIDI_CONTROL, text)
    return f"U+{ord(m.group()):04X}, a bidirectional control that makes it display as other text" if m else None


def misleading(text: str) -> str | None:
    """What in a name or card text makes it show as other text than it holds (`hidden_break`, `bidi_control`)."""
    return hidden_break(text) or bidi_control(text)
