"""The catalogue facts a battle needs, read the same way from both games' records."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardkit.catalogue.store import CardId, load_game
from cardkit.games.battle.rules import Strike, game_rules
from cardkit.squads.cards import squad_card


@dataclass(frozen=True, slots=True)
class BattleCard:
    """A catalogue card as the battle sees it.

    `steps` is None for a card that never moves (`X`, or no value printed);
    `strike` is None for a card that has no strike (artifacts, terrains).
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
    ranged_melee: bool
    shot: bool
    aimed: bool
    magic: bool
    collects: bool

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})"


def _abilities(card: dict[str, Any]) -> set[str]:
    """Every ability key and each of its dotted prefixes (`kick.aim.2` gives `kick`, `kick.aim`, `kick.aim.2`)."""
    keys: set[str] = set(card.get("icons") or {})
    for ability in card.get("abilities") or []:
        parts = str(ability).split(".")
        keys |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return keys


def battle_card(game: str, card: dict[str, Any]) -> BattleCard:
    """One catalogue record of `game` as a BattleCard; the zone facts come from the squad reader."""
    rules = game_rules(game)
    sq = squad_card(card)
    hit = card.get("strike")
    steps = card.get("moves", card.get("move"))
    abilities = _abilities(card)
    kind = str(card.get("type"))
    return BattleCard(
        id=sq.id, name=sq.name, type=kind,
        life=None if card.get("life") is None else int(card["life"]),
        strike=Strike(int(hit["weak"]), int(hit["medium"]), int(hit["strong"])) if hit else None,
        steps=None if steps is None else int(steps),
        flyer=sq.flyer, terrain=sq.terrain, symbiote=sq.symbiote,
        figure=kind in rules.figure_types,
        ranged_melee=bool(abilities & rules.ranged_melee_abilities),
        shot=bool(abilities & rules.shot_abilities),
        aimed=bool(abilities & rules.aimed_abilities),
        magic=bool(abilities & rules.magic_abilities),
        collects=bool(abilities & rules.counter_abilities),
    )


@lru_cache(maxsize=2)
def battle_cards(game: str) -> dict[CardId, BattleCard]:
    """Every card of `game` as a BattleCard, by id (built once)."""
    return {cid: battle_card(game, card) for cid, card in load_game(game).cards.items()}
