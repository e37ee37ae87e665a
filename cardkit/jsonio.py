"""Reading inputs safely and writing outputs atomically."""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

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


@contextmanager
def atomic_target(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A fresh temporary path beside `path`, renamed over it when the block ends without error.

    On any error or interrupt the temporary file is removed and `path` is left as it was.
    OSError from creating the file propagates for the caller to word.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # The pid in the name lets a later writer tell a killed write's leftover from a live one.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        # mkstemp makes the file private; what cardkit writes is meant to be read by other tools.
        tmp.chmod(0o644)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write `data` to `path` through `atomic_target`: a crash mid-write leaves the old file intact."""
    with atomic_target(path) as tmp:
        tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
