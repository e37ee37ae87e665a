"""Reading inputs safely and writing outputs atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from cardkit.errors import UnreadableInput

MAX_INPUT_BYTES = 1 << 20


def read_text_input(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES) -> str:
    """Text of a user-supplied file: UTF-8 (BOM dropped), LF line ends, at most `max_bytes`.

    Raises `UnreadableInput` for anything that is not such a file.
    """
    p = Path(path)
    if not p.exists():
        raise UnreadableInput(p, "no such file")
    if p.is_dir():
        raise UnreadableInput(p, "is a directory, not a file")
    try:
        size = p.stat().st_size
        if size > max_bytes:
            raise UnreadableInput(p, f"file is {size} bytes; the limit is {max_bytes}")
        data = p.read_bytes()
    except OSError as exc:
        raise UnreadableInput(p, exc.strerror or "cannot be read") from None
    if b"\x00" in data:
        raise UnreadableInput(p, "binary file (contains NUL bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableInput(p, f"not UTF-8 (byte {exc.start})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_json_input(path: str | os.PathLike[str], max_bytes: int = MAX_INPUT_BYTES) -> Any:
    """Parsed JSON of a user-supplied file; `UnreadableInput` when it is not JSON."""
    text = read_text_input(path, max_bytes)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableInput(path, f"not valid JSON: {exc.msg} at line {exc.lineno}") from None


def dumps_canonical(data: Any) -> str:
    """Deterministic JSON text: the same data always gives the same bytes."""
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n"


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write to a temporary file beside `path`, then rename over it.

    A crash mid-write leaves the previous file intact.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
