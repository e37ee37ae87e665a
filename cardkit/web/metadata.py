"""Datasette metadata generated from a built database: descriptions, facets, search, canned queries.

Metadata is made per database by the generator registered under its name in
`DATABASE_METADATA`, else by the first of `DATABASE_KINDS` that recognises the
file (a catalogue build, a tournament database), else it is plain: another kind
of database is served beside the catalogue by adding a generator, not by
editing this one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cardkit.db.build import read_meta
from cardkit.tournament.database import MARKER_TABLE, is_tournament_database
from cardkit.web import tournament
from cardkit.web.queries import QUERIES, CannedQuery
from cardkit.web.tables import CATALOGUE, Described

Metadata = dict[str, Any]
DatabaseMetadata = Callable[[Path], Metadata]

CATALOGUE_DB = "cardkit"
TITLE = "cardkit: the Berserk card catalogue"
DESCRIPTION = (
    "Every card of the Berserk TCG (Konami), the Russian tabletop Berserk CCG, Berserk Online "
    "and the Berserker fleet game, with the deck-building formats. Built by cardkit from its "
    "schema-validated JSON catalogue (data/cards/ and data/formats/ in the cardkit repository), "
    "which is imported from each game's published card list and, for Berserker, from the card "
    "and unit tables of its rules. Read-only: change the catalogue files and rebuild."
)
CATALOGUE_DESCRIPTION = (
    "The catalogue of all four games: the `cards` table holds every card with the fields people "
    "filter by (search names in Cyrillic or Latin letters), each game has a table with every field, "
    "and the canned queries below answer common questions."
)
SOURCE = "cardkit catalogue (data/cards/, data/formats/)"


def read_schema(path: Path) -> dict[str, list[str]]:
    """Each user table and view of the database with its columns, FTS tables and their shadows left out."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute(
            "select name from sqlite_master where type in ('table', 'view') "
            "and name not like 'sqlite_%' order by name")]
        fts = [r[0] for r in conn.execute(
            "select name from sqlite_master where type = 'table' and sql like '%virtual table%using fts%'")]
        hidden = {n for n in names if any(n == f or n.startswith(f + "_") for f in fts)}
        return {n: [r[1] for r in conn.execute(f'pragma table_info("{n}")')] for n in names if n not in hidden}
    finally:
        conn.close()


def _facet_column(facet: str | dict[str, str]) -> str:
    return facet if isinstance(facet, str) else next(iter(facet.values()))


def table_metadata(table: str, columns: list[str], described: Described = CATALOGUE) -> Metadata:
    """One table's metadata: description, column descriptions, and the facets and sort its columns allow."""
    spec = described.tables.get(table)
    out: Metadata = {}
    if spec:
        out["description"] = spec.description
        facets = [f for f in spec.facets if _facet_column(f) in columns]
        if facets:
            out["facets"] = facets
        if spec.sort in columns:
            out["sort"] = spec.sort
        if spec.label_column in columns:
            out["label_column"] = spec.label_column
        if spec.search_game:
            order = {f: c for f, c in spec.order_columns.items() if c in columns}
            out["plugins"] = {"cardkit": {"search_game": spec.search_game, **({"order_columns": order} if order else {})}}
        elif searched := [c for c in spec.search_columns if c in columns]:
            out["plugins"] = {"cardkit": {"search_columns": searched}}
    descriptions = {c: d for c in columns if (d := described.column_description(table, c))}
    if descriptions:
        out["columns"] = descriptions
    return out


def _queries(queries: Mapping[str, CannedQuery]) -> Metadata:
    # The SQL is one click away ("show"): players read the title, the form and the rows.
    return {name: {"title": q.title, "description": q.description, "sql": q.sql, "hide_sql": True,
                   **({"choices": {k: list(v) for k, v in q.choices.items()}} if q.choices else {})}
            for name, q in queries.items()}


def _build_note(meta: Mapping[str, str]) -> str:
    parts = []
    if meta.get("built_at"):
        parts.append(f"built {meta['built_at']}")
    if meta.get("version"):
        parts.append(f"by cardkit {meta['version']}")
    if meta.get("catalogue_hash"):
        parts.append(f"from catalogue {meta['catalogue_hash'][:12]}")
    return f"This copy was {' '.join(parts)}." if parts else ""


def catalogue_metadata(path: Path) -> Metadata:
    """Metadata for a catalogue database: every table present, full-text search on `cards`, canned queries."""
    schema = read_schema(path)
    tables = {name: table_metadata(name, cols) for name, cols in schema.items()}
    return {
        "description": " ".join(x for x in (CATALOGUE_DESCRIPTION, _build_note(read_meta(path) or {})) if x),
        "source": SOURCE,
        "plugins": {"cardkit": {"catalogue": True}},
        "tables": tables,
        "queries": _queries(QUERIES),
    }


def _rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def _event_line(name: str, fmt: str | None, rows: int, legal: int, illegal: int, unreadable: int, missing: int) -> str:
    return (f"{name} ({f'format {fmt}, ' if fmt else ''}{rows} rows: {legal} legal, {illegal} illegal, "
            f"{unreadable} unreadable, {missing} missing)")


def tournament_metadata(path: Path) -> Metadata:
    """Metadata for a tournament database: which events it holds, every table described, organizers' queries."""
    schema = read_schema(path)
    events = _rows(path, "select name, format, rows, legal, illegal, unreadable, missing from events order by id")
    shown = "; ".join(_event_line(*e) for e in events[:5]) + (f"; and {len(events) - 5} more" if len(events) > 5 else "")
    facts = dict(_rows(path, f"select key, value from {MARKER_TABLE}")) if MARKER_TABLE in schema else {}
    written = " ".join(x for x in (f"on {facts['written_at']}" if facts.get("written_at") else "",
                                   f"by cardkit {facts['version']}" if facts.get("version") else "") if x)
    title = f"{tournament.TITLE}: {events[0][0]}" if len(events) == 1 else tournament.TITLE
    description = (
        f"Every deck submission of {len(events)} event{'' if len(events) == 1 else 's'}, checked by `cardkit tournament db`"
        f"{' ' + written if written else ''}: {shown or 'no events'}. `verdicts` has one row per submission "
        "and per registered player who sent nothing, `problems` every problem found; the canned queries "
        "below answer what organizers ask. Read-only: re-run `cardkit tournament db` to refresh."
    )
    return {
        "title": title,
        "description": description,
        "source": tournament.SOURCE,
        # Per table too: Datasette's table page otherwise falls back to the instance's (catalogue) source.
        "tables": {name: {**table_metadata(name, cols, tournament.TOURNAMENT), "source": tournament.SOURCE}
                   for name, cols in schema.items()},
        "queries": _queries(tournament.QUERIES),
    }


def plain_metadata(path: Path) -> Metadata:
    """Metadata for a database nobody has described yet: its tables, no descriptions."""
    return {"tables": {name: {} for name in read_schema(path)}}


def is_catalogue_database(path: Path) -> bool:
    """True for a catalogue build (its `meta` table names the catalogue it was built from)."""
    return "catalogue_hash" in (read_meta(path) or {})


# One generator per database name served; a new kind of database adds a line.
DATABASE_METADATA: dict[str, DatabaseMetadata] = {CATALOGUE_DB: catalogue_metadata}
# Databases served under another name (`cardkit serve --attach`) are recognised by their content, first match wins.
DATABASE_KINDS: list[tuple[Callable[[Path], bool], DatabaseMetadata]] = [
    (is_catalogue_database, catalogue_metadata),
    (is_tournament_database, tournament_metadata),
]


def database_metadata(name: str, path: Path) -> Metadata:
    """The metadata of the database served as `name`: by its name's generator, else by what the file is."""
    if name in DATABASE_METADATA:
        return DATABASE_METADATA[name](path)
    generator = next((make for recognises, make in DATABASE_KINDS if recognises(path)), plain_metadata)
    return generator(path)


def instance_metadata(databases: Mapping[str, Path]) -> Metadata:
    """The whole Datasette instance's metadata for `databases` (name -> SQLite file)."""
    return {
        "title": TITLE,
        "description": DESCRIPTION,
        "source": SOURCE,
        "databases": {
            name: database_metadata(name, Path(path)) for name, path in databases.items()
        },
    }


def undocumented_columns(path: Path, described: Described = CATALOGUE) -> list[str]:
    """`table.column` for every table or column of the database that `described` has no description for."""
    missing = []
    for table, columns in read_schema(path).items():
        if table not in described.tables:
            missing.append(table)
        missing.extend(f"{table}.{c}" for c in columns if not described.column_description(table, c))
    return missing
