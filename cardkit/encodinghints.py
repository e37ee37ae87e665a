"""Words for input that is not UTF-8 text: what it reads as instead, and the `iconv` line that converts it.

Only a file that can't be read comes here (`jsonio.decode_text`), so a run that reads good input does not load it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cardkit.errors import UnreadableInput
from cardkit.visible import quoted


def not_text(path: str, data: bytes) -> UnreadableInput:
    """The error for `data` that holds UTF-16's byte-order mark or a NUL byte: UTF-16, or a binary file."""
    if data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        # UTF-32's mark begins with UTF-16's: converted as UTF-16 it would come out with a NUL per letter.
        return UnreadableInput(path, f"UTF-32 text, not UTF-8: {SAVE_AS_UTF8}", hint=_iconv_advice(path, "UTF-32"))
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        # What Windows editors save as "Unicode": its NUL bytes would otherwise read as a binary file.
        return UnreadableInput(path, f"UTF-16 text, not UTF-8: {SAVE_AS_UTF8}", hint=_iconv_advice(path, "UTF-16"))
    if (order := _utf16_without_bom(data)) is not None:
        return UnreadableInput(path, f"{order} text without a byte-order mark, not UTF-8: {SAVE_AS_UTF8}",
                               hint=_iconv_advice(path, order))
    return UnreadableInput(path, f"holds a NUL byte at {_where_byte(data, data.index(0))} (a binary file?)")


def _where_byte(data: bytes, index: int) -> str:
    """`line L, column C` of the byte at `index`, as an editor counts them (columns in characters)."""
    start = data.rfind(b"\n", 0, index) + 1
    if start == 0 and data.startswith(b"\xef\xbb\xbf"):
        start = 3
    line = data.count(b"\n", 0, index) + 1
    column = len(data[start:index].decode("utf-8", "replace")) + 1
    return f"line {line}, column {column}"


# What a file in another encoding needs, in words true wherever they are read; a terminal adds the iconv line.
SAVE_AS_UTF8 = "save it as UTF-8"


def _utf16_without_bom(data: bytes) -> str | None:
    """`UTF-16LE` or `UTF-16BE` when NUL-laden bytes read strictly as lines of printable text in that order.

    Some exporters write UTF-16 with no byte-order mark; its ASCII letters carry a NUL byte each. Said
    only when at least a quarter of the bytes in one order's high-byte places are NUL and every character
    is printable text (no NUL, no control but line ends and tabs), which binary data almost never is;
    cardkit still does not decode it, it names the `iconv` line.
    """
    if len(data) % 2:
        return None
    sample = data[:65536]
    for order, high in (("UTF-16LE", sample[1::2]), ("UTF-16BE", sample[::2])):
        # Every ASCII character (the header, counts, spaces, line ends) puts a NUL in its high byte: a deck
        # by Russian names still has a third of them. A stray NUL or two in UTF-8 text is damage, not UTF-16,
        # and its iconv line would garble the file.
        if high.count(0) * 4 < len(high):
            continue
        try:
            text = sample.decode(order.lower())
        except UnicodeDecodeError:
            continue
        if text.strip() and all(c.isprintable() or c in "\r\n\t" for c in text):
            return order
    return None


# Russian text in Windows-1251 is words of bytes over 0x7F; Latin-1 (a German export) has one such byte
# between ASCII letters (`Gr\xfcn`). The share of high bytes that stand beside another tells them apart.
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")


def encoding_hint(path: str, data: bytes) -> tuple[str, str | None]:
    """What a file that is not UTF-8 looks like instead (empty if unclear), and the `iconv` line that
    converts it: the terminal's advice, kept apart (`UnreadableInput.hint`).

    cardkit never decodes such a file itself (a wrong guess reads as other cards): it says what
    the bytes read as, and the player converts the file knowingly. Cyrillic bytes are named
    Windows-1251 or KOI8-R when their letters tell which (`cyrillic_encodings`), else both.
    """
    runs = _HIGH_RUN.findall(data[:65536])
    high = sum(len(r) for r in runs)
    paired = sum(len(r) for r in runs if len(r) > 1)
    # Cyrillic: mostly words of several such bytes (and more than a stray pair); Latin-1: only lone ones.
    if high >= 3 and paired * 2 >= high:
        readings = [(label, name, line) for encoding, label, name in cyrillic_encodings(data)
                    if (line := _reads_as(data, encoding, _is_cyrillic)) is not None]
        if len(readings) == 1:
            label, name, line = readings[0]
            return f"; it reads as {label} (Cyrillic) text ({quoted(line, 40)}): {SAVE_AS_UTF8}", _iconv_advice(path, name)
        if len(readings) == 2:
            (first, name, line), (second, other, other_line) = readings
            return (f"; it reads as Cyrillic text, {first} ({quoted(line, 40)}) or {second} ({quoted(other_line, 40)}), "
                    f"and its letters don't tell which: {SAVE_AS_UTF8}",
                    _iconv_advice(path, name) + f"; if its text comes out wrong, use `-f {other}` instead")
    elif high > 0 and paired == 0:
        line = _reads_as(data, "latin-1", str.isalpha)
        if line is not None:
            return f"; it reads as Latin-1 text ({quoted(line, 40)}): {SAVE_AS_UTF8}", _iconv_advice(path, "LATIN1")
    return "", None


def _is_cyrillic(c: str) -> bool:
    return "\u0400" <= c <= "\u04ff"


def _reads_as(data: bytes, encoding: str, wanted: Callable[[str], bool]) -> str | None:
    """The first line with a letter past ASCII when `data` reads as `encoding` with such letters all of `wanted`'s
    kind (nine in ten): other bytes are no text cardkit can name. None otherwise."""
    try:
        decoded = data.decode(encoding)
    except UnicodeDecodeError:
        return None
    letters = [c for c in decoded[:65536] if ord(c) > 127]
    if sum(1 for c in letters if wanted(c)) < 0.9 * len(letters):
        return None
    return next((ln.strip() for ln in decoded.splitlines() if any(ord(c) > 127 for c in ln)), "")


# How often each Russian letter comes in running text (per cent). The two encodings put the same letters on
# other bytes, so the wrong one reads as rare letters: `Кочевник` in Windows-1251, read as KOI8-R, is `йНВЕБМХЙ`.
_RUSSIAN = dict(zip("оеаинтсрвлкмдпуяыьгзбчйхжшюцщэфъё",
                    (10.97, 8.45, 8.01, 7.35, 6.70, 6.26, 5.47, 4.73, 4.54, 4.40, 3.49, 3.21, 2.98, 2.81, 2.62, 2.01, 1.90,
                     1.74, 1.70, 1.65, 1.59, 1.44, 1.21, 0.97, 0.94, 0.73, 0.64, 0.48, 0.36, 0.32, 0.26, 0.04, 0.04)))
_CYRILLIC = (("cp1251", "Windows-1251", "CP1251"), ("koi8_r", "KOI8-R", "KOI8-R"))


def _letter_score(text: str) -> tuple[float, int]:
    """The mean log-frequency of `text`'s Russian letters (case folded), and how many there are."""
    import math

    letters = [c for c in text.lower() if c in _RUSSIAN]
    if not letters:
        return -99.0, 0
    return sum(math.log(_RUSSIAN[c]) for c in letters) / len(letters), len(letters)


def cyrillic_encodings(data: bytes) -> list[tuple[str, str, str]]:
    """Which of Windows-1251 and KOI8-R Cyrillic `data` is in, as (codec, label, iconv name): one when its letters
    tell, both (Windows-1251 first) when they don't.

    Two signs. Case: the encodings swap the halves of 0xC0-0xFF (Windows-1251 has capitals below 0xE0 and small
    letters above, KOI8-R the other way round), so a capitalised word, one byte from one half and the rest from the
    other, says which half holds the small letters; a word all in one half (in capitals, or all small) says nothing.
    Letters: how common the letters each reading gives are in Russian. Case decides unless the letters say
    otherwise strongly; letters alone decide only from a line's worth of them; otherwise both are named.
    """
    sample = data[:65536]
    scores = {codec: _letter_score(sample.decode(codec, "replace")) for codec, _, _ in _CYRILLIC}
    (cp_score, cp_letters), (koi_score, koi_letters) = scores["cp1251"], scores["koi8_r"]
    by_letters = cp_score - koi_score if min(cp_letters, koi_letters) >= 3 else 0.0
    letters_say = (0 if by_letters > 0 else 1) if abs(by_letters) >= 0.4 and min(cp_letters, koi_letters) >= 12 else None
    small_above = small_below = 0
    for word in _CASED_WORD.findall(sample):
        rest = word[1:]
        if (word[0] >= 0xE0) != (rest[0] >= 0xE0) and all((b >= 0xE0) == (rest[0] >= 0xE0) for b in rest):
            if rest[0] >= 0xE0:
                small_above += 1
            else:
                small_below += 1
    case_says = None
    if max(small_above, small_below) >= 1 and min(small_above, small_below) * 3 < max(small_above, small_below):
        case_says = 0 if small_above > small_below else 1
    if case_says is not None and letters_say in (None, case_says):
        return [_CYRILLIC[case_says]]
    if case_says is None and letters_say is not None:
        return [_CYRILLIC[letters_say]]
    return list(_CYRILLIC)


# A word of at least two letters from 0xC0-0xFF, the range both encodings give their 64 letters (less Ё).
_CASED_WORD = re.compile(rb"[\xc0-\xff]{2,}")


def _iconv_advice(path: str, encoding: str) -> str:
    """The `iconv` line that turns the file at `path` from `encoding` into UTF-8 beside it (a pipe for stdin)."""
    from cardkit.jsonio import STDIN_NAME, is_stdin

    if is_stdin(path) or path == STDIN_NAME:
        return f"pipe it through `iconv -f {encoding} -t UTF-8` first"
    import shlex

    if path.startswith("-"):
        # iconv would read such a name as its options.
        path = f"./{path}"
    return (f"convert it with `iconv -f {encoding} -t UTF-8 {shlex.quote(path)} > {shlex.quote(_utf8_name(path))}` "
            "and use the new file")


def _utf8_name(path: str) -> str:
    """`deck.utf8.deck` beside `deck.deck`: the converted file keeps the extension that says what it is."""
    stem, dot, ext = path.rpartition(".")
    return f"{stem}.utf8.{ext}" if dot and stem and "/" not in ext else f"{path}.utf8"
