"""Which data files already passed their schema, remembered by content between runs.

Checking the bundled format files with jsonschema on every run costs more than
the rest of `cardkit validate` (importing jsonschema and its metaschemas alone
is about 40 ms). Content that passed is remembered in `paths.cache_dir()`, in a
note named by its checksum and holding the content itself, so that a later run
compares bytes (no checksum collision can pass a changed file) and only a
changed file, or a changed schema, is checked again. The note is only ever a
shortcut: when the cache folder can't be read or written, every run checks, as
it did before.

Every edit of a catalogue file leaves a note of its new content, so notes are
pruned whenever one is written: the newest `KEEP_NOTES` are kept, within
`KEEP_BYTES` together, and an older one is simply checked and noted again if it
is ever needed. Only the folder's own notes (regular files named as `_note`
names them) are ever removed.

The card records (`catalogue.records`) and the compiled schemas (`fastschema`) keep their notes
in folders of their own beside this one, read, written and pruned by this module's one reader
(`read_note`), one writer (`write_note`) and one pruning (`prune`). A notes folder is used only
when it is a real folder that this user owns (`notes_folder`): cardkit never writes into, reads
code from or prunes a folder it did not create, such as a symbolic link to another folder of the
user's, or one another user made in a shared cache folder. Then nothing is noted, and every run
checks, as it does when the cache folder can't be written.
"""

from __future__ import annotations

import os
import re
import stat
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

from cardkit import __version__, paths

_FOLDER = "checked"
# A run of cardkit notes about 30 files (the catalogue's, the formats', the battle data's); room for several
# versions of each, and far less than the catalogue itself.
KEEP_NOTES = 200
KEEP_BYTES = 32 * 1024 * 1024
_NOTE_NAME = r"^[a-z0-9-]+-[0-9a-f]{8}-[0-9]+$"  # compiled by `re` on first use: most runs prune nothing


def content(kind: str, blobs: Sequence[tuple[str, bytes]]) -> bytes:
    """Everything a check of `kind` depends on, as one byte string: version, names and bytes."""
    parts = [f"{kind}\0{__version__}\0".encode()]
    for name, data in blobs:
        parts.append(f"{name}\0{len(data)}\0".encode())
        parts.append(data)
    return b"".join(parts)


def note_name(kind: str, data: bytes) -> str:
    """The name of the note of `data` (a content or a key) in its folder: `KIND-CRC32-LENGTH`."""
    # zlib.crc32 names the note; the comparison is of the whole content, so the name only needs to spread.
    return f"{kind}-{zlib.crc32(data):08x}-{len(data)}"


def _note(kind: str, data: bytes) -> Path:
    return paths.cache_dir() / _FOLDER / note_name(kind, data)


def notes_folder(kind_folder: str, create: bool = False) -> Path | None:
    """The cache's folder `kind_folder` when cardkit may use it: a folder, not a symbolic link to one, owned by
    this user (made now if absent and `create`); None otherwise, and then nothing is read, written or pruned."""
    folder = paths.cache_dir() / kind_folder
    try:
        if create and not os.path.lexists(folder):
            folder.parent.mkdir(parents=True, exist_ok=True)
            folder.mkdir(exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    getuid = getattr(os, "getuid", None)  # POSIX; elsewhere a folder is not owned by a user id
    if not stat.S_ISDIR(info.st_mode) or (getuid is not None and info.st_uid != getuid()):
        return None
    return folder


def _own_note(folder: Path, name: str) -> Path | None:
    """`folder/name` unless something other than a regular file (a link, a folder, a FIFO) stands there."""
    path = folder / name
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError:
        return None
    return path if stat.S_ISREG(info.st_mode) else None


def read_note(kind_folder: str, name: str, most: int) -> bytes | None:
    """The bytes of the note `name` of the cache's folder `kind_folder`, at most `most`; None when there is none
    or it can't be read, or when the folder or the note is not cardkit's own (see `notes_folder`)."""
    from cardkit.errors import CardkitError
    from cardkit.jsonio import read_bytes_input

    folder = notes_folder(kind_folder)
    path = _own_note(folder, name) if folder is not None else None
    if path is None:
        return None
    try:
        # The guarded reader: a FIFO or device put in place of the note meanwhile is refused, never waited on.
        return read_bytes_input(path, most)
    except (CardkitError, OSError):
        return None


def write_note(kind_folder: str, name: str, data: bytes, noun: str) -> None:
    """Keep `data` as the note `name` of the cache's folder `kind_folder` and prune that folder; a cache folder
    that can't be written, or that is not cardkit's own (see `notes_folder`), is not an error: nothing is kept."""
    from cardkit.errors import CardkitError
    from cardkit.outputs import Kind, Output

    folder = notes_folder(kind_folder, create=True)
    note = _own_note(folder, name) if folder is not None else None
    if note is None:
        return
    # A note may replace only an earlier note of its own folder, through the one guarded writer.
    own = Kind(noun, lambda path: path.parent.name == kind_folder and re.match(_NOTE_NAME, path.name) is not None)
    try:
        Output(note, own).write(data)
    except (CardkitError, OSError):
        return
    prune(keep=note, kept_bytes=len(data), kind_folder=kind_folder)


def read_keyed_note(kind_folder: str, name: str, key: bytes, most: int) -> bytes | None:
    """What the note `name` holds after its first line, if that line is exactly `key` (`write_keyed_note`); None
    otherwise, as for `read_note`: a note found by a name made from a digest of `key` must still hold that key."""
    note = read_note(kind_folder, name, most)
    if note is None or note[:len(key)] != key or note[len(key):len(key) + 1] != b"\n":
        return None
    return note[len(key) + 1:]


def write_keyed_note(kind_folder: str, name: str, key: bytes, payload: bytes, noun: str) -> None:
    """Keep `payload` under the first line `key` as the note `name` (see `write_note`); `read_keyed_note` reads it."""
    write_note(kind_folder, name, key + b"\n" + payload, noun)


def seen(kind: str, data: bytes) -> bool:
    """True when exactly this content passed its check before."""
    return read_note(_FOLDER, note_name(kind, data), len(data)) == data


def remember(kind: str, data: bytes) -> None:
    """Note that this content passed; a cache folder that can't be written is not an error."""
    write_note(_FOLDER, note_name(kind, data), data, "schema-check note")


def prune(keep: Path | None = None, kept_bytes: int = 0, kind_folder: str = _FOLDER) -> None:
    """Remove all but the newest `KEEP_NOTES` notes (within `KEEP_BYTES` together) of one folder of the cache
    (this module's, or another cache's of notes named the same way: the card records', the compiled schemas');
    never `keep`, the note just written, nor anything in the folder that is not a note (another name, a link,
    a folder), nor anything in a folder that is not cardkit's own (see `notes_folder`)."""
    folder = notes_folder(kind_folder)
    if folder is None:
        return
    notes: list[tuple[float, str, int]] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not re.match(_NOTE_NAME, entry.name) or (keep is not None and entry.name == keep.name):
                    continue
                info = entry.stat(follow_symlinks=False)
                if stat.S_ISREG(info.st_mode):
                    notes.append((info.st_mtime, entry.name, info.st_size))
    except OSError:
        return
    notes.sort(reverse=True)
    count, size = (1, kept_bytes) if keep is not None else (0, 0)
    for _, name, bytes_ in notes:
        count, size = count + 1, size + bytes_
        if count > KEEP_NOTES or size > KEEP_BYTES:
            try:
                os.unlink(folder / name)
            except OSError:
                pass


def check_once(kind: str, blobs: Sequence[tuple[str, bytes]], check: Callable[[], None]) -> None:
    """Call `check` (which raises on a fault) unless exactly these bytes (a data file and its schema)
    passed it before; remember them when it passes. jsonschema is then loaded only for new content."""
    data = content(kind, blobs)
    if seen(kind, data):
        return
    check()
    remember(kind, data)
