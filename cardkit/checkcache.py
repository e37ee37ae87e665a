"""Which data files already passed their schema, remembered by content between runs.

Checking the bundled format files with jsonschema on every run costs more than
the rest of `cardkit validate` (importing jsonschema and its metaschemas alone
is about 40 ms). Content that passed is remembered in `paths.cache_dir()`, in a
note named by its checksum and holding the content itself, so that a later run
compares bytes (no checksum collision can pass a changed file) and only a
changed file, or a changed schema, is checked again. The note is only ever a
shortcut: when the cache folder can't be read or written, every run checks, as
it did before.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

from cardkit import __version__, paths

_FOLDER = "checked"


def content(kind: str, blobs: Sequence[tuple[str, bytes]]) -> bytes:
    """Everything a check of `kind` depends on, as one byte string: version, names and bytes."""
    parts = [f"{kind}\0{__version__}\0".encode()]
    for name, data in blobs:
        parts.append(f"{name}\0{len(data)}\0".encode())
        parts.append(data)
    return b"".join(parts)


def _note(kind: str, data: bytes) -> Path:
    # zlib.crc32 names the note; the comparison is of the whole content, so the name only needs to spread.
    return paths.cache_dir() / _FOLDER / f"{kind}-{zlib.crc32(data):08x}-{len(data)}"


def seen(kind: str, data: bytes) -> bool:
    """True when exactly this content passed its check before."""
    from cardkit.errors import CardkitError
    from cardkit.jsonio import read_bytes_input

    try:
        # The guarded reader: a FIFO or device planted in the cache folder is refused, never waited on.
        return read_bytes_input(_note(kind, data), len(data)) == data
    except (CardkitError, OSError):
        return False


def remember(kind: str, data: bytes) -> None:
    """Note that this content passed; a cache folder that can't be written is not an error."""
    from cardkit.errors import CardkitError
    from cardkit.outputs import Kind, Output

    note = _note(kind, data)
    # A note may replace only an earlier note of the cache's own folder, through the one guarded writer.
    own = Kind("schema-check note", lambda path: path.parent.name == _FOLDER and path.name.startswith(f"{kind}-"))
    try:
        note.parent.mkdir(parents=True, exist_ok=True)
        Output(note, own).write(data)
    except (CardkitError, OSError):
        pass


def check_once(kind: str, blobs: Sequence[tuple[str, bytes]], check: Callable[[], None]) -> None:
    """Call `check` (which raises on a fault) unless exactly these bytes (a data file and its schema)
    passed it before; remember them when it passes. jsonschema is then loaded only for new content."""
    data = content(kind, blobs)
    if seen(kind, data):
        return
    check()
    remember(kind, data)
