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
from collections.abc import Sequence
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
    try:
        return _note(kind, data).read_bytes() == data
    except OSError:
        return False


def remember(kind: str, data: bytes) -> None:
    """Note that this content passed; a cache folder that can't be written is not an error."""
    try:
        note = _note(kind, data)
        note.parent.mkdir(parents=True, exist_ok=True)
        note.write_bytes(data)  # a torn write only fails the comparison, so no temporary file is needed
    except OSError:
        pass
