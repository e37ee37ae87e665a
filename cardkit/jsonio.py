"""Reading inputs safely: files and standard input within a size limit, UTF-8 text, JSON within depth and number limits."""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import sys
from collections.abc import Callable
from typing import Any

from cardkit.errors import UnreadableInput
from cardkit.visible import quoted, shortened

MAX_INPUT_BYTES = 1 << 20
"""Largest user-supplied file read, in bytes; readers read at most one byte more, whatever `stat()` says."""
MAX_CATALOGUE_BYTES = 16 << 20
"""Largest catalogue, format or schema file read; the biggest set file is a few hundred KiB."""
MAX_JSON_DEPTH = 64
"""Deepest nesting of JSON arrays and objects read; a deck needs 3, a catalogue file 5."""
MAX_NUMBER_DIGITS = 100
"""Longest number text read, in JSON or as a count; no count needs 100 digits, and Python refuses 4,300."""

_FILE_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


STDIN = "-"
"""The path that means standard input, wherever a file is read."""
STDIN_NAME = "<stdin>"
"""How standard input is named in reports and messages."""


def is_stdin(path: str | os.PathLike[str]) -> bool:
    """Whether `path` is `-`, standard input; a file really called `-` is `./-`."""
    return os.fspath(path) == STDIN


def input_name(path: str | os.PathLike[str]) -> str:
    """`path` as reports show it: `<stdin>` for `-`."""
    return STDIN_NAME if is_stdin(path) else str(path)


def _read_stdin(max_bytes: int) -> bytes:
    """At most `max_bytes` + 1 bytes of standard input, read until it ends.

    A terminal is read too (that is how a pasted list arrives; Ctrl-D ends it): the
    CLI says so on stderr before reading, since the library never prints.
    """
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise UnreadableInput(STDIN_NAME, "standard input is closed")
    chunks: list[bytes] = []
    size = 0
    try:
        while size <= max_bytes:
            chunk = stream.read(min(1 << 16, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except (OSError, ValueError) as exc:  # ValueError: a closed stream
        raise UnreadableInput(STDIN_NAME, f"standard input can't be read ({exc})") from None
    if size > max_bytes:
        raise UnreadableInput(STDIN_NAME, f"input is over {max_bytes} bytes; the limit is {max_bytes}")
    return b"".join(chunks)


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "a symbolic link loop"
    if exc.errno == errno.ENOENT:
        return "no such file"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return exc.strerror or "cannot be read"


def regular_file_status(path: str | os.PathLike[str]) -> os.stat_result:
    """`stat()` of `path` if it is a regular file; `UnreadableInput` saying what it is otherwise.

    Never opens the file, so a FIFO or a device is refused before it can block or stream forever.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise UnreadableInput(path, _os_reason(exc)) from None
    except ValueError:  # an embedded NUL in the name
        raise UnreadableInput(path, "not a valid file name") from None
    if stat.S_ISDIR(st.st_mode):
        raise UnreadableInput(path, "is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _FILE_KINDS if test(st.st_mode)), "a special file")
        raise UnreadableInput(path, f"is {kind}, not a regular file")
    return st


def read_bytes_input(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a user-supplied regular file, at most `max_bytes` of them.

    The size is counted while reading, never taken from `stat()` (a device reports 0).
    Raises `UnreadableInput` for a missing file, a directory, a FIFO, device or socket,
    a link loop, a permission error, or a file over the limit. `-` is standard input,
    read to its end under the same limit (a pipe is what it is meant to be).
    """
    if is_stdin(path):
        return _read_stdin(max_bytes)
    regular_file_status(path)
    try:
        # O_NONBLOCK: should the name be swapped for a FIFO after the check, opening it still can't hang.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise UnreadableInput(path, _os_reason(exc)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnreadableInput(path, "not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 16, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UnreadableInput(path, _os_reason(exc)) from None
    finally:
        os.close(fd)
    if size > max_bytes:
        raise UnreadableInput(path, f"file is over {max_bytes} bytes; the limit is {max_bytes}")
    return b"".join(chunks)


def decode_text(path: str | os.PathLike[str], data: bytes) -> str:
    """`data` as text: UTF-8 (BOM dropped), CRLF line ends made LF; `UnreadableInput` for binary or other encodings.

    Only LF and CRLF end a line: a lone CR stays inside its line (a comment keeps what follows
    it, and line numbers are an editor's), and reports show it escaped as `\\r`.
    """
    path = input_name(path)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data:
        from cardkit.encodinghints import not_text

        raise not_text(path, data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        from cardkit.encodinghints import encoding_hint

        read_as, advice = encoding_hint(path, data)
        raise UnreadableInput(path, f"not UTF-8 (byte {exc.start}){read_as}", hint=advice) from None
    # Looking for a CR among the bytes is quick; looking for CRLF in the decoded text of a big catalogue file is not.
    return text.replace("\r\n", "\n") if b"\r" in data else text


def read_text_input(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES) -> str:
    """Text of a user-supplied file (`-`: standard input): UTF-8 (BOM dropped), LF line ends, at most `max_bytes`.

    Raises `UnreadableInput` for anything that is not such a file.
    """
    return decode_text(path, read_bytes_input(path, max_bytes))


class InvalidJson(UnreadableInput):
    """The text is not JSON within cardkit's limits; `line` is where the decoder stopped, when known."""

    def __init__(self, path: object, reason: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(path, reason)


class _JsonLimit(ValueError):
    """A limit of `parse_json` hit inside the decoder."""


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _JsonLimit(f"a {len(text.lstrip('-'))}-digit number; the limit is {MAX_NUMBER_DIGITS} digits")
    return int(text)


def _json_float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS:
        raise _JsonLimit(f"a {len(text)}-character number; the limit is {MAX_NUMBER_DIGITS} characters")
    value = float(text)
    if not math.isfinite(value):
        raise _JsonLimit(f"{text[:24]} is too large a number")
    return value


def _json_constant(name: str) -> Any:
    # NaN and Infinity are not JSON, and echoing them back would make `--json` output invalid.
    raise _JsonLimit(f"{name} is not a JSON number")


_TOO_DEEP = f"JSON nested too deeply (the limit is {MAX_JSON_DEPTH} levels)"


def _list_depth(items: list[Any], depth_of: dict[int, int], level: int = 1) -> int:
    """Depth of a parsed array: its objects' depths are looked up (the decoder's hook noted them), its arrays
    walked, one level at a time. `_JsonLimit` as soon as it is past `MAX_JSON_DEPTH`, so recursion stays shallow."""
    if level > MAX_JSON_DEPTH:
        raise _JsonLimit(_TOO_DEEP)
    deepest = 0
    for value in items:
        kind = type(value)
        if kind is dict:
            below = depth_of[id(value)]
        elif kind is list:
            below = _list_depth(value, depth_of, level + 1)
        else:
            continue
        if below > deepest:
            deepest = below
    return deepest + 1


def parse_json(text: str, path: str | os.PathLike[str] = "<json>", duplicates: list[str] | None = None,
               duplicates_at: list[tuple[str, str]] | None = None) -> Any:
    """`text` parsed as JSON within cardkit's limits; `UnreadableInput` naming what is wrong.

    Refused: invalid JSON, nesting deeper than `MAX_JSON_DEPTH`, numbers longer than
    `MAX_NUMBER_DIGITS`, NaN/Infinity and numbers too large for a float, and a key given
    twice in one object. With `duplicates`, repeated keys are appended there instead
    (as `key`) for the caller to report, and the first value is kept; with `duplicates_at`
    too, each as (JSON pointer of the object holding it, key), such as `("/main/1", "count")`.
    """
    repeated: list[tuple[dict[str, Any], str]] = []
    # The depth of every object parsed so far, by id(): the decoder builds the innermost first, so each
    # object's depth follows from its children's while it is built, and no second walk over the result
    # is needed. The objects stay alive inside the result until the parse ends, so no id is reused.
    depth_of: dict[int, int] = {}

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            out = {}
            for key, value in items:
                if key in out:
                    if duplicates is None:
                        raise _JsonLimit(f"key {quoted(key, 40)} given twice in one object")
                    duplicates.append(key)
                    repeated.append((out, key))
                    continue
                out[key] = value
        deepest = 0
        for value in out.values():
            kind = type(value)
            if kind is dict:
                below = depth_of[id(value)]
            elif kind is list:
                below = _list_depth(value, depth_of, 2)
            else:
                continue
            if below > deepest:
                deepest = below
        if deepest >= MAX_JSON_DEPTH:
            raise _JsonLimit(_TOO_DEEP)
        depth_of[id(out)] = deepest + 1
        return out

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_int=_json_int, parse_float=_json_float,
                          parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise InvalidJson(path, f"not valid JSON: {exc.msg} at line {exc.lineno}", exc.lineno) from None
    except RecursionError:
        raise InvalidJson(path, _TOO_DEEP) from None
    except _JsonLimit as exc:
        raise InvalidJson(path, str(exc) if str(exc) == _TOO_DEEP else f"not valid JSON: {exc}") from None
    except ValueError as exc:  # int() past Python's own digit limit, should one slip by
        raise InvalidJson(path, f"not valid JSON: {exc}") from None
    if type(data) is list:  # only a top-level array was never seen whole by the hook
        try:
            too_deep = _list_depth(data, depth_of) > MAX_JSON_DEPTH
        except _JsonLimit:
            too_deep = True
        if too_deep:
            raise InvalidJson(path, _TOO_DEEP)
    if duplicates_at is not None and repeated:
        where = _pointers_of({id(obj) for obj, _ in repeated}, data)
        duplicates_at.extend((where.get(id(obj), ""), key) for obj, key in repeated)
    return data


def _pointer_token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _pointers_of(wanted: set[int], data: Any) -> dict[int, str]:
    """JSON pointer of each object in `data` whose `id()` is in `wanted`; found without recursion."""
    found: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack and len(found) < len(wanted):
        value, pointer = stack.pop()
        if isinstance(value, dict):
            if id(value) in wanted:
                found[id(value)] = pointer
            stack.extend((child, f"{pointer}/{_pointer_token(str(k))}") for k, child in value.items())
        elif isinstance(value, list):
            stack.extend((child, f"{pointer}/{i}") for i, child in enumerate(value))
    return found


def read_json_input(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES) -> Any:
    """Parsed JSON of a user-supplied file, through `read_text_input` and `parse_json`."""
    return parse_json(read_text_input(path, max_bytes), input_name(path))


def whole_number(text: str) -> int:
    """`text` (ASCII digits only, no sign; leading zeros ignored) as an int: the one parser of counts in text files.

    A count is never negative, so a sign is refused rather than read: `+3` and `-3` are
    errors wherever a count is written. ValueError with a short reason for anything else,
    including `²` or `٣` and numbers of more than `MAX_NUMBER_DIGITS` digits (which
    `int()` would take seconds over, or refuse).
    """
    digits = text.strip()
    if not digits or not digits.isascii() or not digits.isdigit():
        raise ValueError(f"{quoted(text, 24)} is not a whole number (ASCII digits, no sign)")
    significant = digits.lstrip("0") or "0"
    if len(significant) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a {len(significant)}-digit number is too large")
    return int(significant)


def json_shown(value: Any, n: int = 60) -> str:
    """A value read from JSON as a message shows it: a string quoted as `'text'`, anything else in
    JSON spelling (`true`, `null`, `{"type": "Berserker"}`), never Python's (`True`, `None`)."""
    if isinstance(value, str):
        return quoted(value, n)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON data after all; say what it is rather than fail
        text = repr(value)
    return shortened(text, n)


def schema_error_text(err: Any) -> str:
    """A jsonschema `ValidationError`'s message with the offending value in JSON spelling, not Python's.

    jsonschema writes the instance with `repr` (`True is not of type 'integer'`, `None is not one of [...]`).
    """
    message = str(err.message)
    if err.validator == "enum" and isinstance(err.validator_value, list):
        return f"{json_shown(err.instance)} is not one of {', '.join(json_shown(v) for v in err.validator_value)}"
    shown = repr(err.instance)
    if message.startswith(shown):
        return json_shown(err.instance) + message[len(shown):]
    return message


def dumps_canonical(data: Any) -> str:
    """Deterministic JSON text: the same data always gives the same bytes."""
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n"
