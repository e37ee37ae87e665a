"""Import the Berserk TCG card list (CSV) into the catalogue's JSON files."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from cardkit.catalogue.sources import RECORD_ERRORS, bad_record
from cardkit.errors import UnreadableInput
from cardkit.games.berserk_tcg import COLOUR_LETTERS, COLOURS
from cardkit.jsonio import read_text_input
from cardkit.visible import quoted

GAME = "berserk-tcg"
# Each set is four equal colour blocks, white, green, black, red.
SET_SIZES: dict[str, int] = {"BK1": 160, "BK2": 64, "BK3": 64, "BK4": 80, "BK5": 80}
SET_NAMES: dict[str, str] = {s: f"Volume {s[-1]}" for s in SET_SIZES}
COLUMNS: tuple[str, ...] = (
    "set", "number", "name", "cost", "unique", "level", "range", "movement", "power", "hp", "quick", "type", "subtype",
)
_ID = re.compile(r"^\s*(BK\d)\s*-\s*0*(\d{1,3})\s*$", re.IGNORECASE)
_COST = re.compile(r"^(?:[WGBR]*\d?[WGBR]*)$")
# The game's five colourless cities sit outside the numbered sets.
CITIES: list[tuple[str, str, bool]] = [
    ("CITY-1", "Basic City 1", False),
    ("CITY-2", "Basic City 2", False),
    ("CITY-3", "Basic City 3", False),
    ("CITY-4", "Basic City 4", False),
    ("CITY-R", "Royal City", True),
]


def card_id(set_code: str, number: int) -> str:
    return f"{set_code.upper()}-{number:03d}"


def normalise_id(text: str) -> str | None:
    """`BK1-9`, `bk1-009` -> `BK1-009`; None when `text` is not a numbered id."""
    m = _ID.match(text)
    return card_id(m.group(1), int(m.group(2))) if m else None


def colour_of(set_code: str, number: int) -> str:
    block = SET_SIZES[set_code] // 4
    return COLOURS[(number - 1) // block]


def parse_cost(text: str) -> dict[str, int]:
    """`1RR` -> balls per colour plus the colourless count."""
    text = text.strip().upper()
    if not _COST.match(text):
        raise ValueError(f"unreadable cost {quoted(text)}")
    cost = {c: 0 for c in COLOURS} | {"colourless": 0}
    for ch in text:
        if ch.isdigit():
            cost["colourless"] = int(ch)
        else:
            cost[COLOUR_LETTERS[ch]] += 1
    return cost


def _int_or_none(text: str) -> int | None:
    text = text.strip()
    return int(text) if text else None


def _yes(text: str) -> bool:
    return text.strip().lower() == "yes"


def card_from_row(row: dict[str, str]) -> dict[str, Any]:
    """One catalogue card from one CSV row; colour from the card's block of its set."""
    set_code = row["set"].strip().upper()
    if set_code not in SET_SIZES:
        raise ValueError(f"unknown set {quoted(set_code)}; the sets are {', '.join(SET_SIZES)}")
    number = int(row["number"])
    if not 1 <= number <= SET_SIZES[set_code]:
        raise ValueError(f"{set_code} numbers its cards 1 to {SET_SIZES[set_code]}, not {number}")
    name = row["name"].strip()
    is_character = row["type"].strip().lower() == "character"
    subtype = row["subtype"].strip()
    kind = "character" if is_character else f"effect-{subtype.lower()}"
    return {
        "id": card_id(set_code, number),
        "set": set_code,
        "number": number,
        "name": name,
        "colour": colour_of(set_code, number),
        "cost": parse_cost(row["cost"]),
        "level": int(row["level"]),
        "unique": _yes(row["unique"]),
        "quick": _yes(row["quick"]),
        "kind": kind,
        "power": _int_or_none(row["power"]) if is_character else None,
        "hp": _int_or_none(row["hp"]) if is_character else None,
        "range": _int_or_none(row["range"]) if is_character else None,
        "movement": _int_or_none(row["movement"]) if is_character else None,
        "subtypes": subtype.split() if is_character and subtype else [],
        "mercenary": name == "Mercenary",
    }


def city_cards() -> list[dict[str, Any]]:
    return [
        {
            "id": cid, "set": None, "number": None, "name": name, "colour": None,
            "cost": None, "level": None, "unique": False, "quick": False, "kind": "city",
            "power": None, "hp": None, "range": None, "movement": None,
            "subtypes": ["Royal" if royal else "Basic"], "mercenary": False,
        }
        for cid, name, royal in CITIES
    ]


def import_files(path: Path) -> dict[str, dict[str, Any]]:
    """Catalogue files (relative name -> content) from the CSV at `path`."""
    import csv  # here: deck reading loads this module for `normalise_id` and never reads CSV

    reader = csv.DictReader(io.StringIO(read_text_input(path, max_bytes=16 << 20)))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise UnreadableInput(path, f"not the card list CSV: no column(s) {', '.join(missing)} in its first line")
    by_set: dict[str, list[dict[str, Any]]] = {s: [] for s in SET_SIZES}
    try:
        for row in reader:
            where = f"line {reader.line_num}"
            if None in row or None in row.values():
                raise UnreadableInput(path, f"{where}: {len(reader.fieldnames or [])} fields expected")
            try:
                card = card_from_row(row)
            except RECORD_ERRORS as exc:
                raise bad_record(path, where, exc) from None
            by_set[card["set"]].append(card)
    except csv.Error as exc:
        raise UnreadableInput(path, f"line {reader.line_num}: {exc}") from None
    if not any(by_set.values()):
        raise UnreadableInput(path, "the list holds no cards")
    files: dict[str, dict[str, Any]] = {}
    for set_code, cards in by_set.items():
        cards.sort(key=lambda c: c["number"])
        files[f"{set_code}.json"] = {
            "game": GAME,
            "set": {"id": set_code, "name": SET_NAMES[set_code]},
            "cards": cards,
        }
    files["cities.json"] = {"game": GAME, "set": {"id": "CITY", "name": "Cities"}, "cards": city_cards()}
    return files
