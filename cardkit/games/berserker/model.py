"""The fleet game's ships and cards as typed values, read from the catalogue.

Everything here comes from `data/cards/berserker/` (the unit tables and the
card list); nothing is known about a particular card or ship in code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from cardkit.catalogue.store import load_game
from cardkit.errors import CardkitError
from cardkit.visible import quoted

GAME = "berserker"
ShipId = str
CardId = str
Side = str
SIDES: tuple[Side, ...] = ("human", "berserker")


class UnknownName(CardkitError):
    """No ship or card of the fleet game has that name."""

    error_code = "NOT_FOUND"

    def __init__(self, kind: str, text: str, suggestions: Iterable[str] = ()) -> None:
        self.kind = kind
        self.text = text
        self.suggestions = tuple(suggestions)
        hint = f"; did you mean: {', '.join(self.suggestions)}" if self.suggestions else ""
        super().__init__(f"no {kind} called {quoted(text)}{hint}")


@dataclass(frozen=True)
class Ship:
    """One row of a unit table: how many a fleet starts with and what each can do."""

    id: ShipId
    name: str
    side: Side
    count: int
    hits: int
    speed: int
    range: int
    attacks_per_turn: int
    fires_through_ships: bool

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Ship:
        return cls(d["id"], d["name"], d["side"], d["count"], d["hits"], d["speed"], d["range"],
                   d["attacks_per_turn"], d["fires_through_ships"])


@dataclass(frozen=True)
class Restriction:
    """Who may play a card: listed ship types, one side, and/or only against listed cards."""

    text: str
    ships: tuple[ShipId, ...] | None
    side: Side | None
    against: tuple[CardId, ...] | None


@dataclass(frozen=True)
class FleetCard:
    """One kind of card in the shared deck (`value` is a Move card's spaces or an Attack card's range)."""

    id: CardId
    name: str
    count: int
    type: str
    value: int | None
    damage: int | None
    negates: str | None
    restriction: Restriction | None
    destroys_user: bool = False

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FleetCard:
        r = d.get("restriction")
        restriction = None if r is None else Restriction(
            r["text"], tuple(r["ships"]) if r.get("ships") is not None else None,
            r.get("side"), tuple(r["against"]) if r.get("against") is not None else None)
        return cls(d["id"], d["name"], d["count"], d["type"], d["value"], d["damage"], d["negates"],
                   restriction, bool(d.get("destroys_user", False)))


def fold(text: str) -> str:
    """`cardkit.textfold.fold`, imported at the first name looked up: a game command that names
    its cards by id (reading, listing and applying actions) never needs it."""
    from cardkit.textfold import fold as folded

    return folded(text)


def _names_index(items: Iterable[Ship | FleetCard]) -> dict[str, str]:
    index: dict[str, str] = {}
    for item in items:
        index[fold(item.id)] = item.id
        index[fold(item.name)] = item.id
    return index


@dataclass(frozen=True)
class FleetRules:
    """The unit tables and the card list, with name look-ups."""

    ships: dict[ShipId, Ship]
    cards: dict[CardId, FleetCard]

    def ships_of(self, side: Side) -> list[Ship]:
        return [s for s in self.ships.values() if s.side == side]

    def ship(self, text: str) -> Ship:
        """A ship type by id (itself), or by id or name in any case, spacing or punctuation; `UnknownName` otherwise."""
        return self.ships.get(text) or self.ships[_find("ship", text, self._ship_keys, self.ships.values())]

    def card(self, text: str) -> FleetCard:
        """A card kind by id (itself), or as the catalogue's one resolver reads a card anywhere (id or name in
        any case, spacing or punctuation); `UnknownName` with its close names otherwise."""
        known = self.cards.get(text)
        if known is not None:
            return known
        from cardkit.catalogue.lookup import card_index

        found = card_index(GAME).find(text)
        if found.resolved is None or found.resolved not in self.cards:
            raise UnknownName("card", text, found.suggestions)
        return self.cards[found.resolved]

    def find_ship(self, text: str) -> Ship | None:
        return self.ships.get(self._ship_keys.get(fold(text), ""))

    @cached_property
    def _ship_keys(self) -> dict[str, str]:
        return _names_index(self.ships.values())

    def suggest_ship(self, text: str) -> tuple[str, ...]:
        return _suggest(text, self.ships.values())


def _suggest(text: str, items: Iterable[Ship | FleetCard]) -> tuple[str, ...]:
    import difflib  # only a name that is not found needs it

    by_key = {fold(i.name): i for i in items}
    close = difflib.get_close_matches(fold(text), list(by_key), n=3, cutoff=0.5)
    return tuple(f"{by_key[k].name} ({by_key[k].id})" for k in close)


def _find(kind: str, text: str, index: dict[str, str], items: Iterable[Ship | FleetCard]) -> str:
    found = index.get(fold(text))
    if found is None:
        raise UnknownName(kind, text, _suggest(text, items))
    return found


@lru_cache(maxsize=1)
def load_rules() -> FleetRules:
    """The fleet game's ships and cards from the catalogue, read once per process."""
    catalogue = load_game(GAME)
    return FleetRules(
        ships={sid: Ship.from_dict(s) for sid, s in catalogue.ships.items()},
        cards={cid: FleetCard.from_dict(c) for cid, c in catalogue.cards.items()},
    )


def ships_to_json(rules: FleetRules) -> list[dict[str, Any]]:
    """Every ship type's unit-table row, in the catalogue's order: the JSON of `fleet ships --json`."""
    return [{"id": s.id, "name": s.name, "side": s.side, "count": s.count, "hits": s.hits, "speed": s.speed,
             "range": s.range, "attacks_per_turn": s.attacks_per_turn, "fires_through_ships": s.fires_through_ships}
            for s in rules.ships.values()]
