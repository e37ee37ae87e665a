"""The TCG game state: each side's cards, the five cities, whose turn and phase, and the invariants it keeps.

A `Game` is a value (every change returns a new one). `from_dict` reads the JSON
form that `schemas/tcg-state.schema.json` has already checked for types, and
`check` lists every invariant a state breaks: a state file is one a game can
reach, or it is refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardkit.games.berserk_tcg.game.cities import ROYAL, City, CityName, has_won, revealed_count
from cardkit.games.berserk_tcg.opening.cards import CardId, TcgCard, load_cards
from cardkit.games.berserk_tcg.opening.state import HAND_LIMIT, PlayerState
from cardkit.games.readings import reading
from cardkit.problems import Problem, error
from cardkit.visible import quoted

GAME = "berserk-tcg"
FORMAT = "cardkit-tcg-game"
START_HAND = 7
PHASES: tuple[str, ...] = ("draw", "opening", "main", "defend", "discard")
BAD_STATE = "BAD_STATE"


@dataclass(frozen=True)
class Unit:
    """A card in play: where it stands (a city, or None: its player's side), locked, damage this turn."""

    card: CardId
    city: CityName | None = None
    locked: bool = False
    damage: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "city": self.city, "locked": self.locked, "damage": self.damage}


@dataclass(frozen=True)
class Player:
    name: str
    library: tuple[CardId, ...]
    hand: tuple[CardId, ...] = ()
    trash: tuple[CardId, ...] = ()
    units: tuple[Unit, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "library": list(self.library), "hand": list(self.hand),
                "trash": list(self.trash), "units": [u.to_dict() for u in self.units]}


@dataclass(frozen=True)
class PendingAttack:
    """An announced attack waiting for the defender's choice: the city and the attackers (indices into
    the active player's units, in the order they take the blows)."""

    city: CityName
    attackers: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"city": self.city, "attackers": list(self.attackers)}


@dataclass(frozen=True)
class Game:
    """Both players, the cities, whose turn (0 or 1) and phase, and what this turn has used."""

    cards: Mapping[CardId, TcgCard]
    stats: Mapping[CardId, Mapping[str, Any]]
    players: tuple[Player, Player]
    cities: tuple[City, ...]
    active: int = 0
    phase: str = "opening"
    turn: int = 1
    opened: bool = False
    attacked: bool = False
    winner: int | None = None
    seed: int = 0
    attack: PendingAttack | None = None

    def opponent(self) -> int:
        return 1 - self.active

    @property
    def to_act(self) -> int:
        """The player whose action the game waits for: the defender while it chooses its defenders."""
        return self.opponent() if self.phase == "defend" else self.active

    def city(self, name: CityName) -> City | None:
        return next((c for c in self.cities if c.name == name), None)

    def is_character(self, card: CardId) -> bool:
        s = self.stats[card]
        return s.get("kind") == "character" and s.get("power") is not None and s.get("hp") is not None

    def player_state(self, p: int) -> PlayerState:
        """Player `p` as the one-player opening engine sees it, in the phase that decides what `p` may open.

        Only the active player in its opening phase, before its one card, is in the opening phase;
        everyone else at every other moment is outside it, where only Quick cards open.
        """
        me, them = self.players[p], self.players[1 - p]
        unique = frozenset(self.cards[u.card].name for u in them.units if self.cards[u.card].unique)
        in_opening = p == self.active and self.phase == "opening" and not self.opened
        phase = "opening" if in_opening else ("draw" if p == self.active and self.phase == "draw" else "end")
        return PlayerState(cards=self.cards, library=me.library, hand=me.hand, trash=me.trash,
                           in_play=tuple(u.card for u in me.units), cities=revealed_count(self.cities),
                           opponent_unique=unique, phase=phase, opened=self.opened if p == self.active else False)

    def to_dict(self) -> dict[str, Any]:
        out = {"format": FORMAT, "turn": self.turn, "active": self.active, "phase": self.phase,
               "opened": self.opened, "attacked": self.attacked, "winner": self.winner, "seed": self.seed,
               "cities": [c.to_dict() for c in self.cities], "players": [p.to_dict() for p in self.players]}
        if self.attack is not None:
            out["attack"] = self.attack.to_dict()
        return out

    def summary(self) -> dict[str, Any]:
        """The `state` of `tcg apply --json`: what both players see."""
        return {"turn": self.turn, "active": self.active, "phase": self.phase, "winner": self.winner,
                "revealed": revealed_count(self.cities), "cities": [c.public() for c in self.cities],
                "players": [{"name": p.name, "library": len(p.library), "hand": len(p.hand), "trash": len(p.trash),
                             "units": [u.to_dict() for u in p.units]} for p in self.players]}


@lru_cache(maxsize=1)
def catalogue() -> tuple[Mapping[CardId, TcgCard], Mapping[CardId, Mapping[str, Any]]]:
    """The TCG cards as the opening rules and as battles see them, read once per process."""
    from cardkit.catalogue.store import load_game

    return load_cards(), load_game(GAME).cards


def from_dict(data: Mapping[str, Any]) -> Game:
    """A game from its schema-valid JSON form; `ValueError` for a card id the catalogue lacks."""
    cards, stats = catalogue()

    def ids(values: Sequence[str]) -> tuple[CardId, ...]:
        bad = [v for v in values if v not in cards or v not in stats]
        if bad:
            raise ValueError(f"unknown card {quoted(bad[0], 40)}")
        return tuple(values)

    players = tuple(Player(p["name"], ids(p["library"]), ids(p["hand"]), ids(p["trash"]),
                           tuple(Unit(ids([u["card"]])[0], u["city"], u["locked"], u["damage"]) for u in p["units"]))
                    for p in data["players"])
    cities = tuple(City(c["city"], ids([c["card"]])[0], c["royal"], c["revealed"], c["level"], c["controller"])
                   for c in data["cities"])
    pending = data.get("attack")
    attack = None if pending is None else PendingAttack(pending["city"], tuple(pending["attackers"]))
    return Game(cards, stats, (players[0], players[1]), cities, data["active"], data["phase"], data["turn"],
                data["opened"], data["attacked"], data["winner"], data["seed"], attack)


def able_guards(game: Game, city_name: str) -> list[int]:
    """The defender's characters in the city that can act (not locked): those it may choose to defend with."""
    city = game.city(city_name)
    if city is None or city.controller != game.opponent():
        return []
    return [i for i, u in enumerate(game.players[game.opponent()].units)
            if u.city == city_name and not u.locked and game.is_character(u.card)]


def hand_bound(game: Game, p: int) -> int:
    """The most cards player `p` can hold now: 7 after its own turn (and so until its draw); the active
    player adds its draw from the opening phase on and a taken city's cards from the main phase on, and only
    the discard phase holds more than 7 for long."""
    if p != game.active or game.phase == "draw":
        return HAND_LIMIT
    return HAND_LIMIT + 1 + (int(reading(GAME, "taking_city_draw")) if game.phase != "opening" else 0)


def check(game: Game) -> list[Problem]:
    """Every invariant `game` breaks, as BAD_STATE problems; empty for a state a game can reach."""
    out: list[Problem] = []

    def bad(message: str, card: str | None = None) -> None:
        out.append(error(BAD_STATE, message, card=card))

    _check_cities(game, bad)
    for p, player in enumerate(game.players):
        who = quoted(player.name, 40)
        for zone, held in (("hand", player.hand), ("library", player.library), ("trash", player.trash)):
            for c in dict.fromkeys(held):
                if game.cards[c].is_city:
                    bad(f"city card {c} is in {who}'s {zone}; cities are never in a hand, library or trash", c)
        if len(player.hand) > hand_bound(game, p):
            bad(f"{who} holds {len(player.hand)} cards; at this point of the game a hand holds at most "
                f"{hand_bound(game, p)}")
        for unit in player.units:
            card = game.cards[unit.card]
            if card.is_city or not card.stays_in_play:
                bad(f"{unit.card} is in play as a unit of {who}, but a {game.stats[unit.card].get('kind')} card never "
                    "stays in play", unit.card)
                continue
            character = game.is_character(unit.card)
            if unit.city is not None and not character:
                bad(f"{unit.card} of {who} stands in {unit.city}, but only characters stand in cities", unit.card)
            hp = int(game.stats[unit.card]["hp"]) if character else None
            if hp is not None and unit.damage >= hp:
                bad(f"{unit.card} of {who} has {unit.damage} damage on {hp} HP: it would be in the trash", unit.card)
            if hp is None and unit.damage:
                bad(f"{unit.card} of {who} is no character and takes no damage", unit.card)
            city = game.city(unit.city) if unit.city is not None else None
            if unit.city is not None and (city is None or city.controller != p):
                bad(f"{unit.card} of {who} stands in {unit.city}, which {who} does not control", unit.card)
    in_play = Counter(game.cards[u.card].name for pl in game.players for u in pl.units if game.cards[u.card].unique)
    for name, n in in_play.items():
        if n > 1:
            bad(f"the Unique card {quoted(name)} is in play {n} times; it can't be put in game more than once at the same time")
    _check_turn(game, bad)
    return out


def _check_cities(game: Game, bad: Any) -> None:
    for city in game.cities:
        s = game.stats[city.card]
        if s.get("kind") != "city":
            bad(f"city {city.name} is card {city.card}, which is not a city card", city.card)
        elif city.royal != (ROYAL in (s.get("subtypes") or ())):
            bad(f"city {city.name} says royal: {str(city.royal).lower()}, but its card {city.card} "
                f"{'is not' if city.royal else 'is'} the royal city", city.card)
        if not city.revealed and (city.level is not None or city.controller is not None):
            bad(f"city {city.name} is face down, so it has no Level and no controller: only an attack reveals a city")
        if city.revealed and city.level is None:
            bad(f"city {city.name} is revealed without a Level: the n-th revealed city is Level n")
    if len({c.name for c in game.cities}) != len(game.cities) or len({c.card for c in game.cities}) != len(game.cities):
        bad("expected five differently named cities of five different city cards")
    if sum(c.royal for c in game.cities) != 1:
        bad("expected exactly one royal city")
    levels = sorted(c.level for c in game.cities if c.level is not None)
    if levels != list(range(1, len(levels) + 1)):
        bad(f"revealed cities have Levels {levels}; the n-th revealed city is Level n, so they are 1 to {len(levels)}")


def _check_turn(game: Game, bad: Any) -> None:
    me = game.players[game.active]
    if game.winner is not None:
        loser = game.players[1 - game.winner]
        decked = game.winner != game.active and not me.library
        if not (has_won(game.cities, game.winner) or decked):
            bad(f"player {game.winner + 1} is the winner but neither holds the royal city and "
                f"{reading(GAME, 'normal_cities_to_win')} normal ones nor faced {quoted(loser.name, 40)} unable to draw")
    elif any(has_won(game.cities, p) for p in (0, 1)):
        bad("a player holds the royal city and enough normal ones, yet no winner is named")
    if game.phase in ("draw", "opening") and game.attacked:
        bad(f"the battle was announced in the {game.phase} phase; it is the main phase's last step")
    if game.phase == "draw" and game.opened:
        bad("a card was opened before the drawing phase")
    if game.phase in ("draw", "opening") and any(u.locked for u in me.units):
        bad(f"a card of {quoted(me.name, 40)} is locked in its {game.phase} phase; its unlocking phase unlocked them all")
    # only a battle deals damage, and the ending phase heals it: damage stands only after this turn's battle
    if any(u.damage for pl in game.players for u in pl.units) and not (game.phase == "main" and game.attacked):
        bad(f"a card in play has damage in the {game.phase} phase; only this turn's battle deals damage and "
            "the ending phase heals it")
    if game.phase == "discard" and len(me.hand) <= HAND_LIMIT:
        bad(f"the discard phase with {len(me.hand)} cards in hand: only a hand over {HAND_LIMIT} is cut")
    if (game.phase == "defend") != (game.attack is not None):
        bad("an announced attack waits for its defenders exactly in the defend phase")
    if game.attack is not None:
        city = game.city(game.attack.city)
        units = me.units
        if city is None or city.controller == game.active or not game.attacked:
            bad(f"the pending attack on {game.attack.city} is not one the active player announced on another's city")
        if len(set(game.attack.attackers)) != len(game.attack.attackers) or any(
                i >= len(units) or not game.is_character(units[i].card) for i in game.attack.attackers):
            bad("the pending attack names attackers that are not the active player's characters, or one twice")
        elif any(units[i].locked for i in game.attack.attackers):
            bad("an announced attacker is locked; a locked card can't take any action, and attackers lock in the battle")
        if not able_guards(game, game.attack.city):
            bad(f"the defend phase waits on {game.attack.city}, which has no able guards; such a city is fought at once")
