"""Words for input that is not UTF-8 text: what it reads as instead, and the `iconv` line that converts it.

Only a file that can't be read comes here (`jsonio.decode_text`), so a run that reads good input does not load it.
"""

from __future__ import annotations

import re

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
    the bytes read as, and the player converts the file knowingly.
    """
    runs = _HIGH_RUN.findall(data[:65536])
    high = sum(len(r) for r in runs)
    paired = sum(len(r) for r in runs if len(r) > 1)
    # Cyrillic: mostly words of several such bytes (and more than a stray pair); Latin-1: only lone ones.
    plausible = {"cp1251": high >= 3 and paired * 2 >= high, "latin-1": high > 0 and paired == 0}
    for encoding, label, name in (("cp1251", "Windows-1251 (Cyrillic)", "CP1251"), ("latin-1", "Latin-1", "LATIN1")):
        if not plausible[encoding]:
            continue
        try:
            decoded = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        # Said only when the bytes read as words of that script: other bytes are no text cardkit can name.
        letters = [c for c in decoded[:65536] if ord(c) > 127]
        wanted = (lambda c: "\u0400" <= c <= "\u04ff") if encoding == "cp1251" else str.isalpha
        if sum(1 for c in letters if wanted(c)) < 0.9 * len(letters):
            continue
        line = next((ln.strip() for ln in decoded.splitlines() if any(ord(c) > 127 for c in ln)), "")
        return f"; it reads as {label} text ({quoted(line, 40)}): {SAVE_AS_UTF8}", _iconv_advice(path, name)
    return "", None


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
