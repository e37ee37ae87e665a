"""The few card facts squads need, read the same way from both games' catalogue records."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardkit.catalogue.store import CardId, load_game

NEUTRAL = "neutral"


@dataclass(frozen=True)
class SquadCard:
    """A catalogue card as the squad rules see it.

    `elements` is the catalogue's element list (empty = neutral); whether `flyer`
    and `terrain` cards start in the reserve zone is the format's `squad.reserve_zone`;
    `symbiote` cards sit on a host.
    """

    id: CardId
    name: str
    cost: int
    elite: bool
    elements: frozenset[str]
    unique: bool
    flyer: bool
    terrain: bool
    symbiote: bool

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
