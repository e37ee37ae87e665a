"""The fleet game state: ships on the 8x8 board, the shared deck, hands, turn and phase, and its invariants.

A `BoardState` is a value (every change returns a new one). Shuffles are seeded:
the set-up shuffle by `seed`, the n-th reshuffle of the discard by `seed` and n,
so a game replays exactly. `from_dict` reads the JSON form that
`schemas/fleet-state.schema.json` has checked for types; `check` lists every
invariant a state breaks.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from cardkit.errors import UnreadableInput
from cardkit.games.berserker.game.board import GRID
from cardkit.games.berserker.model import SIDES, CardId, FleetRules, Side, load_rules
from cardkit.games.board import Square
from cardkit.problems import Problem, error
from cardkit.visible import quoted

DRAW = 3
HAND_LIMIT = 5
PHASES: tuple[str, ...] = ("orders", "maneuver", "fire")
FORMAT = "cardkit-fleet-board"
BAD_STATE = "BAD_STATE"


class BadFleets(UnreadableInput):
    """A fleet file is not a legal starting fleet, or both files are one side's."""


@dataclass(frozen=True)
class ShipOnBoard:
    side: Side
    type: str
    square: Square
    hits: int

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side, "type": self.type, "square": self.square, "hits": self.hits}


@dataclass(frozen=True)
class BoardState:
    """Everything the next action depends on. `moved`/`attacks` key ships by their square this turn."""

    ships: tuple[ShipOnBoard, ...]
    turn: Side
    phase: str = "orders"
    number: int = 1
    seed: int = 0
    sandbox: bool = False
    deck: tuple[CardId, ...] = ()
    discard: tuple[CardId, ...] = ()
    hands: Mapping[Side, tuple[CardId, ...]] = field(default_factory=dict)
    reshuffles: int = 0
    moved: frozenset[Square] = frozenset()
    attacks: Mapping[Square, int] = field(default_factory=dict)
    winner: Side | None = None

    def ship_at(self, square: Square) -> ShipOnBoard | None:
        return self._by_square.get(square)

    @cached_property
    def _by_square(self) -> dict[Square, ShipOnBoard]:
        # Once per state, as `occupied`: every candidate action `legal_actions` checks looks its ships up.
        # Built from the last ship to the first, so that of two on one square (a state `check` refuses) the
        # first is found, as a search in order finds it.
        return {s.square: s for s in reversed(self.ships)}

    def fleet(self, side: Side) -> list[ShipOnBoard]:
        return [s for s in self.ships if s.side == side]

    @cached_property
    def occupied(self) -> frozenset[Square]:
        # Worked out once per state (a state never changes): each candidate move `legal_actions` tries asks.
        return frozenset(s.square for s in self.ships)

    def hand(self, side: Side) -> tuple[CardId, ...]:
        return tuple(self.hands.get(side, ()))

    def summary(self) -> dict[str, Any]:
        """The `state` of `fleet apply --json`: ships, whose turn, the winner."""
        return {"ships": [s.to_dict() for s in self.ships], "turn": self.turn, "winner": self.winner}

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "turn": self.turn, "phase": self.phase, "number": self.number, "winner": self.winner,
            "seed": self.seed, "sandbox": self.sandbox, "reshuffles": self.reshuffles,
            "ships": [s.to_dict() for s in self.ships],
            "moved": sorted(self.moved), "attacks": dict(sorted(self.attacks.items())),
            "hands": {side: list(self.hand(side)) for side in SIDES},
            "deck": list(self.deck), "discard": list(self.discard),
        }


def from_dict(data: Mapping[str, Any], rules: FleetRules | None = None) -> BoardState:
    """A state from its schema-valid JSON form; `ValueError` naming a ship type or card the rules lack."""
    rules = rules or load_rules()

    def known(value: str, allowed: Mapping[str, Any], what: str) -> str:
        if value not in allowed:
            raise ValueError(f"no {what} {quoted(value, 40)}")
        return value

    def cards(values: list[str]) -> tuple[CardId, ...]:
        return tuple(known(c, rules.cards, "card") for c in values)

    odd = [q for q in (*data["moved"], *data["attacks"]) if GRID.coords(q) is None or q != q.lower()]
    if odd:
        raise ValueError(f"{quoted(odd[0], 40)} is not a square a1..h8")
    return BoardState(
        ships=tuple(ShipOnBoard(s["side"], known(s["type"], rules.ships, "ship type"), s["square"], s["hits"])
                    for s in data["ships"]),
        turn=data["turn"], phase=data["phase"], number=data["number"], seed=data["seed"], sandbox=data["sandbox"],
        deck=cards(data["deck"]), discard=cards(data["discard"]),
        hands={side: cards(data["hands"][side]) for side in SIDES}, reshuffles=data["reshuffles"],
        moved=frozenset(data["moved"]), attacks=dict(data["attacks"]), winner=data["winner"])


def check(state: BoardState, rules: FleetRules | None = None) -> list[Problem]:
    """Every invariant `state` breaks, as BAD_STATE problems; empty for a state a game can reach."""
    rules = rules or load_rules()
    out: list[Problem] = []

    def bad(message: str) -> None:
        out.append(error(BAD_STATE, message))

    squares = Counter(s.square for s in state.ships)
    for square, n in squares.items():
        if n > 1:
            bad(f"{n} ships on {square}: ships may not stack")
    for ship in state.ships:
        kind = rules.ships[ship.type]
        if kind.side != ship.side:
            bad(f"the {kind.name} on {ship.square} is a {kind.side} ship, not a {ship.side} one")
        if ship.hits > kind.hits:
            bad(f"the {kind.name} on {ship.square} has {ship.hits} hits; its type has {kind.hits}")
    for type_id, n in Counter(s.type for s in state.ships).items():
        if n > rules.ships[type_id].count:
            bad(f"{n} {rules.ships[type_id].name}s on the board; a fleet starts with {rules.ships[type_id].count} and never grows")
    if state.winner is not None and state.fleet(other(state.winner)):
        bad(f"the {state.winner} fleet is the winner while the {other(state.winner)} fleet still stands: "
            "the winner is the side that destroyed the opposing fleet")
    if state.winner is None and not all(state.fleet(side) for side in SIDES):
        bad("a fleet is destroyed, yet no winner is named")
    # a ship that moved or attacked may since have been destroyed (Marines), so its square may be empty
    theirs = {s.square for s in state.fleet(other(state.turn))}
    if state.moved & theirs or set(state.attacks) & theirs:
        bad(f"a ship that moved or attacked this turn stands on a square of the {other(state.turn)} fleet")
    for square, n in state.attacks.items():
        shooter = state.ship_at(square)
        if shooter is not None and n > rules.ships[shooter.type].attacks_per_turn:
            bad(f"the ship on {square} made {n} attacks; its type makes {rules.ships[shooter.type].attacks_per_turn} per turn")
    if state.phase != "fire" and state.attacks:
        bad(f"attacks were made this turn, so the {state.phase} phase is over")
    _check_cards(state, rules, bad)
    return out


def _check_cards(state: BoardState, rules: FleetRules, bad: Any) -> None:
    if state.sandbox:
        if state.deck or state.discard or any(state.hand(side) for side in SIDES) or state.phase == "orders":
            bad("a sandbox tracks no deck, discard or hands, and never waits for a discard")
        return
    held = Counter(state.deck) + Counter(state.discard) + sum((Counter(state.hand(s)) for s in SIDES), Counter())
    if held != Counter(standard_deck(rules)):
        extra = sorted((held - Counter(standard_deck(rules))).items())
        missing = sorted((Counter(standard_deck(rules)) - held).items())
        bad(f"the deck, discard and hands are not the shared deck's cards (more: {extra[:3]}, fewer: {missing[:3]})")
    waiting = len(state.hand(state.turn))
    if state.phase == "orders" and waiting <= HAND_LIMIT:
        bad(f"the orders phase waits for a discard only over {HAND_LIMIT} cards; the hand holds {waiting}")
    if state.phase != "orders" and waiting > HAND_LIMIT:
        bad(f"the {state.turn} holds {waiting} cards in the {state.phase} phase: a hand over {HAND_LIMIT} is cut first")
    if len(state.hand(other(state.turn))) > HAND_LIMIT:
        bad(f"the {other(state.turn)} holds {len(state.hand(other(state.turn)))} cards; a hand keeps at most {HAND_LIMIT}")


def standard_deck(rules: FleetRules) -> list[CardId]:
    """The shared deck: every card kind as often as the card list's `#` says, in catalogue order."""
    return [cid for cid, card in rules.cards.items() for _ in range(card.count)]


def draw(state: BoardState, side: Side, n: int = DRAW) -> BoardState:
    """`side` draws `n`; "If the deck runs out, shuffle the discard and draw from it"."""
    deck, discard, hand, shuffles = list(state.deck), list(state.discard), list(state.hand(side)), state.reshuffles
    for _ in range(n):
        if not deck and discard:
            shuffles += 1
            deck = discard
            random.Random(f"{state.seed}/{shuffles}").shuffle(deck)
            discard = []
        if not deck:
            break
        hand.append(deck.pop(0))
    return replace(state, deck=tuple(deck), discard=tuple(discard), hands={**state.hands, side: tuple(hand)},
                   reshuffles=shuffles)


def begin_turn(state: BoardState, side: Side) -> BoardState:
    """The Orders phase of `side`: draw 3, then maneuver, unless the hand is over 5 and must discard first."""
    state = replace(state, turn=side, phase="orders", moved=frozenset(), attacks={})
    if state.sandbox:
        return replace(state, phase="maneuver")
    state = draw(state, side)
    return state if len(state.hand(side)) > HAND_LIMIT else replace(state, phase="maneuver")


def other(side: Side) -> Side:
    return SIDES[1 - SIDES.index(side)]

