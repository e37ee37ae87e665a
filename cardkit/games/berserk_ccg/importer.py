"""Import the tabletop CCG card list (JSON) into the catalogue's JSON files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardkit.catalogue.sources import RECORD_ERRORS, bad_record, json_records, pick
from cardkit.games.berserk_ccg import ELEMENTS
from cardkit.textfold import fold, transliterate

GAME = "berserk-ccg"
SET_NAMES: dict[int, str | None] = {
    10: "Война стихий",
    20: "Нашествие тьмы",
    21: "Легенды Лаара",
    22: "Русы против ящеров",
    30: "Семена раздора",
    40: "Ложные боги",
    50: None,
    60: None,
}
RARITIES: dict[int, str] = {1: "common", 2: "uncommon", 3: "rare", 4: "ultra-rare"}
# Bit 32 is "neutral", which is the absence of an element, not an element.
ELEMENT_BITS: dict[int, str] = {1 << i: e for i, e in enumerate(ELEMENTS)}
NEUTRAL_BIT = 32
TYPES: dict[int, str] = {0: "creature", 1: "flyer", 2: "companion", 3: "parasite", 4: "artifact", 5: "terrain"}
# Per the rules text: flyers and terrains stand in the auxiliary zone, the rest on the battlefield.
ZONES: dict[str, str] = {
    "creature": "battlefield", "flyer": "auxiliary", "companion": "battlefield",
    "parasite": "battlefield", "artifact": "battlefield", "terrain": "auxiliary",
}


def elements_of(mask: int) -> list[str]:
    """The elements a reference colour bit mask names; neutral is the empty list."""
    if mask & ~(NEUTRAL_BIT | sum(ELEMENT_BITS)):
        raise ValueError(f"unknown element bits in {mask}")
    return [name for bit, name in ELEMENT_BITS.items() if mask & bit]


def card_from_raw(raw: dict[str, Any]) -> dict[str, Any]:
    """One catalogue card from one reference record: facts only, with the name's transliteration."""
    kind = pick(TYPES, int(raw["type"]), "type")
    hit = raw.get("hit")
    return {
        "id": str(raw["id"]),
        "set": int(raw["set_id"]),
        "number": int(raw["number"]),
        "name": raw["name"].strip(),
        "latin": transliterate(raw["name"].strip()),
        "rarity": pick(RARITIES, int(raw["rarity"]), "rarity"),
        "cost": int(raw["cost"]),
        "elite": bool(raw["elite"]),
        "unique": bool(raw["uniq"]),
        "elements": elements_of(int(raw["color"])),
        "type": kind,
        "zone": ZONES[kind],
        "life": raw.get("life"),
        "move": raw.get("move"),
        "strike": {"weak": hit[0], "medium": hit[1], "strong": hit[2]} if hit else None,
        "classes": sorted(c for c in raw.get("class") or [] if c),
        "icons": dict(sorted((raw.get("icons") or {}).items())),
        "horde": bool(raw.get("horde", False)),
    }


def add_printings(cards: list[dict[str, Any]]) -> None:
    """Give every card whose name several cards share a `printings` list: their ids, oldest set first.

    Later sets reprint earlier cards under new ids with the same name (set 50
    reprints set 10, set 60 set 20), and "a reprint is the same card, for the
    copy limit, for uniqueness and when a deck names it". The last printing is
    the one a name resolves to: the latest, whose stats are current (the few
    that differ are corrections or gaps the earlier printing's data left).

    Names are compared as lookups compare them (`fold`: case, ё/е, spacing), so
    Мародер (set 10) and its reprint Мародёр (set 50) are one card, as a deck
    line naming either already finds both.
    """
    by_name: dict[str, list[dict[str, Any]]] = {}
    for card in cards:
        by_name.setdefault(fold(card["name"]), []).append(card)
    for same in by_name.values():
        if len(same) > 1:
            ids = [c["id"] for c in sorted(same, key=lambda c: (c["set"], c["number"], c["id"]))]
            for card in same:
                card["printings"] = list(ids)


def import_files(path: Path) -> dict[str, dict[str, Any]]:
    """Catalogue files (name -> content), one per set, from the JSON card list at `path`."""
    by_set: dict[int, list[dict[str, Any]]] = {}
    for i, raw in enumerate(json_records(path, max_bytes=64 << 20)):
        try:
            card = card_from_raw(raw)
        except RECORD_ERRORS as exc:
            raise bad_record(path, f"card #{i}", exc) from None
        by_set.setdefault(card["set"], []).append(card)
    add_printings([c for cards in by_set.values() for c in cards])
    files: dict[str, dict[str, Any]] = {}
    for set_id in sorted(by_set):
        name = SET_NAMES.get(set_id)
        files[f"set-{set_id}.json"] = {
            "game": GAME,
            "set": {"id": set_id, "name": name, "latin": transliterate(name) if name else None},
            "cards": sorted(by_set[set_id], key=lambda c: (c["number"], c["id"])),
        }
    return files
