"""Which SQLite files one Datasette instance serves, and under which names.

The catalogue is always `cardkit`; each attached file (`cardkit serve --attach`)
is named after its file stem, made URL-safe and unique. Everything is checked
here, before a server starts, so a bad file is one error rather than a broken page.
"""

from __future__ import annotations

import os
import re
import sqlite3
import unicodedata
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path

from cardkit.errors import BadArgument
from cardkit.textfold import transliterate
from cardkit.web.metadata import CATALOGUE_DB

SQLITE_HEADER = b"SQLite format 3\x00"
FALLBACK_NAME = "db"


def url_name(stem: str) -> str:
    """`stem` as a database name that needs no escaping in a URL: ASCII letters, digits, `-` and `_`.

    Cyrillic is transliterated and accents dropped (`Весна` is `Vesna`); a leading `_` goes too,
    as Datasette keeps such names (`_internal`, `_memory`) for itself.
    """
    latin = "".join(ch for ch in unicodedata.normalize("NFKD", transliterate(stem)) if not unicodedata.combining(ch))
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", latin).strip("-_")
    return name or FALLBACK_NAME


def check_sqlite(path: Path) -> None:
    """BadArgument unless `path` is a readable SQLite database file."""
    from cardkit.errors import UnreadableInput
    from cardkit.jsonio import regular_file_status

    try:
        regular_file_status(path)  # before opening: a FIFO would block the read below
    except UnreadableInput as exc:
        raise BadArgument(exc.message, parameter="attach") from None
    try:
        with open(path, "rb") as fh:
            header = fh.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise BadArgument(f"{path}: {exc.strerror or exc}", parameter="attach") from None
    if header != SQLITE_HEADER:
        raise BadArgument(f"{path}: not a SQLite database", parameter="attach")
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        raise BadArgument(f"{path}: not a readable SQLite database ({exc})", parameter="attach") from None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def served_databases(catalogue: Path, attached: Iterable[Path] = ()) -> dict[str, Path]:
    """Name -> file for the catalogue (as `cardkit`) and each attached SQLite file; BadArgument for a bad one.

    Refused: a missing file, a directory, a file that is not SQLite, the catalogue itself, a file given twice.
    Names clashing with one already taken get `-2`, `-3`, ...
    """
    databases: dict[str, Path] = {CATALOGUE_DB: Path(catalogue)}
    for path in map(Path, attached):
        check_sqlite(path)
        if _same_file(path, catalogue):
            raise BadArgument(f"{path}: that is the catalogue, already served as /{CATALOGUE_DB}", parameter="attach")
        if any(_same_file(path, other) for other in list(databases.values())[1:]):
            raise BadArgument(f"{path}: attached twice", parameter="attach")
        base = url_name(path.stem)
        name, n = base, 1
        while name in databases:
            n += 1
            name = f"{base}-{n}"
        databases[name] = path
    return databases
