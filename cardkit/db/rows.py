"""Catalogue cards flattened into database rows: the common `cards` row and each game's own row.

Pure functions over the catalogue's JSON; no database code, so search and
tests can use them without importing sqlmodel.

Rows are made a column at a time: one list per column, each from one comprehension or `map` over a
file's cards, zipped into tuples at the end. Made a card at a time (a dict per card, then a tuple), the
same rows cost several Python calls per card and field.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import Any

from cardkit import paths
from cardkit.catalogue.store import Card, game_files, read_catalogue_file
from cardkit.errors import CatalogueError
from cardkit.games.registry import GAME_SPECS, GAMES, SPECS
from cardkit.textfold import fold_many, latin_of_folded_many, loosened_many, search_keys

Row = dict[str, Any]
Values = tuple[Any, ...]
# A table's values by column name, each list one value per row; a column left out is None in every row.
Columns = dict[str, list[Any]]


# One encoder for every value: json.dumps with options builds a new one per call. A catalogue document
# is a tree (parsed JSON can hold no cycle), so the encoder need not keep a record of the objects it
# is inside, which cost a third of its time.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def to_json(value: Any) -> str:
    return _ENCODER.encode(value)


# What parsed JSON holds that a column stores as JSON text.
_CONTAINERS = frozenset({list, dict})
_CONTAINERS_OR_NONE = _CONTAINERS | {type(None)}
# A column's JSON text back to its value where that value is missing: `_NULL.get(text, text)`.
_NULL: dict[str, None] = {"null": None}

# Encoding thousands of small lists one call each costs mostly the calls: `to_json_each` encodes them in
# one list, a string between each two, and cuts the text at that string's JSON text with its commas.
# Outside strings, `,"` only stands before an item of a list or a key, so the cut text occurs elsewhere
# only where some list holds that very string as an item: then there are more pieces than values, and
# each value is encoded alone instead.
_BETWEEN = "\x00\x1f"
_BETWEEN_TEXT = f",{to_json(_BETWEEN)},"


def to_json_each(values: list[Any]) -> list[str]:
    """`[to_json(v) for v in values]` for lists and objects `values`, in one call of the encoder."""
    if len(values) < 2:
        return [to_json(v) for v in values]
    spaced = [_BETWEEN] * (2 * len(values) - 1)
    spaced[::2] = values
    texts = to_json(spaced)[1:-1].split(_BETWEEN_TEXT)
    return texts if len(texts) == len(values) else [to_json(v) for v in values]


def _stored_column(values: list[Any]) -> list[Any]:
    """The column's values as SQLite stores them: lists and objects as their JSON text, booleans as 0 and 1,
    the others as they are.

    The driver binds a bool only after looking for an adapter for it, a failed attribute lookup that formats
    an error message per value: the catalogue's 28,000 flags took a tenth of a build that way, as 0 and 1 next
    to nothing. SQLite keeps a boolean as that integer either way, so the file is the same.
    """
    kinds = set(map(type, values))
    if bool in kinds:
        values = list(map(int, values)) if len(kinds) == 1 else [int(v) if type(v) is bool else v for v in values]
    if _CONTAINERS.isdisjoint(kinds):
        return values
    if kinds <= _CONTAINERS_OR_NONE:
        # The usual JSON column (element lists, strike tables, some missing): encoded whole, as no list or object
        # is `null`, without finding each one's place in Python.
        texts = to_json_each(values)
        return list(map(_NULL.get, texts, texts))
    at = [i for i, value in enumerate(values) if type(value) in _CONTAINERS]
    out = list(values)
    for i, text in zip(at, to_json_each([values[i] for i in at])):
        out[i] = text
    return out


def _get(records: list[dict[str, Any]], key: str) -> list[Any]:
    """`record.get(key)` of every record (a TypeError for one that is not an object)."""
    return list(map(dict.get, records, repeat(key)))


def _texts(records: list[dict[str, Any]], key: str) -> list[str]:
    """`record[key]` of every record, which lookups and the database key need as text; TypeError otherwise."""
    values = [record[key] for record in records]
    if not all(isinstance(value, str) for value in values):
        raise TypeError(key)
    return values


def _joined(elements: list[Any]) -> list[str | None]:
    return [None if e is None else ",".join(e) for e in elements]


def _tcg_common(cards: list[Card]) -> Columns:
    return {
        "kind": [card["kind"] for card in cards], "colour": _get(cards, "colour"), "level": _get(cards, "level"),
        "cost": [sum(cost.values()) if cost else None for cost in _get(cards, "cost")],
        "is_unique": [card["unique"] for card in cards], "mercenary": [card["mercenary"] for card in cards],
    }


def _ccg_common(cards: list[Card]) -> Columns:
    return {
        "kind": [card["type"] for card in cards], "elements": _joined([card["elements"] for card in cards]),
        "cost": [card["cost"] for card in cards], "elite": [card["elite"] for card in cards],
        "is_unique": [card["unique"] for card in cards], "rarity": [card["rarity"] for card in cards],
    }


def _online_common(cards: list[Card]) -> Columns:
    return {
        "kind": [card["type"] for card in cards], "elements": _joined([card["elements"] for card in cards]),
        "cost": [card["cost"] for card in cards], "elite": [card["elite"] for card in cards],
        # Berserk Online marks uniqueness as an ability, not a flag of its own.
        "is_unique": ["unique" in card.get("abilities", []) for card in cards], "rarity": _get(cards, "rarity"),
    }


def _berserker_common(cards: list[Card]) -> Columns:
    return {"kind": [card["type"] for card in cards]}


def _ccg_extra(cards: list[Card]) -> Columns:
    # Only reprinted cards carry `printings`; every row needs the column for one bulk insert.
    return {"printings": [to_json(printings) if printings else None for printings in _get(cards, "printings")]}


def _tcg_extra(cards: list[Card]) -> Columns:
    costs = [cost or {} for cost in _get(cards, "cost")]
    return {f"cost_{k}": _get(costs, k) for k in ("white", "green", "black", "red", "colourless")}


def _no_extra(cards: list[Card]) -> Columns:
    return {}


@dataclass(frozen=True)
class GameTables:
    """How one game's cards become rows: its own table, the common columns and any extra columns,
    each function giving a file's cards' columns by name (a common column it leaves out is None; the common
    columns are stored as `_stored_column` says, the extra ones as they are)."""

    table: str
    common: Callable[[list[Card]], Columns]
    extra: Callable[[list[Card]], Columns] = _no_extra


# Each game's columns (its table's name is the registry's); adding a game adds a line here and a model in models.py.
GAME_TABLES: dict[str, GameTables] = {
    "berserk-tcg": GameTables(SPECS["berserk-tcg"].table, _tcg_common, _tcg_extra),
    "berserk-ccg": GameTables(SPECS["berserk-ccg"].table, _ccg_common, _ccg_extra),
    "berserk-online": GameTables(SPECS["berserk-online"].table, _online_common),
    "berserker": GameTables(SPECS["berserker"].table, _berserker_common),
}


# How a set is labelled across games, so one facet can list every game's sets without mixing them up.
GAME_SHORT = {g.id: g.short for g in GAME_SPECS}


def set_label(game: str, set_id: str | None, set_name: str | None) -> str | None:
    """`TCG BK1 Volume 1`, `CCG 10 Война стихий`: the game, the set id and its name where known."""
    if set_id is None:
        return None
    return " ".join(x for x in (GAME_SHORT.get(game, game), set_id, set_name if set_name != set_id else None) if x)


def search_columns(names: list[str], latins: list[str], ids: list[str]) -> Columns:
    """The `cards` rows' keys: `fold` of the name, `fold_latin` and `loose_latin` of the Latin name, and
    `search_key` of name, Latin name and id; folded all at once (textfold's batch functions give what
    folding one text at a time gives, a few times faster for a catalogue's thousands of names)."""
    texts = list(dict.fromkeys(names + latins))  # a Latin name is often the name itself
    folded = dict(zip(texts, fold_many(texts)))
    latin_keys = latin_of_folded_many([folded[latin] for latin in latins])
    return {"name_key": [folded[name] for name in names], "latin_key": latin_keys,
            "loose_key": loosened_many(latin_keys), "search_key": search_keys(list(zip(names, latins, ids)))}


class CatalogueRows:
    """Every row the build inserts, grouped by table name, each a tuple of its table's columns in order.

    The columns are the database's (the build reads them from the models); a field a record has and its
    table lacks is left out, a column a record lacks is None.
    """

    __slots__ = ("columns", "tables")

    def __init__(self, columns: dict[str, tuple[str, ...]], tables: dict[str, list[Values]] | None = None) -> None:
        self.columns = columns
        self.tables: dict[str, list[Values]] = {} if tables is None else tables

    def add(self, table: str, row: Row) -> None:
        self.tables.setdefault(table, []).append(tuple(map(row.get, self.columns[table])))

    def add_columns(self, table: str, values: Columns, count: int) -> None:
        """`count` rows given a column at a time."""
        nothing = [None] * count
        self.tables.setdefault(table, []).extend(zip(*(values.get(c, nothing) for c in self.columns[table])))

    def add_records(self, table: str, records: list[dict[str, Any]], given: Columns | None = None) -> None:
        """Catalogue records (cards, ships) as their table's rows: every field a column, stored as
        `_stored_column` says; a column in `given` (final values: no list, object or boolean among them) takes
        its values from there."""
        given = given or {}
        values = {c: given[c] if c in given else _stored_column(_get(records, c)) for c in self.columns[table]}
        self.add_columns(table, values, len(records))

    def count(self, table: str) -> int:
        return len(self.tables.get(table, []))


def _add_file(rows: CatalogueRows, common: Columns, game: str, spec: GameTables, doc: dict[str, Any],
              position: int) -> int:
    """Add one catalogue file's rows (its cards' `cards` columns to `common`); the position after its last card."""
    file_set = doc.get("set")
    cards = doc.get("cards", [])
    if file_set:
        rows.add("sets", {
            "game": game, "id": str(file_set["id"]), "name": file_set.get("name"),
            "latin": file_set.get("latin") or file_set.get("name"), "cards": len(cards),
        })
    file_set_id = str(file_set["id"]) if file_set else None
    default_set = file_set.get("id") if file_set else None
    set_ids = [None if value is None else str(value)
               for value in (default_set if value is None else value for value in _get(cards, "set"))]
    # A set's label, from its id and (for the file's own set) its name, is the same for most of the file's cards.
    labels = {set_id: set_label(game, set_id, file_set.get("name") if file_set and set_id == file_set_id else None)
              for set_id in dict.fromkeys(set_ids)}
    names = _texts(cards, "name")
    found = {
        "game": [game] * len(cards), "id": _texts(cards, "id"), "name": names,
        "latin": [latin or name for latin, name in zip(_get(cards, "latin"), names)],
        "set_id": set_ids, "set_label": [labels[set_id] for set_id in set_ids],
        **{column: _stored_column(values) for column, values in spec.common(cards).items()},
        "data": to_json_each(cards), "position": list(range(position, position + len(cards))),
    }
    for column in common:
        common[column].extend(found.get(column, repeat(None, len(cards))))
    rows.add_records(spec.table, cards, spec.extra(cards))
    ships = doc.get("ships", [])
    if ships:
        rows.add_records("berserker_ships", ships)
    return position + len(cards)


def _document(path: Path, documents: Mapping[Path, Any] | None) -> Any:
    """The file `path` as `documents` holds it, parsed, else read and parsed now."""
    found = documents.get(path) if documents is not None else None
    return read_catalogue_file(path) if found is None else found


def catalogue_rows(columns: dict[str, tuple[str, ...]], cards_dir: Path | None = None,
                   formats_dir: Path | None = None, documents: Mapping[Path, Any] | None = None) -> CatalogueRows:
    """Rows of every table named in `columns` (table: its columns in order), from the catalogue files in
    catalogue order: as `documents` holds them by path (the check's, in a build), else read now."""
    rows = CatalogueRows(columns)
    keys = ("name_key", "latin_key", "loose_key", "search_key")
    common: Columns = {c: [] for c in columns["cards"] if c not in keys}
    position = 0
    for game in GAMES:
        spec = GAME_TABLES[game]
        files = game_files(game, cards_dir)
        if not files:
            raise CatalogueError(f"no catalogue files for {game}", remedy="import")
        for path in files:
            doc = _document(path, documents)
            try:
                position = _add_file(rows, common, game, spec, doc, position)
            except (AttributeError, KeyError, TypeError, ValueError):
                from cardkit.catalogue.check import misshapen_file

                raise misshapen_file(path, game, doc) from None
    common.update(search_columns(common["name"], common["latin"], common["id"]))
    rows.add_columns("cards", common, position)
    for fmt in format_rows(formats_dir, documents):
        rows.add("formats", fmt)
    return rows


def format_files(formats_dir: Path | None = None) -> list[Path]:
    folder = formats_dir or paths.FORMATS_DIR
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def format_rows(formats_dir: Path | None = None, documents: Mapping[Path, Any] | None = None) -> list[Row]:
    """One row per format file (as `documents` holds it, else read now); the folder may not exist yet."""
    out = []
    for path in format_files(formats_dir):
        doc = _document(path, documents)
        if not isinstance(doc, dict):
            raise CatalogueError(f"format file {path}: not a JSON object")
        out.append({"name": str(doc.get("name") or path.stem), "game": doc.get("game"), "data": to_json(doc)})
    return out
