"""Catalogue cards flattened into database rows: the common `cards` row and each game's own row.

Pure functions over the catalogue's JSON; no database code, so search and
tests can use them without importing sqlmodel.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from cardkit import GAMES, paths
from cardkit.catalogue.store import Card, game_files, read_catalogue_file, text_field
from cardkit.errors import CatalogueError
from cardkit.textfold import fold_many, latin_of_folded_many, loosened_many, search_keys

Row = dict[str, Any]


# One encoder for every value: json.dumps with options builds a new one per call. A catalogue document
# is a tree (parsed JSON can hold no cycle), so the encoder need not keep a record of the objects it
# is inside, which cost a third of its time.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def to_json(value: Any) -> str:
    return _ENCODER.encode(value)


# What parsed JSON holds that a column stores as JSON text.
_CONTAINERS = frozenset({list, dict})
# Equal values of these types have one JSON text (True, 1 and 1.0 are equal, their texts are not).
_FLAT = frozenset({str, int, type(None)})


class _JsonTexts:
    """`to_json` of the lists and objects in records, each distinct one of flat values encoded once.

    Cards repeat a few shapes (elements, classes, strike, cost): ten thousand of them in the catalogue
    are under two thousand distinct values, and encoding a small value costs mostly the call.
    """

    def __init__(self) -> None:
        self._known: dict[tuple[Any, ...], str] = {}

    def __call__(self, value: list[Any] | dict[str, Any]) -> str:
        if isinstance(value, list):
            if not _FLAT.issuperset(map(type, value)):
                return to_json(value)
            key: tuple[Any, ...] = (list, *value)
        else:
            if not _FLAT.issuperset(map(type, value.values())):
                return to_json(value)
            key = (dict, *value.items())
        text = self._known.get(key)
        if text is None:
            text = self._known[key] = to_json(value)
        return text


def _joined(elements: list[str] | None) -> str | None:
    return None if elements is None else ",".join(elements)


def _tcg_common(card: Card) -> Row:
    cost = card.get("cost")
    return {
        "kind": card["kind"], "colour": card.get("colour"), "elements": None,
        "level": card.get("level"), "cost": sum(cost.values()) if cost else None,
        "elite": None, "is_unique": card["unique"], "rarity": None, "mercenary": card["mercenary"],
    }


def _ccg_common(card: Card) -> Row:
    return {
        "kind": card["type"], "colour": None, "elements": _joined(card["elements"]),
        "level": None, "cost": card["cost"], "elite": card["elite"], "is_unique": card["unique"],
        "rarity": card["rarity"], "mercenary": None,
    }


def _online_common(card: Card) -> Row:
    # Berserk Online marks uniqueness as an ability, not a flag of its own.
    return {
        "kind": card["type"], "colour": None, "elements": _joined(card["elements"]),
        "level": None, "cost": card["cost"], "elite": card["elite"],
        "is_unique": "unique" in card.get("abilities", []), "rarity": card.get("rarity"), "mercenary": None,
    }


def _berserker_common(card: Card) -> Row:
    return {
        "kind": card["type"], "colour": None, "elements": None, "level": None, "cost": None,
        "elite": None, "is_unique": None, "rarity": None, "mercenary": None,
    }


def _ccg_extra(card: Card) -> Row:
    # Only reprinted cards carry `printings`; every row needs the column for one bulk insert.
    printings = card.get("printings")
    return {"printings": to_json(printings) if printings else None}


def _tcg_extra(card: Card) -> Row:
    cost = card.get("cost") or {}
    return {f"cost_{k}": cost.get(k) for k in ("white", "green", "black", "red", "colourless")}


def _no_extra(card: Card) -> Row:
    return {}


@dataclass(frozen=True)
class GameTables:
    """How one game's cards become rows: its own table, the common columns and any extra columns."""

    table: str
    common: Callable[[Card], Row]
    extra: Callable[[Card], Row] = _no_extra


# One entry per game; adding a game adds a line here and a model in models.py.
GAME_TABLES: dict[str, GameTables] = {
    "berserk-tcg": GameTables("tcg_cards", _tcg_common, _tcg_extra),
    "berserk-ccg": GameTables("ccg_cards", _ccg_common, _ccg_extra),
    "berserk-online": GameTables("online_cards", _online_common),
    "berserker": GameTables("berserker_cards", _berserker_common),
}


# How a set is labelled across games, so one facet can list every game's sets without mixing them up.
GAME_SHORT = {"berserk-tcg": "TCG", "berserk-ccg": "CCG", "berserk-online": "Online", "berserker": "Berserker"}


def set_label(game: str, set_id: str | None, set_name: str | None) -> str | None:
    """`TCG BK1 Volume 1`, `CCG 10 Война стихий`: the game, the set id and its name where known."""
    if set_id is None:
        return None
    return " ".join(x for x in (GAME_SHORT.get(game, game), set_id, set_name if set_name != set_id else None) if x)


def common_row(game: str, card: Card, set_id: str | None, position: int, label: str | None = None) -> Row:
    """The card's row in the common `cards` table, less its search keys (`add_search_keys` adds them);
    `label` is its set's `set_label`."""
    name = text_field(card, "name")
    return {
        "game": game, "id": text_field(card, "id"), "name": name, "latin": card.get("latin") or name,
        "set_id": set_id, "set_label": label,
        **GAME_TABLES[game].common(card),
        "data": to_json(card), "position": position,
    }


def add_search_keys(rows: list[Row]) -> None:
    """Each `cards` row's keys: `fold` of its name, `fold_latin` and `loose_latin` of its Latin name, and
    `search_key` of name, Latin name and id; folded all at once (textfold's batch functions give what
    folding one text at a time gives, a few times faster for a catalogue's thousands of names)."""
    names = [row["name"] for row in rows]
    latins = [row["latin"] for row in rows]
    texts = list(dict.fromkeys(names + latins))  # a Latin name is often the name itself
    folded = dict(zip(texts, fold_many(texts)))
    latin_keys = latin_of_folded_many([folded[latin] for latin in latins])
    found = zip([folded[name] for name in names], latin_keys, loosened_many(latin_keys),
                search_keys([(row["name"], row["latin"], row["id"]) for row in rows]))
    for row, (name_key, latin_key, loose_key, search_key) in zip(rows, found):
        row["name_key"], row["latin_key"], row["loose_key"], row["search_key"] = name_key, latin_key, loose_key, search_key


Values = tuple[Any, ...]


@dataclass
class CatalogueRows:
    """Every row the build inserts, grouped by table name, each a tuple of its table's columns in order.

    The columns are the database's (the build reads them from the models); a field a record has and its
    table lacks is left out, a column a record lacks is None.
    """

    columns: dict[str, tuple[str, ...]]
    tables: dict[str, list[Values]] = field(default_factory=dict)
    _texts: _JsonTexts = field(default_factory=_JsonTexts)
    # Per table, the places of the columns that have held a list or object: a table's lists and objects
    # keep to a few columns, so a row looks at those rather than at every value.
    _json_at: dict[str, list[int]] = field(default_factory=dict)

    def add(self, table: str, row: Row) -> None:
        self.tables.setdefault(table, []).append(tuple(map(row.get, self.columns[table])))

    def add_record(self, table: str, record: dict[str, Any]) -> None:
        """A catalogue record (card, ship) as its table's row: every field a column, lists and objects as JSON text."""
        row: list[Any] = list(map(record.get, self.columns[table]))
        if not _CONTAINERS.isdisjoint(map(type, row)):
            texts = self._texts
            json_at = self._json_at.setdefault(table, [])
            for i in json_at:
                value = row[i]
                if type(value) in _CONTAINERS:
                    row[i] = texts(value)
            if not _CONTAINERS.isdisjoint(map(type, row)):  # in a column that held none before
                for i, value in enumerate(row):
                    if type(value) in _CONTAINERS:
                        row[i] = texts(value)
                        json_at.append(i)
        self.tables.setdefault(table, []).append(tuple(row))

    def count(self, table: str) -> int:
        return len(self.tables.get(table, []))


def _set_id(card: Card, file_set: dict[str, Any] | None) -> str | None:
    value = card.get("set")
    if value is None and file_set:
        value = file_set.get("id")
    return None if value is None else str(value)


def _add_file(rows: CatalogueRows, common: list[Row], game: str, spec: GameTables, doc: dict[str, Any],
              position: int) -> int:
    """Add one catalogue file's rows (its cards' `cards` rows to `common`); the position after its last card."""
    file_set = doc.get("set")
    cards = doc.get("cards", [])
    if file_set:
        rows.add("sets", {
            "game": game, "id": str(file_set["id"]), "name": file_set.get("name"),
            "latin": file_set.get("latin") or file_set.get("name"), "cards": len(cards),
        })
    file_set_id = str(file_set["id"]) if file_set else None
    # A set's label, from its id and (for the file's own set) its name, is the same for most of the file's cards.
    labels: dict[str | None, str | None] = {}
    for card in cards:
        set_id = _set_id(card, file_set)
        if set_id in labels:
            label = labels[set_id]
        else:
            set_name = file_set.get("name") if file_set and set_id == file_set_id else None
            label = labels[set_id] = set_label(game, set_id, set_name)
        common.append(common_row(game, card, set_id, position, label))
        extra = spec.extra(card)
        # The extra columns' values are final already (JSON text, numbers): no list or object among them.
        rows.add_record(spec.table, {**card, **extra} if extra else card)
        position += 1
    for ship in doc.get("ships", []):
        rows.add_record("berserker_ships", ship)
    return position


def catalogue_rows(columns: dict[str, tuple[str, ...]], cards_dir: Path | None = None,
                   formats_dir: Path | None = None) -> CatalogueRows:
    """Rows of every table named in `columns` (table: its columns in order), read straight from the
    catalogue files in catalogue order."""
    rows = CatalogueRows(columns)
    common: list[Row] = []
    position = 0
    for game in GAMES:
        spec = GAME_TABLES[game]
        files = game_files(game, cards_dir)
        if not files:
            raise CatalogueError(f"no catalogue files for {game}; run `cardkit catalogue import`")
        for path in files:
            doc = read_catalogue_file(path)
            try:
                position = _add_file(rows, common, game, spec, doc, position)
            except (AttributeError, KeyError, TypeError, ValueError):
                from cardkit.catalogue.check import misshapen_file

                raise misshapen_file(path, game, doc) from None
    add_search_keys(common)
    rows.tables["cards"] = [tuple(map(row.get, columns["cards"])) for row in common]
    for fmt in format_rows(formats_dir):
        rows.add("formats", fmt)
    return rows


def format_files(formats_dir: Path | None = None) -> list[Path]:
    folder = formats_dir or paths.FORMATS_DIR
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def format_rows(formats_dir: Path | None = None) -> list[Row]:
    """One row per format file; the folder may not exist yet."""
    out = []
    for path in format_files(formats_dir):
        doc = read_catalogue_file(path)
        if not isinstance(doc, dict):
            raise CatalogueError(f"format file {path}: not a JSON object")
        out.append({"name": str(doc.get("name") or path.stem), "game": doc.get("game"), "data": to_json(doc)})
    return out
