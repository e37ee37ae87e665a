"""The few card facts squads need, read the same way from both games' catalogue records."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cardkit.catalogue.store import CardId, load_game

NEUTRAL = "neutral"


_FIELDS = ("id", "name", "cost", "elite", "elements", "unique", "flyer", "terrain", "symbiote")


class SquadCard:
    """A catalogue card as the squad rules see it.

    `elements` is the catalogue's element list (empty = neutral); whether `flyer`
    and `terrain` cards start in the reserve zone is the format's `squad.reserve_zone`;
    `symbiote` cards sit on a host.

    Frozen, equal, hashed and printed by its fields, as the frozen dataclass it was: a plain class because the
    battle engine loads it at every command's start, where a dataclass (and the `inspect` module it imports)
    was the largest part of a battle command's imports that the battle itself does not need.
    """

    __slots__ = _FIELDS

    id: CardId
    name: str
    cost: int
    elite: bool
    elements: frozenset[str]
    unique: bool
    flyer: bool
    terrain: bool
    symbiote: bool

    def __init__(self, id: CardId, name: str, cost: int, elite: bool, elements: frozenset[str], unique: bool,
                 flyer: bool, terrain: bool, symbiote: bool) -> None:
        put = object.__setattr__
        for field, value in zip(_FIELDS, (id, name, cost, elite, elements, unique, flyer, terrain, symbiote)):
            put(self, field, value)

    def _values(self) -> tuple[Any, ...]:
        return (self.id, self.name, self.cost, self.elite, self.elements, self.unique, self.flyer, self.terrain,
                self.symbiote)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, SquadCard)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"SquadCard({', '.join(f'{name}={value!r}' for name, value in zip(_FIELDS, self._values()))})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through the constructor (pickle, copy): the default restores slots by assignment, which is refused.
        return (SquadCard, self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})"


# The tabletop catalogue calls symbiotes "parasite"; Online has no symbiote type yet.
SYMBIOTE_TYPES: frozenset[str] = frozenset({"parasite", "symbiote"})


def squad_card(card: dict[str, Any]) -> SquadCard:
    """Read a catalogue record of either squad game (fields differ: `flying` vs type `flyer`)."""
    abilities = card.get("abilities") or []
    return SquadCard(
        id=card["id"],
        name=card.get("name", card["id"]),
        cost=int(card.get("cost") or 0),
        elite=bool(card.get("elite")),
        elements=frozenset(card.get("elements") or ()),
        unique=bool(card.get("unique")) or "unique" in abilities,
        flyer=card.get("flying") is True or card.get("type") == "flyer",
        terrain=card.get("type") == "terrain",
        symbiote=card.get("type") in SYMBIOTE_TYPES,
    )


@lru_cache(maxsize=4)
def squad_cards(game: str) -> dict[CardId, SquadCard]:
    """Every card of `game` as a SquadCard, by id (built once)."""
    return {cid: squad_card(card) for cid, card in load_game(game).cards.items()}
