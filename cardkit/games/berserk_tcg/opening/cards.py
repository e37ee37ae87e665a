"""The parts of a TCG card the opening engine needs, built once from the catalogue."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cardkit.games.berserk_tcg import COLOURS

CardId = str


@dataclass(frozen=True)
class Cost:
    """Balls to pay: one count per colour (cards of that colour) plus a colourless part (any cards)."""

    white: int = 0
    green: int = 0
    black: int = 0
    red: int = 0
    colourless: int = 0

    @property
    def coloured(self) -> tuple[int, int, int, int]:
        return (self.white, self.green, self.black, self.red)

    @property
    def total(self) -> int:
        return sum(self.coloured) + self.colourless

    @classmethod
    def from_dict(cls, data: Mapping[str, int] | None) -> Cost:
        data = data or {}
        return cls(**{k: int(data.get(k, 0) or 0) for k in (*COLOURS, "colourless")})


@dataclass(frozen=True)
class TcgCard:
    """A card as the opening rules see it; `colour` is None only for cities."""

    id: CardId
    name: str
    colour: str | None
    cost: Cost
    level: int
    unique: bool = False
    mercenary: bool = False
    kind: str = "character"
    quick: bool = False

    @property
    def colour_index(self) -> int | None:
        return COLOURS.index(self.colour) if self.colour in COLOURS else None

    @property
    def is_city(self) -> bool:
        return self.kind == "city"

    @property
    def stays_in_play(self) -> bool:
        """False for a Normal effect: "you play the card, its effect occurs, then you trash it"."""
        return self.kind != "effect-normal"

    @classmethod
    def from_catalogue(cls, card: Mapping[str, Any]) -> TcgCard:
        return cls(
            id=card["id"], name=card["name"], colour=card.get("colour"), cost=Cost.from_dict(card.get("cost")),
            level=int(card.get("level") or 0), unique=bool(card.get("unique")),
            mercenary=bool(card.get("mercenary")), kind=card.get("kind") or "character", quick=bool(card.get("quick")),
        )


def make_card(id: CardId = "T-001", *, name: str | None = None, colour: str | None = "white",
              cost: Cost | None = None, level: int = 0, unique: bool = False, mercenary: bool = False,
              kind: str = "character", quick: bool = False) -> TcgCard:
    """A card built by hand, for tests and examples (defaults: white, Level 0, cost 1 white)."""
    return TcgCard(id=id, name=name or id, colour=colour, cost=cost or Cost(white=1), level=level,
                   unique=unique, mercenary=mercenary, kind=kind, quick=quick)


def load_cards() -> Mapping[CardId, TcgCard]:
    """Every TCG card in the catalogue, by id; each is built the first time it is looked up."""
    from cardkit.catalogue.store import CardTable, load_game

    return CardTable(load_game("berserk-tcg").cards, TcgCard.from_catalogue)


def discard_key(card: TcgCard, dead: bool = False) -> tuple[bool, bool, int, CardId]:
    """Smaller is discarded sooner: a dead Unique, then Mercenaries, then higher Level, then lower id.

    The hand keeps what it can open soonest; Mercenaries are the fodder the rules
    recommend for paying costs; a Unique whose name is in play cannot be opened at all.
    """
    return (not dead, not card.mercenary, -card.level, card.id)


def open_key(card: TcgCard) -> tuple[int, int, CardId]:
    """Smaller is opened first: higher Level, then larger total cost, then lower id."""
    return (-card.level, -card.cost.total, card.id)


@dataclass(frozen=True)
class DiscardPolicy:
    """Which cards go first when the hand is cut down to the limit at the end of the turn.

    The rules say only "he must discard as many cards as needed until he has only
    7"; which ones is the player's choice, so it is a policy, named in the output.
    `key(card, dead)` orders cards, smaller discarded sooner; `dead` is True for a
    Unique card whose name is in play (it cannot be opened).
    """

    name: str
    description: str
    key: Callable[[TcgCard, bool], tuple[Any, ...]]

    def __str__(self) -> str:
        return self.name


LEAST_USEFUL = DiscardPolicy(
    "least-useful", "a dead Unique card first, then Mercenaries, then the highest Level, then the lowest id",
    discard_key)
KEEP_HIGH_LEVEL = DiscardPolicy(
    "keep-high-level", "a dead Unique card first, then the lowest Level, then Mercenaries, then the lowest id",
    lambda card, dead: (not dead, card.level, not card.mercenary, card.id))
DISCARD_POLICIES: dict[str, DiscardPolicy] = {p.name: p for p in (LEAST_USEFUL, KEEP_HIGH_LEVEL)}
