"""`cardkit build`: the catalogue as one SQLite file, written atomically and rebuilt when stale."""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cardkit import __version__, paths
from cardkit.catalogue.store import catalogue_hash, read_catalogue_bytes
from cardkit.db.rows import CatalogueRows, catalogue_rows, format_files
from cardkit.errors import CatalogueError
from cardkit.outputs import Kind, Output, sqlite_tables

# Bump when tables or columns change, so databases built by older code are rebuilt.
LAYOUT_VERSION = "6"
# The `meta` row that marks a file as cardkit's catalogue database, so no other SQLite file
# (a tournament database, someone's own with a table called `meta`) is ever taken for one.
KIND = "cardkit-catalogue"
# The meta keys of databases built before the marker: recognised so an existing build is rebuilt, not refused.
_UNMARKED_META = {"built_at", "catalogue_hash", "formats_hash", "layout", "version"}


@dataclass(frozen=True)
class BuildResult:
    path: Path
    counts: dict[str, int]
    meta: dict[str, str]

    def to_dict(self) -> dict[str, object]:
        return {"path": str(self.path), "tables": self.counts, "meta": self.meta}


def formats_hash(formats_dir: Path | None = None) -> str:
    """SHA-256 over the format files, so a changed format makes the database stale."""
    digest = hashlib.sha256()
    for path in format_files(formats_dir):
        digest.update(path.name.encode() + b"\0" + read_catalogue_bytes(path))
    return digest.hexdigest()


def wanted_meta(cards_dir: Path | None = None, formats_dir: Path | None = None) -> dict[str, str]:
    """The meta values a fresh database would have, apart from its build time."""
    return {
        "kind": KIND,
        "catalogue_hash": catalogue_hash(cards_dir),
        "formats_hash": formats_hash(formats_dir),
        "layout": LAYOUT_VERSION,
        "version": __version__,
    }


Tables = list[tuple[str, list[str], str, list[str]]]


def table_sql() -> Tables:
    """Each table of the models (cardkit/db/models.py, the one schema): its name, its columns in order,
    the statement that creates it, and those that create its indexes.

    Importing sqlmodel and SQLAlchemy costs more than the rest of a build. The statements depend only on
    the models' source and on those two libraries, so they are remembered in the cache folder in one note,
    with that content (the models' file, this module, which makes them, and each library's `__init__.py`,
    which holds its version), and a later build reads them without importing either.
    """
    return _table_sql()[0]


def _table_sql(trust_note: bool = True) -> tuple[Tables, bool]:
    """`table_sql()`, and whether it came from the note; with `trust_note` off, made from the models and noted afresh."""
    key = _models_key()
    found = _remembered_tables(key) if key is not None and trust_note else None
    if found is not None:
        return found, True
    found = _tables_of_models()
    if key is not None:
        _remember_tables(key, found)
    return found, False


def _tables_of_models() -> Tables:
    from sqlalchemy.dialects import sqlite
    from sqlalchemy.schema import CreateIndex, CreateTable

    from cardkit.db.models import MODELS

    dialect = sqlite.dialect()
    found = []
    # Only our tables: other modules may define sqlmodel tables of their own.
    # SQLModel's metaclass gives each table model a __table__ that its type stubs do not declare.
    for model in MODELS:
        table = model.__table__  # type: ignore[attr-defined]
        indexes = [str(CreateIndex(index).compile(dialect=dialect)).strip()
                   for index in sorted(table.indexes, key=lambda i: i.name)]
        found.append((str(table.name), [str(c.name) for c in table.columns],
                      str(CreateTable(table).compile(dialect=dialect)).strip(), indexes))
    return found


_TABLES_FOLDER = "compiled"


def _models_key() -> bytes | None:
    """Everything the statements depend on, found without importing the libraries; None if a file can't be read."""
    from importlib.util import find_spec

    parts = [b"tables", __version__.encode()]
    try:
        parts.append(Path(__file__).with_name("models.py").read_bytes())
        # This module's own code turns the models into statements: a change to it must not reuse an old note.
        parts.append(Path(__file__).read_bytes())
        for package in ("sqlalchemy", "sqlmodel"):
            spec = find_spec(package)
            if spec is None or spec.origin is None:
                return None
            parts.append(Path(spec.origin).read_bytes())
    except (OSError, ValueError):
        return None
    return b"\0".join(parts)


def _remembered_tables(key: bytes) -> Tables | None:
    """The statements remembered for exactly `key`, if a note holds them."""
    import json

    from cardkit import checkcache

    note = checkcache.read_keyed_note(_TABLES_FOLDER, checkcache.note_name("tables"), key, len(key) + (1 << 20))
    if note is None:
        return None
    try:
        tables = json.loads(note)
    except ValueError:
        return None
    if not (isinstance(tables, list) and tables and all(
            isinstance(t, list) and len(t) == 4 and isinstance(t[0], str) and isinstance(t[2], str)
            and all(isinstance(x, list) and all(isinstance(y, str) for y in x) for x in (t[1], t[3]))
            for t in tables)):
        return None
    return [(name, columns, create, indexes) for name, columns, create, indexes in tables]


def _remember_tables(key: bytes, tables: Tables) -> None:
    """Keep the statements for the next build; a cache folder that can't be written is not an error."""
    import json

    from cardkit import checkcache

    data = json.dumps(tables, ensure_ascii=False).encode("utf-8")
    checkcache.write_keyed_note(_TABLES_FOLDER, checkcache.note_name("tables"), key, data, "table statements note")


def _write(conn: sqlite3.Connection, tables: Tables, rows: CatalogueRows,
           meta: dict[str, str]) -> None:
    """Fill the fresh database `conn` (the guarded writer's, which commits, closes and renames it)."""
    for _, _, create, _ in tables:
        conn.execute(create)
    meta_rows = CatalogueRows(rows.columns)
    for key, value in meta.items():
        meta_rows.add("meta", {"key": key, "value": value})
    batches = {**rows.tables, **meta_rows.tables}
    try:
        # One executemany per table: the rows are tuples of the models' columns in order, with the values
        # SQLite stores (text, numbers, booleans), so the driver takes them as they are.
        for name, columns, _, _ in tables:
            batch = batches.get(name)
            if batch:
                marks = ", ".join("?" for _ in columns)
                names = ", ".join(f'"{c}"' for c in columns)  # `set` and `range` are SQL words
                conn.executemany(f'INSERT INTO "{name}" ({names}) VALUES ({marks})', batch)
    except sqlite3.IntegrityError as exc:
        # Duplicate ids or format names: the catalogue check says where, so point there.
        raise CatalogueError(f"the catalogue cannot be built: {exc}", remedy="check") from None
    except OverflowError:
        # The schemas cap numbers well inside SQLite's 64 bits; only an unchecked catalogue gets here.
        raise CatalogueError("the catalogue cannot be built: a number is too large for SQLite", remedy="check") from None
    _make_indexes(conn, tables)


def _make_indexes(conn: sqlite3.Connection, tables: Tables) -> None:
    """The models' indexes, made after the rows are in: one sort each instead of a B-tree grown row by row."""
    for _, _, _, indexes in tables:
        for statement in indexes:
            conn.execute(statement)


def catalogue_inputs(cards_dir: Path | None = None, formats_dir: Path | None = None) -> list[Path]:
    """The files a build reads: a database may never be written over one of them."""
    return sorted((cards_dir or paths.CARDS_DIR).glob("*/*.json")) + format_files(formats_dir)


def refuse_unchecked(cards_dir: Path | None = None, formats_dir: Path | None = None) -> dict[Path, Any]:
    """`CatalogueError` naming the first problem when `cardkit catalogue check` would fail: build what check accepts.
    The catalogue and format files as the check parsed them, by path."""
    from cardkit.catalogue.check import check_catalogue, expectations_path, where

    documents: dict[Path, Any] = {}
    report = check_catalogue(cards_dir, expectations=expectations_path(cards_dir), formats_dir=formats_dir,
                             documents=documents)
    errors = [p for p in report.problems if p.is_error]
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise CatalogueError(f"the catalogue fails its check: {where(first)}: {first.message}{more}; nothing was built",
                             remedy="check")
    return documents


def build_database(
    path: Path | None = None, cards_dir: Path | None = None, formats_dir: Path | None = None,
    inputs: tuple[Path, ...] = (),
) -> BuildResult:
    """Build the database at `path` (default `default_db_path()`): temp file beside it, then rename.

    Refused (nothing written) when the catalogue check fails, and by the guarded writer
    (`cardkit.outputs`) when `path` is an input, a special file, or a file that is not a
    cardkit catalogue database. A failed build leaves any previous database untouched.
    """
    target = Path(path) if path else paths.default_db_path()
    out = Output(target, CATALOGUE_DATABASE, inputs + tuple(catalogue_inputs(cards_dir, formats_dir)))
    out.check()  # before the work: a refusal should not wait for a build
    documents = refuse_unchecked(cards_dir, formats_dir)
    meta = {"built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            **wanted_meta(cards_dir, formats_dir)}
    tables, remembered = _table_sql()
    try:
        rows = _fill(out, tables, meta, cards_dir, formats_dir, documents)
    except (sqlite3.Error, CatalogueError):
        if not remembered:
            raise
        # The note is only a shortcut: one SQLite refuses (edited, or left by other code) must not stop every
        # build. The half-made file is already gone; make the statements from the models, note them again, rebuild.
        tables, _ = _table_sql(trust_note=False)
        rows = _fill(out, tables, meta, cards_dir, formats_dir, documents)
    counts = {name: len(batch) for name, batch in sorted(rows.tables.items())}
    return BuildResult(path=target, counts=counts, meta=meta)


def _fill(out: Output, tables: Tables, meta: dict[str, str], cards_dir: Path | None,
          formats_dir: Path | None, documents: dict[Path, Any]) -> CatalogueRows:
    """Write the database through `out` with the statements `tables`; the rows written."""
    rows = catalogue_rows({name: tuple(columns) for name, columns, _, _ in tables}, cards_dir, formats_dir, documents)
    with out.database() as conn:
        _write(conn, tables, rows, meta)
    return rows


def read_meta(path: Path) -> dict[str, str] | None:
    """The database's meta table, or None when the file is missing or not our database."""
    if not path.is_file():
        return None
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta").fetchall()}
    except sqlite3.Error:
        return None


def is_stale(path: Path, cards_dir: Path | None = None, formats_dir: Path | None = None) -> bool:
    """True when the database is missing, unreadable, or built from another catalogue, formats or layout."""
    meta = read_meta(path)
    if meta is None:
        return True
    return any(meta.get(k) != v for k, v in wanted_meta(cards_dir, formats_dir).items())


def is_catalogue_database(path: Path) -> bool:
    """True for a SQLite file `build_database` wrote: its `meta` says `kind` cardkit-catalogue
    (or, built before the marker, has exactly the old meta keys and a `cards` table)."""
    meta = read_meta(path)
    if meta is None:
        return False
    if "kind" in meta:
        return meta["kind"] == KIND
    return set(meta) == _UNMARKED_META and "cards" in sqlite_tables(path)


CATALOGUE_DATABASE = Kind("catalogue database", is_catalogue_database, forceable=False)


def first_build_pending(path: Path | None = None) -> bool:
    """Whether `ensure_database(path)` will build the database for the first time (no file there yet):
    a build of some seconds the command's caller may want to announce."""
    target = Path(path) if path else paths.default_db_path()
    return not target.exists()


def ensure_database(path: Path | None = None, inputs: tuple[Path, ...] = ()) -> Path:
    """The path of an up-to-date database, rebuilding it first when it is missing or stale.

    The rebuild goes through the guarded writer: a file that is not a cardkit catalogue
    database (a tournament database, a text file, a FIFO), or one of `inputs`, is never replaced.
    """
    target = Path(path) if path else paths.default_db_path()
    if is_stale(target):
        build_database(target, inputs=inputs)
    return target
