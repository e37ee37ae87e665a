"""Import the Berserker fleet game's card list and unit tables from its rules text.

Only the tables' facts are taken: names, counts, numbers and the short
restriction labels; no prose.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cardkit.errors import UnreadableInput
from cardkit.jsonio import read_text_input
from cardkit.visible import quoted

GAME = "berserker"
CARD_TYPES: dict[str, str] = {"M": "move", "A": "attack", "D": "defense"}
# What each restriction label of the card list means, as data.
RESTRICTIONS: dict[str, dict[str, Any]] = {
    "Ramships only": {"ships": ["ramship"], "side": None, "against": None},
    "C-Plus Guns only": {"ships": ["c-plus-gun-ship"], "side": None, "against": None},
    "Humans only": {"ships": None, "side": "human", "against": None},
    "Berserker only vs Marines": {"ships": None, "side": "berserker", "against": ["marines"]},
    "Berserker only": {"ships": None, "side": "berserker", "against": None},
}
_LABELS = "|".join(re.escape(k) for k in RESTRICTIONS)
_CARD_ROW = re.compile(
    r"([A-Z][a-z]+(?: [A-Z][a-z]+)*) (\d+) (\d+|-) ([MAD])"
    rf"(?: ({_LABELS}))?(?:; Does (\d+) Points? Damage)?"
)
_SHIP_ROW = re.compile(r"(\d+) ([A-Z][A-Za-z-]*(?: [A-Z][A-Za-z-]*)*) (\d+) (\d+) (\d+)")
_ATTACKS = re.compile(r"(?:The )?([A-Z][A-Za-z-]*?)s? can make up to (\d+) attacks per turn")
_DESTROYED = re.compile(r'If an? ([A-Z][A-Za-z-]*) uses an? ["\u201c]?([A-Z][A-Za-z -]*?)["\u201d]? \w+ card the \1 is destroyed')
_PASS_THROUGH = re.compile(r"cannot attack through other ships except for ([A-Z][A-Za-z-]*(?: [A-Z][A-Za-z-]*)*)")


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _section(text: str, start: str, end: str | None) -> str:
    i = text.find(start)
    if i < 0:
        raise ValueError(f"no {quoted(start)} section")
    j = text.find(end, i) if end else len(text)
    return text[i + len(start): j if j >= 0 else len(text)]


def _ship_id(label: str, ship_ids: list[str]) -> str:
    """Map a prose label (`Cruisers`, `C-Plus Guns`) to a ship id by its leading word."""
    key = slug(label).split("-")[0]
    for sid in ship_ids:
        if sid.startswith(key):
            return sid
    raise ValueError(f"no ship called {quoted(label)}")


def parse_ships(text: str) -> list[dict[str, Any]]:
    """Both unit tables' ships, with attacks per turn and firing through ships from the rules' sentences."""
    rows = [("berserker", m) for m in _SHIP_ROW.finditer(_section(text, "THE BERSERKER", "HUMAN FLEET"))]
    rows += [("human", m) for m in _SHIP_ROW.finditer(_section(text, "HUMAN FLEET UNIT TABLE", "# ="))]
    ships: list[dict[str, Any]] = [
        {
            "id": slug(m.group(2)), "name": m.group(2), "side": side, "count": int(m.group(1)),
            "hits": int(m.group(3)), "speed": int(m.group(4)), "range": int(m.group(5)),
            "attacks_per_turn": 1, "fires_through_ships": False,
        }
        for side, m in rows
    ]
    ids = [s["id"] for s in ships]
    for m in _ATTACKS.finditer(text):
        sid = _ship_id(m.group(1), ids)
        next(s for s in ships if s["id"] == sid)["attacks_per_turn"] = int(m.group(2))
    for m in _PASS_THROUGH.finditer(text):
        sid = _ship_id(m.group(1), ids)
        next(s for s in ships if s["id"] == sid)["fires_through_ships"] = True
    return ships


def parse_cards(text: str) -> list[dict[str, Any]]:
    """The card list's rows: count, type, value, damage and restriction label of each card kind."""
    # Cards whose user is destroyed by playing them ("If a Ramship uses a Marines card ...").
    sacrificial = {slug(m.group(2)) for m in _DESTROYED.finditer(text)}
    cards = []
    for m in _CARD_ROW.finditer(_section(text, "Range Type Notes", None)):
        name, count, value, letter, label, damage = m.groups()
        kind = CARD_TYPES[letter]
        if kind == "attack":
            dmg: int | None = int(damage) if damage else 1
            negates = None
        elif kind == "defense":
            # "negates 1 point of damage" for Robot Security; the others negate the attack.
            dmg = 1 if label and RESTRICTIONS[label]["against"] else None
            negates = "damage" if dmg else "attack"
        else:
            dmg, negates = 0, None
        cards.append({
            "id": slug(name), "name": name, "count": int(count), "type": kind,
            "value": None if value == "-" else int(value), "damage": dmg, "negates": negates,
            "restriction": {"text": label, **RESTRICTIONS[label]} if label else None,
            "destroys_user": slug(name) in sacrificial,
        })
    return cards


def import_files(path: Path) -> dict[str, dict[str, Any]]:
    """`cards.json` and `ships.json` from the fleet game's rules text at `path`."""
    text = " ".join(read_text_input(path, max_bytes=4 << 20).split())
    try:
        ships, cards = parse_ships(text), parse_cards(text)
    except ValueError as exc:
        raise UnreadableInput(path, str(exc)) from None
    if not ships or not cards:
        raise UnreadableInput(path, "no unit table or card list found")
    return {
        "cards.json": {"game": GAME, "set": {"id": "standard", "name": "Standard deck"}, "cards": cards},
        "ships.json": {"game": GAME, "ships": ships},
    }
