"""The battle state: card instances in zones, whose turn it is, and the invariants a state keeps.

Zones (part 2, 201.1): the battlefield, each player's reserve (auxiliary) zone,
deck and graveyard; the game zone is the battlefield and the reserve. A state
is frozen: `apply` returns a new one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from cardkit.catalogue.store import CardId
from cardkit.games.registry import BATTLE_GAMES
from cardkit.games.squad_games.battle.abilities import actions_of, incorporeal_code, protections_of
from cardkit.games.squad_games.battle.board import Square, is_square
from cardkit.games.squad_games.battle.cards import BattleCard, battle_cards
from cardkit.games.squad_games.battle.rules import game_rules
from cardkit.problems import Problem, error
from cardkit.visible import quoted

Seat = Literal["first", "second"]
Zone = Literal["battlefield", "reserve", "deck", "graveyard"]
SEATS: tuple[Seat, Seat] = ("first", "second")
ZONES: tuple[Zone, ...] = ("battlefield", "reserve", "deck", "graveyard")
# "Свойства и особенности карт оказывают влияние только на игровую зону" (201.1).
GAME_ZONE: frozenset[str] = frozenset({"battlefield", "reserve"})
STATE_FORMAT = "cardkit-battle"
STATE_VERSION = 1


def other(seat: Seat) -> Seat:
    return "second" if seat == "first" else "first"


@dataclass(frozen=True)
class CardInstance:
    """One card in the battle: its own instance id, the catalogue card, and everything that changes.

    `hidden` marks a card face down whose face the opponent has not seen (the
    second player's third row in Berserk Online); a hidden card is closed.
    `markers` are named effects with a value (`poison` 1); `acquired` are
    properties the card gained in play; `host` is the instance a symbiote lies on.
    """

    iid: int
    card: CardId
    owner: Seat
    controller: Seat
    zone: Zone
    square: Square | None = None
    open: bool = True
    hidden: bool = False
    life: int = 0
    counters: int = 0
    markers: tuple[tuple[str, int], ...] = ()
    acquired: tuple[str, ...] = ()
    host: int | None = None

    @property
    def in_game_zone(self) -> bool:
        return self.zone in GAME_ZONE

    def marker(self, name: str) -> int:
        return dict(self.markers).get(name, 0)

    def to_dict(self, info: BattleCard | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.iid, "card": self.card}
        if info is not None:
            out["name"] = info.name
        out.update({
            "owner": self.owner, "controller": self.controller, "zone": self.zone, "square": self.square,
            "open": self.open, "hidden": self.hidden,
            # A card without life (a terrain) shows none rather than a 0 that would read as defeated.
            "life": None if info is not None and info.life is None else self.life, "counters": self.counters,
            "markers": dict(self.markers), "acquired": list(self.acquired), "host": self.host,
        })
        return out


class _Index:
    """A state's cards by id and by square (the first of each, as a scan in the state's order finds them)."""

    __slots__ = ("by_id", "position", "standing", "on", "has_figures")

    def __init__(self, cards: tuple[CardInstance, ...]) -> None:
        self.by_id: dict[int, CardInstance] = {}
        self.position: dict[int, int] = {}
        self.standing: dict[Square, CardInstance] = {}
        on: dict[Square, list[CardInstance]] = {}
        for i, c in enumerate(cards):
            self.by_id.setdefault(c.iid, c)
            self.position.setdefault(c.iid, i)
            if c.zone == "battlefield" and c.square is not None:
                on.setdefault(c.square, []).append(c)
                if c.host is None:
                    self.standing.setdefault(c.square, c)
        self.on: dict[Square, tuple[CardInstance, ...]] = {sq: tuple(cs) for sq, cs in on.items()}
        self.has_figures: dict[str, bool] = {}


@dataclass(frozen=True)
class BattleState:
    """Everything a judge needs to continue a battle.

    `acted` holds the instances that made an action this turn (they can neither
    move nor act again); `steps_used` how many squares each card moved this
    turn. `seed` and `shuffles` make every deck shuffle replayable.
    """

    game: str
    cards: tuple[CardInstance, ...]
    turn: int = 1
    to_move: Seat = "first"
    acted: frozenset[int] = frozenset()
    steps_used: tuple[tuple[int, int], ...] = ()
    seed: int = 0
    shuffles: int = 0
    next_id: int = 1
    notes: tuple[str, ...] = field(default=(), compare=False)
    # Lookups by id and by square, built on first use: listing the actions of a state with hundreds of cards
    # asks them for every candidate, and a scan of every card each time made listing quadratic. Not a field: the
    # instance's own is set on first use, and a new state (`replace`) starts without one, reading this None.
    _index: ClassVar[_Index | None] = None

    # -- looking things up -------------------------------------------------
    def info(self, inst: CardInstance) -> BattleCard:
        return battle_cards(self.game)[inst.card]

    def _lookup(self) -> _Index:
        if self._index is None:
            object.__setattr__(self, "_index", _Index(self.cards))
        assert self._index is not None
        return self._index

    def by_id(self, iid: int) -> CardInstance | None:
        return self._lookup().by_id.get(iid)

    def at(self, square: Square) -> CardInstance | None:
        """The card standing on `square` (not a symbiote lying on it), if any."""
        return self._lookup().standing.get(square)

    def position(self, inst: CardInstance) -> int:
        """Where `inst` comes in the state's order of cards."""
        return self._lookup().position[inst.iid]

    def on(self, square: Square) -> tuple[CardInstance, ...]:
        """Every card on `square`, a symbiote lying on its host included, in the state's order."""
        return self._lookup().on.get(square, ())

    def locate(self, where: str) -> CardInstance | None:
        """A card by square (`c3`) or by instance id (`#7`)."""
        if where.startswith("#"):
            return self.by_id(int(where[1:])) if where[1:].isdigit() else None
        return self.at(where)

    def where(self, inst: CardInstance) -> str:
        """How actions name `inst`: its square on the field, else `#id`."""
        if inst.zone == "battlefield" and inst.square and inst.host is None:
            return inst.square
        return f"#{inst.iid}"

    def steps_taken(self, iid: int) -> int:
        return dict(self.steps_used).get(iid, 0)

    def in_zone(self, zone: Zone, seat: Seat | None = None) -> Iterator[CardInstance]:
        return (c for c in self.cards if c.zone == zone and (seat is None or c.owner == seat))

    def abilities(self, inst: CardInstance) -> frozenset[str]:
        """The card's ability codes: the catalogue's and those it acquired in play."""
        return frozenset(self.info(inst).abilities) | frozenset(inst.acquired)

    def actions(self, inst: CardInstance) -> frozenset[str]:
        """The actions and strike modifiers the card's abilities make legal (data/battle/abilities.json)."""
        return actions_of(self.game, self.abilities(inst))

    def protection(self, inst: CardInstance, attack: str) -> str | None:
        """The code that makes `attack` (`simple`, `magic`, `shot`, `discharge`, `poison`) do nothing to the card."""
        return protections_of(self.game, self.abilities(inst)).get(attack)

    def incorporeal(self, inst: CardInstance) -> str | None:
        """The code that makes the card incorporeal (Körperlose), if any."""
        return incorporeal_code(self.game, self.abilities(inst))

    def figures(self, seat: Seat) -> list[CardInstance]:
        """The seat's figures still in the game zone."""
        return [c for c in self.cards if c.controller == seat and c.in_game_zone and self.info(c).figure]

    def has_figures(self, seat: Seat) -> bool:
        """Whether the seat has a figure in the game zone; remembered, as every legality check asks it."""
        index = self._lookup()
        if seat not in index.has_figures:
            index.has_figures[seat] = any(c.controller == seat and c.in_game_zone and self.info(c).figure for c in self.cards)
        return index.has_figures[seat]

    # -- the end -----------------------------------------------------------
    @property
    def over(self) -> bool:
        """"Die Schlacht endet, wenn ein Spieler alle Figuren des anderen besiegt hat.\""""
        return not self.has_figures("first") or not self.has_figures("second")

    @property
    def winner(self) -> Seat | None:
        """The seat that still has figures when the other has none; None while it goes on or in a draw."""
        first, second = self.has_figures("first"), self.has_figures("second")
        if first == second:
            return None
        return "first" if first else "second"

    @property
    def result(self) -> str:
        if not self.over:
            return "ongoing"
        return f"{self.winner} wins" if self.winner else "draw"

    # -- changing ----------------------------------------------------------
    def with_card(self, inst: CardInstance) -> BattleState:
        return replace(self, cards=tuple(inst if c.iid == inst.iid else c for c in self.cards))

    def to_dict(self) -> dict[str, Any]:
        table = battle_cards(self.game)
        return {
            "format": STATE_FORMAT, "version": STATE_VERSION, "game": self.game,
            "turn": self.turn, "to_move": self.to_move, "result": self.result,
            "seed": self.seed, "shuffles": self.shuffles, "next_id": self.next_id,
            "acted": sorted(self.acted), "steps_used": {str(k): v for k, v in sorted(self.steps_used)},
            "cards": [c.to_dict(table.get(c.card)) for c in self.cards],
            "notes": list(self.notes),
        }


def state_from_dict(data: dict[str, Any]) -> BattleState:
    """A state from its schema-valid JSON form (`check_state` says whether it is a possible one)."""
    cards = tuple(CardInstance(
        iid=c["id"], card=c["card"], owner=c["owner"], controller=c["controller"], zone=c["zone"], square=c["square"],
        open=c["open"], hidden=c.get("hidden", False), life=c["life"] or 0, counters=c.get("counters", 0),
        markers=tuple(sorted((c.get("markers") or {}).items())), acquired=tuple(c.get("acquired") or ()), host=c.get("host"),
    ) for c in data["cards"])
    return BattleState(
        game=data["game"], cards=cards, turn=data["turn"], to_move=data["to_move"],
        acted=frozenset(data.get("acted", ())), steps_used=tuple(sorted((int(k), v) for k, v in data.get("steps_used", {}).items())),
        seed=data.get("seed", 0), shuffles=data.get("shuffles", 0),
        next_id=data.get("next_id", max((c.iid for c in cards), default=0) + 1), notes=tuple(data.get("notes", ())),
    )


def check_state(state: BattleState) -> list[Problem]:
    """Every invariant the state breaks, as BAD_STATE problems (empty for a possible state)."""
    if state.game not in BATTLE_GAMES:
        return [error("BAD_STATE", f"no battles for game {quoted(state.game)}")]
    table, rules = battle_cards(state.game), game_rules(state.game)
    out: list[Problem] = []

    def bad(inst: CardInstance, message: str) -> None:
        out.append(error("BAD_STATE", f"card #{inst.iid} ({inst.card}): {message}", card=inst.card))

    for iid, n in Counter(c.iid for c in state.cards).items():
        if n > 1:
            out.append(error("BAD_STATE", f"instance id #{iid} is used {n} times"))
    if state.next_id <= max((c.iid for c in state.cards), default=0):
        out.append(error("BAD_STATE", f"next_id {state.next_id} is not above every instance id"))
    standing = Counter(c.square for c in state.cards if c.zone == "battlefield" and c.host is None)
    for square, n in standing.items():
        if square is not None and n > 1:
            out.append(error("BAD_STATE", f"{n} cards stand on {square}"))
    by_id = {c.iid: c for c in state.cards}
    for c in state.cards:
        info = table.get(c.card)
        if info is None:
            bad(c, f"no {state.game} card {quoted(c.card)}")
            continue
        if (c.zone == "battlefield") != (c.square is not None) or (c.square is not None and not is_square(c.square)):
            bad(c, f"a card on the battlefield has a square a1-e6, and only such a card ({c.zone}, square {c.square})")
        if c.hidden and c.open:
            bad(c, "a hidden card is closed")
        if c.zone == "battlefield" and info.terrain:
            bad(c, "a terrain belongs in the reserve zone")
        if c.zone == "battlefield" and info.flyer and not (rules.flyers_start_on_field and c.hidden):
            bad(c, "a flyer belongs in the reserve zone" + (" once revealed" if rules.flyers_start_on_field else ""))
        if c.zone == "reserve" and not (info.flyer or info.terrain):
            bad(c, "only flyers and terrains stand in the reserve zone")
        if c.zone == "deck" and (c.open or c.counters or c.markers or c.acquired or c.controller != c.owner):
            bad(c, "a card in a deck is closed, its owner's, without counters, markers or acquired properties")
        if c.zone in ("battlefield", "reserve") and info.life is not None and c.life <= 0:
            # "Leben ... Null oder kleiner": such a card is defeated at once, so no state keeps it in play to act.
            bad(c, f"life {c.life} in the {c.zone}: a card at 0 life or less is defeated and goes to the graveyard")
        if c.counters < 0:
            bad(c, f"{c.counters} counters")
        if c.host is not None:
            host = by_id.get(c.host)
            if (not info.symbiote or host is None or host.iid == c.iid or host.host is not None or host.zone != "battlefield"
                    or host.square != c.square or c.zone != "battlefield"):
                bad(c, f"lies on #{c.host}, which is no card on its square (only a symbiote lies on a host)")
    for iid in state.acted | {i for i, _ in state.steps_used}:
        if iid not in by_id:
            out.append(error("BAD_STATE", f"acted or moved: no card #{iid}"))
    return out
