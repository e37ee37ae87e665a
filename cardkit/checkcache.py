"""Which data files already passed their schema, remembered between runs; and the notes that other caches keep.

Checking the bundled format files with jsonschema on every run costs more than
the rest of `cardkit validate` (importing jsonschema and its metaschemas alone
is about 40 ms). Content that passed is remembered in `paths.cache_dir()`, in a
note holding the content itself, so that a later run compares bytes (nothing
short of the same bytes passes) and only a changed file, or a changed schema, is
checked again. The note is only ever a shortcut: when the cache folder can't be
read or written, every run checks, as it did before.

A note is named by what it is about (the kind of check and, for a catalogue or
format file, its path), never by its content: the note of a file that changes is
replaced by the note of its new content. So the folder holds one note per file
checked, as many as the catalogue has files, and nothing is ever pruned; a
catalogue of any size finds every note it needs.

The compiled schemas (`fastschema`) and the table statements (`db.build`) keep their notes in a
folder of their own beside this one, read and written by this module's one reader (`read_note`)
and one writer (`write_note`). A notes folder is used only when it is a real folder that this
user owns (`notes_folder`): cardkit never writes into or reads code from a folder it did not
create, such as a symbolic link to another folder of the user's, or one another user made in a
shared cache folder. Then nothing is noted, and every run checks, as it does when the cache
folder can't be written.
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
_NOTE_NAME = r"^[a-z0-9-]+-[0-9a-f]{8}-[0-9]+$"  # compiled by `re` on first use: only a run that notes needs it


def content(kind: str, blobs: Sequence[tuple[str, bytes]]) -> bytes:
    """Everything a check of `kind` depends on, as one byte string: version, names and bytes."""
    parts = [f"{kind}\0{__version__}\0".encode()]
    for name, data in blobs:
        parts.append(f"{name}\0{len(data)}\0".encode())
        parts.append(data)
    return b"".join(parts)


def note_name(kind: str, about: str = "") -> str:
    """The name of the note of `kind` about `about` (a file's path; nothing when there is one such note):
    `KIND-CRC32-LENGTH`."""
    # zlib.crc32 names the note; the comparison is of the whole content, so the name only needs to spread.
    data = about.encode("utf-8", "surrogateescape")
    return f"{kind}-{zlib.crc32(data):08x}-{len(data)}"


def about_file(path: str | os.PathLike[str]) -> str:
    """What a note about the file `path` is named by: its absolute path."""
    return os.path.abspath(path)


def notes_folder(kind_folder: str, create: bool = False) -> Path | None:
    """The cache's folder `kind_folder` when cardkit may use it: a folder, not a symbolic link to one, owned by
    this user (made now if absent and `create`); None otherwise, and then nothing is read or written."""
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
    """Keep `data` as the note `name` of the cache's folder `kind_folder`, in place of the note of that name
    before; a cache folder that can't be written, or that is not cardkit's own (see `notes_folder`), is not an
    error: nothing is kept."""
    from cardkit.errors import CardkitError
    from cardkit.outputs import Kind, Output

    folder = notes_folder(kind_folder, create=True)
    note = _own_note(folder, name) if folder is not None else None
    if note is None:
        return
    # A note may replace only an earlier note of its own folder, through the one guarded writer.
    own = Kind(noun, lambda path: path.parent.name == kind_folder and re.match(_NOTE_NAME, path.name) is not None,
               product=False)
    try:
        Output(note, own).write(data)
    except (CardkitError, OSError):
        return


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


def seen(kind: str, data: bytes, about: str = "") -> bool:
    """True when exactly this content passed its check of `kind` (about `about`: see `note_name`) before."""
    return read_note(_FOLDER, note_name(kind, about), len(data)) == data


def remember(kind: str, data: bytes, about: str = "") -> None:
    """Note that this content passed, in place of any earlier content of the same `kind` and `about`;
    a cache folder that can't be written is not an error."""
    write_note(_FOLDER, note_name(kind, about), data, "schema-check note")


def check_once(kind: str, blobs: Sequence[tuple[str, bytes]], check: Callable[[], None], about: str = "") -> None:
    """Call `check` (which raises on a fault) unless exactly these bytes (a data file and its schema)
    passed it before; remember them when it passes. jsonschema is then loaded only for new content."""
    data = content(kind, blobs)
    if seen(kind, data, about):
        return
    check()
    remember(kind, data, about)
