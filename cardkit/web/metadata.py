"""Datasette metadata generated from a built database: descriptions, facets, search, canned queries.

Metadata is made per database by the generator registered under its name in
`DATABASE_METADATA`, so another database (tournament results, say) can be
served beside the catalogue by adding a generator, not by editing this one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Callable, Mapping

from cardkit.db.build import read_meta
from cardkit.web.queries import QUERIES
from cardkit.web.tables import TABLES, column_description

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
FTS_TABLE = "cards_fts"


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


def table_metadata(table: str, columns: list[str]) -> Metadata:
    """One table's metadata: description, column descriptions, and the facets and sort its columns allow."""
    spec = TABLES.get(table)
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
    described = {c: d for c in columns if (d := column_description(table, c))}
    if described:
        out["columns"] = described
    return out


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
    if "cards" in tables and FTS_TABLE in _all_tables(path):
        # cards_fts is an external-content index keyed on the cards table's rowid.
        tables["cards"].update(fts_table=FTS_TABLE, fts_pk="rowid")
    queries = {
        name: {"title": q.title, "description": q.description, "sql": q.sql}
        for name, q in QUERIES.items()
    }
    return {
        "description": " ".join(x for x in (CATALOGUE_DESCRIPTION, _build_note(read_meta(path) or {})) if x),
        "source": SOURCE,
        "tables": tables,
        "queries": queries,
    }


def _all_tables(path: Path) -> set[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    finally:
        conn.close()


def plain_metadata(path: Path) -> Metadata:
    """Metadata for a database nobody has described yet: its tables, no descriptions."""
    return {"tables": {name: {} for name in read_schema(path)}}


# One generator per database name served; a new kind of database adds a line.
DATABASE_METADATA: dict[str, DatabaseMetadata] = {CATALOGUE_DB: catalogue_metadata}


def instance_metadata(databases: Mapping[str, Path]) -> Metadata:
    """The whole Datasette instance's metadata for `databases` (name -> SQLite file)."""
    return {
        "title": TITLE,
        "description": DESCRIPTION,
        "source": SOURCE,
        "databases": {
            name: DATABASE_METADATA.get(name, plain_metadata)(Path(path)) for name, path in databases.items()
        },
    }


def undocumented_columns(path: Path) -> list[str]:
    """`table.column` for every table or column of the database that has no description."""
    missing = []
    for table, columns in read_schema(path).items():
        if table not in TABLES:
            missing.append(table)
        missing.extend(f"{table}.{c}" for c in columns if not column_description(table, c))
    return missing
