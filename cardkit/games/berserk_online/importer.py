"""Import the Berserk Online card pool (JSON) into the catalogue's JSON files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardkit.catalogue.sources import RECORD_ERRORS, bad_record, json_records, pick
from cardkit.textfold import transliterate
from cardkit.visible import quoted

GAME = "berserk-online"
# The element is the card's race; the proto's first letter is only a naming habit.
RACES: dict[str, list[str]] = {
    "s": ["steppe"], "m": ["mountains"], "f": ["forest"], "b": ["swamps"], "d": ["darkness"], "n": [],
}
TYPES: dict[str, str] = {"c": "creature", "a": "artifact", "e": "equipment", "t": "terrain"}


def _int(value: Any) -> int | None:
    return None if value is None or value == "" else int(value)


def _flag(value: Any) -> bool:
    return str(value) == "1"


def card_from_raw(raw: dict[str, Any]) -> dict[str, Any]:
    """One catalogue card from one card-pool record; the element comes from `race`."""
    if raw.get("crystal") not in ("gold", "silver"):
        raise ValueError(f"crystal must be gold or silver, not {quoted(raw.get('crystal'))}")
    if not isinstance(raw["proto"], str):
        # Ids are sorted together later, outside this record's error handling: one number among texts would crash it.
        raise ValueError(f"proto must be a text id, not {quoted(raw['proto'])}")
    kick = raw.get("kick")
    name = raw["name"].strip()
    return {
        "id": raw["proto"],
        "name": name,
        "latin": transliterate(name),
        "type": pick(TYPES, raw["type"], "type"),
        "flying": _flag(raw.get("fly")),
        "ranged": _flag(raw.get("rangeAttack")),
        "elements": pick(RACES, raw["race"], "race"),
        "elite": raw["crystal"] == "gold",
        "cost": int(raw["crystalCount"]),
        "life": _int(raw.get("health")),
        "strike": {"weak": kick[0], "medium": kick[1], "strong": kick[2]} if kick else None,
        "moves": _int(raw.get("steps")),
        "classes": list(raw.get("classes") or []),
        "abilities": list(raw.get("abilities") or []),
        "horde": _flag(raw.get("horde")),
        "unlimited": _flag(raw.get("unlim")),
        "loner": _flag(raw.get("only")),
        "series": _int(raw.get("series")),
        "rarity": raw.get("rarity"),
    }


def import_files(path: Path) -> dict[str, dict[str, Any]]:
    """Catalogue files (name -> content), one per series, from the JSON card pool at `path`."""
    by_series: dict[int | None, list[dict[str, Any]]] = {}
    for i, raw in enumerate(json_records(path, max_bytes=64 << 20)):
        try:
            card = card_from_raw(raw)
        except RECORD_ERRORS as exc:
            raise bad_record(path, f"card #{i}", exc) from None
        by_series.setdefault(card["series"], []).append(card)
    files: dict[str, dict[str, Any]] = {}
    for series in sorted(by_series, key=lambda s: (s is None, s or 0)):
        label = "unnumbered" if series is None else str(series)
        files[f"series-{label}.json"] = {
            "game": GAME,
            "set": {"id": label, "name": f"Series {label}" if series is not None else "Without series"},
            "cards": sorted(by_series[series], key=lambda c: c["id"]),
        }
    return files
