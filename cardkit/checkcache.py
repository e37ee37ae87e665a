"""Which data files already passed their schema, remembered by content hash between runs.

Checking the bundled format files with jsonschema on every run costs more than
the rest of `cardkit validate` (importing jsonschema and its metaschemas alone
is about 40 ms). A set of files that passed is remembered as an empty file named
by the SHA-256 of their names and bytes (the schema's among them) in
`paths.cache_dir()`, so only a changed file, or a changed schema, is checked
again. The note is only ever a shortcut: when the cache folder can't be written,
every run checks, as it did before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from cardkit import __version__, paths

_FOLDER = "checked"


def content_key(kind: str, blobs: Sequence[tuple[str, bytes]]) -> str:
    """A key for `kind` over (name, bytes) pairs; it changes when any name or byte does."""
    digest = hashlib.sha256(f"{kind}\0{__version__}\0".encode())
    for name, data in blobs:
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return f"{kind}-{digest.hexdigest()}"


def seen(key: str) -> bool:
    """True when files with this key passed their check before."""
    try:
        return (paths.cache_dir() / _FOLDER / key).is_file()
    except OSError:
        return False


def remember(key: str) -> None:
    """Note that files with this key passed; a cache folder that can't be written is not an error."""
    try:
        folder = paths.cache_dir() / _FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        (folder / key).touch()
    except OSError:
        pass
