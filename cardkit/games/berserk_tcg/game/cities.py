"""The five cities between the players: face down in a random order, revealed by attacks, held by guards.

"the 5 city cards are set between the 2 players, their backside shown so that
the royal city is hidden amongst the others"; a revealed city "becomes the
Level 1 city until the game ends" (the n-th revealed is Level n). "The victory
condition is to take the royal city and at least 2 normal cities."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cardkit.games.berserk_tcg.opening.cards import CardId
from cardkit.games.readings import reading

if TYPE_CHECKING:  # only a new game shuffles: reading a state need not import `random`
    import random

CityName = str  # c1..c5, the position between the players
ROYAL = "Royal"


@dataclass(frozen=True)
class City:
    """One city: its card (hidden until revealed), the Level it became, and who controls it."""

    name: CityName
    card: CardId
    royal: bool
    revealed: bool = False
    level: int | None = None
    controller: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"city": self.name, "card": self.card, "royal": self.royal, "revealed": self.revealed,
                "level": self.level, "controller": self.controller}

    def public(self) -> dict[str, Any]:
        """What both players can see: a face-down city is only its position."""
        shown = self.revealed
        return {"city": self.name, "card": self.card if shown else None, "royal": self.royal if shown else None,
                "level": self.level, "controller": self.controller}


def lay_out(city_cards: Mapping[CardId, Mapping[str, Any]], rng: random.Random) -> tuple[City, ...]:
    """The cities face down in a random order, named c1..c5 by position."""
    ids = sorted(city_cards)
    rng.shuffle(ids)
    return tuple(City(f"c{i}", cid, ROYAL in (city_cards[cid].get("subtypes") or ())) for i, cid in enumerate(ids, 1))


def revealed_count(cities: Sequence[City]) -> int:
    return sum(c.revealed for c in cities)


def reveal(cities: Sequence[City], name: CityName) -> tuple[City, ...]:
    """Turn `name` face up as the next Level; a revealed city keeps its Level."""
    level = revealed_count(cities) + 1
    return tuple(replace(c, revealed=True, level=level) if c.name == name and not c.revealed else c for c in cities)


def take(cities: Sequence[City], name: CityName, player: int) -> tuple[City, ...]:
    return tuple(replace(c, controller=player) if c.name == name else c for c in cities)


def has_won(cities: Sequence[City], player: int) -> bool:
    """The royal city and at least `normal_cities_to_win` (2) normal ones."""
    held = [c for c in cities if c.controller == player]
    need = int(reading("berserk-tcg", "normal_cities_to_win"))
    return any(c.royal for c in held) and sum(not c.royal for c in held) >= need
