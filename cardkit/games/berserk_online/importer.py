"""Import the Berserk Online card pool (JSON) into the catalogue's JSON files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardkit.errors import UnreadableInput
from cardkit.jsonio import read_json_input
from cardkit.textfold import transliterate

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
    kick = raw.get("kick")
    name = raw["name"].strip()
    return {
        "id": raw["proto"],
        "name": name,
        "latin": transliterate(name),
        "type": TYPES[raw["type"]],
        "flying": _flag(raw.get("fly")),
        "ranged": _flag(raw.get("rangeAttack")),
        "elements": RACES[raw["race"]],
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
    raw_cards = read_json_input(path, max_bytes=64 << 20)
    if not isinstance(raw_cards, list):
        raise UnreadableInput(path, "expected a JSON list of cards")
    by_series: dict[int | None, list[dict[str, Any]]] = {}
    for i, raw in enumerate(raw_cards):
        if raw.get("crystal") not in ("gold", "silver"):
            raise UnreadableInput(path, f"card #{i}: crystal must be gold or silver")
        try:
            card = card_from_raw(raw)
        except (KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            raise UnreadableInput(path, f"card #{i}: {exc!r}") from None
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
