"""The catalogue facts a battle needs, read the same way from both games' records."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from cardkit.catalogue.store import Card, CardId, CardTable, load_game
from cardkit.games.squad_games.battle.abilities import actions_of
from cardkit.games.squad_games.battle.rules import Strike, game_rules
from cardkit.games.squad_games.squads.cards import squad_card


@dataclass(frozen=True)
class BattleCard:
    """A catalogue card as the battle sees it.

    `steps` is None for a card that never moves (`X`, or no value printed);
    `strike` is None for a card that has no strike (artifacts, terrains); `life`
    is None for a card without life (a terrain or artifact, which the tabletop
    catalogue writes as 0). `abilities` are its catalogue codes (Online
    `abilities`, tabletop `icons`), `values` the numbers the tabletop icons carry.
    """

    id: CardId
    name: str
    type: str
    life: int | None
    strike: Strike | None
    steps: int | None
    flyer: bool
    terrain: bool
    symbiote: bool
    figure: bool
    abilities: tuple[str, ...] = ()
    values: tuple[tuple[str, int], ...] = ()
    actions: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})"

    def value(self, code: str) -> int | None:
        """The number the catalogue prints with `code` (tabletop icons), if any."""
        return dict(self.values).get(code)


def _codes(card: dict[str, Any]) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    """The card's ability codes, and the numbers of those that carry one (tabletop icons `armor: 2`)."""
    icons = card.get("icons") or {}
    codes = tuple(sorted({str(a) for a in card.get("abilities") or []} | set(icons)))
    values = tuple(sorted((str(k), int(v)) for k, v in icons.items() if isinstance(v, int) and v))
    return codes, values


def battle_card(game: str, card: dict[str, Any]) -> BattleCard:
    """One catalogue record of `game` as a BattleCard; the zone facts come from the squad reader."""
    rules = game_rules(game)
    sq = squad_card(card)
    hit = card.get("strike")
    steps = card.get("moves", card.get("move"))
    codes, values = _codes(card)
    kind = str(card.get("type"))
    figure = kind in rules.figure_types
    life = None if card.get("life") is None else int(card["life"])
    if life is not None and life <= 0 and not figure:
        life = None  # a terrain's printed 0 is no life to lose: it stands in its zone and is never defeated
    return BattleCard(
        id=sq.id, name=sq.name, type=kind, life=life,
        strike=Strike(int(hit["weak"]), int(hit["medium"]), int(hit["strong"])) if hit else None,
        steps=None if steps is None else int(steps),
        flyer=sq.flyer, terrain=sq.terrain, symbiote=sq.symbiote,
        figure=figure, abilities=codes, values=values, actions=actions_of(game, codes),
    )


@lru_cache(maxsize=2)
def battle_cards(game: str) -> CardTable[Card, BattleCard]:
    """Every card of `game` as a BattleCard, by id; each is built the first time it is looked up, and once."""
    return CardTable(load_game(game).cards, partial(battle_card, game))
