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
from cardkit.textfold import fold, fold_latin, loosened, search_key

Row = dict[str, Any]


# One encoder for every value: json.dumps with options builds a new one per call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def to_json(value: Any) -> str:
    return _ENCODER.encode(value)


def flat_row(card: Card) -> Row:
    """Every catalogue field as a column; lists and objects as JSON text."""
    return {k: to_json(v) if isinstance(v, (list, dict)) else v for k, v in card.items()}


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


def common_row(game: str, card: Card, set_id: str | None, position: int, set_name: str | None = None) -> Row:
    """The card's row in the common `cards` table."""
    name = text_field(card, "name")
    latin = card.get("latin") or name
    latin_key = fold_latin(latin)
    return {
        "game": game, "id": text_field(card, "id"), "name": name, "latin": latin, "set_id": set_id,
        "set_label": set_label(game, set_id, set_name),
        **GAME_TABLES[game].common(card),
        "data": to_json(card), "position": position,
        "name_key": fold(name), "latin_key": latin_key,
        "loose_key": loosened(latin_key), "search_key": search_key(name, latin, text_field(card, "id")),
    }


@dataclass
class CatalogueRows:
    """Every row the build inserts, grouped by table name."""

    tables: dict[str, list[Row]] = field(default_factory=dict)

    def add(self, table: str, row: Row) -> None:
        self.tables.setdefault(table, []).append(row)

    def count(self, table: str) -> int:
        return len(self.tables.get(table, []))


def _set_id(card: Card, file_set: dict[str, Any] | None) -> str | None:
    value = card.get("set")
    if value is None and file_set:
        value = file_set.get("id")
    return None if value is None else str(value)


def _add_file(rows: CatalogueRows, game: str, spec: GameTables, doc: dict[str, Any], position: int) -> int:
    """Add one catalogue file's rows; the position after its last card."""
    file_set = doc.get("set")
    cards = doc.get("cards", [])
    if file_set:
        rows.add("sets", {
            "game": game, "id": str(file_set["id"]), "name": file_set.get("name"),
            "latin": file_set.get("latin") or file_set.get("name"), "cards": len(cards),
        })
    file_set_id = str(file_set["id"]) if file_set else None
    for card in cards:
        set_id = _set_id(card, file_set)
        set_name = file_set.get("name") if file_set and set_id == file_set_id else None
        rows.add("cards", common_row(game, card, set_id, position, set_name))
        rows.add(spec.table, {**flat_row(card), **spec.extra(card)})
        position += 1
    for ship in doc.get("ships", []):
        rows.add("berserker_ships", flat_row(ship))
    return position


def catalogue_rows(cards_dir: Path | None = None, formats_dir: Path | None = None) -> CatalogueRows:
    """Rows of every table, read straight from the catalogue files in catalogue order."""
    rows = CatalogueRows()
    position = 0
    for game in GAMES:
        spec = GAME_TABLES[game]
        files = game_files(game, cards_dir)
        if not files:
            raise CatalogueError(f"no catalogue files for {game}; run `cardkit catalogue import`")
        for path in files:
            doc = read_catalogue_file(path)
            try:
                position = _add_file(rows, game, spec, doc, position)
            except (AttributeError, KeyError, TypeError, ValueError):
                from cardkit.catalogue.check import misshapen_file

                raise misshapen_file(path, game, doc) from None
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
