"""The fleet game in play: ships on the 8x8 board, the shared deck, hands, turn and phase.

A `BoardState` is a value (every change returns a new one) that reads from and
writes to JSON. Shuffles are seeded: the set-up shuffle by `seed`, the n-th
reshuffle of the discard by `seed` and n, so a game replays exactly.
Straight-line geometry (orthogonal or diagonal paths) lives here for moves and
fire alike.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping

from cardkit.errors import UnreadableInput
from cardkit.games.berserker.fleet import BOARD, Board, FleetReport, check_fleet
from cardkit.games.berserker.model import SIDES, CardId, FleetRules, Side, load_rules
from cardkit.jsonio import json_shown

Square = str
DRAW = 3
HAND_LIMIT = 5
PHASES: tuple[str, ...] = ("orders", "maneuver", "fire")
FORMAT = "cardkit-fleet-board"
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


class BadFleets(UnreadableInput):
    """A fleet file is not a legal starting fleet, or both files are one side's."""


def coords(square: Square, board: Board = BOARD) -> tuple[int, int] | None:
    """(file index, rank) of a square like `c4`, or None when it is not one on the board."""
    if len(square) < 2 or not square[1:].isdigit():
        return None
    f, r = board.files.find(square[0].lower()), int(square[1:])
    return (f, r) if f >= 0 and 1 <= r <= board.ranks else None


def square_at(f: int, r: int, board: Board = BOARD) -> Square | None:
    return f"{board.files[f]}{r}" if 0 <= f < len(board.files) and 1 <= r <= board.ranks else None


def line_between(start: Square, end: Square, board: Board = BOARD) -> tuple[int, tuple[Square, ...]] | None:
    """(distance, squares strictly between) when `end` is on a straight line from `start`; else None."""
    a, b = coords(start, board), coords(end, board)
    if a is None or b is None or a == b:
        return None
    df, dr = b[0] - a[0], b[1] - a[1]
    if df and dr and abs(df) != abs(dr):
        return None
    n = max(abs(df), abs(dr))
    step = (df // n, dr // n)
    between = tuple(square_at(a[0] + step[0] * i, a[1] + step[1] * i, board) or "" for i in range(1, n))
    return n, between


def ray(start: Square, direction: tuple[int, int], n: int, board: Board = BOARD) -> Square | None:
    """The square `n` steps from `start` in `direction`, or None off the board."""
    a = coords(start, board)
    return None if a is None else square_at(a[0] + direction[0] * n, a[1] + direction[1] * n, board)


def forward(side: Side, board: Board = BOARD) -> tuple[int, int]:
    """A side's forward direction: away from its home rank."""
    return (0, 1) if dict(board.home_rank)[side] == 1 else (0, -1)


@dataclass(frozen=True, slots=True)
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
        return next((s for s in self.ships if s.square == square), None)

    def fleet(self, side: Side) -> list[ShipOnBoard]:
        return [s for s in self.ships if s.side == side]

    @property
    def occupied(self) -> frozenset[Square]:
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

    @classmethod
    def from_dict(cls, data: Any, source: str = "<state>", rules: FleetRules | None = None) -> BoardState:
        """A state read back from `to_dict`; `UnreadableInput` naming the first thing that is wrong."""
        rules = rules or load_rules()
        try:
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError(f"not a fleet board state (\"format\": \"{FORMAT}\")")
            ships = tuple(ShipOnBoard(_one_of(s["side"], SIDES), _one_of(s["type"], tuple(rules.ships)),
                                      _square(s["square"]), _int(s["hits"], 1)) for s in data["ships"])
            if len({s.square for s in ships}) != len(ships):
                raise ValueError("two ships on one square")
            wrong = [s for s in ships if rules.ships[s.type].side != s.side or s.hits > rules.ships[s.type].hits]
            if wrong:
                raise ValueError(f"the {wrong[0].type} on {wrong[0].square} has the wrong side or more hits than its type")
            cards = tuple(rules.cards)
            state = cls(
                ships=ships, turn=_one_of(data["turn"], SIDES), phase=_one_of(data["phase"], PHASES),
                number=_int(data["number"], 1), seed=_int(data["seed"], None), sandbox=bool(data["sandbox"]),
                deck=tuple(_one_of(c, cards) for c in data["deck"]),
                discard=tuple(_one_of(c, cards) for c in data["discard"]),
                hands={side: tuple(_one_of(c, cards) for c in data["hands"][side]) for side in SIDES},
                reshuffles=_int(data["reshuffles"], 0),
                moved=frozenset(_square(q) for q in data["moved"]),
                attacks={_square(q): _int(n, 0) for q, n in data["attacks"].items()},
                winner=None if data["winner"] is None else _one_of(data["winner"], SIDES),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            reason = str(exc) if isinstance(exc, ValueError) else f"missing or malformed field {exc}"
            raise UnreadableInput(source, reason[:200]) from None
        return state


def _one_of(value: Any, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{json_shown(value, 40)} is not one of {', '.join(allowed)}")
    return value


def _square(value: Any) -> Square:
    if not isinstance(value, str) or coords(value) is None or value != value.lower():
        raise ValueError(f"{json_shown(value, 40)} is not a square a1..h8")
    return value


def _int(value: Any, minimum: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
        raise ValueError(f"{json_shown(value, 40)} is not a whole number" + (f" >= {minimum}" if minimum is not None else ""))
    return value


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


def new_game(human: Any, berserker: Any, seed: int = 0, sandbox: bool = False, first: Side = "human",
             rules: FleetRules | None = None, files: tuple[str, str] = ("<human>", "<berserker>")) -> BoardState:
    """A game from two parsed fleet files (each must pass `fleet check`), the deck shuffled by `seed`."""
    rules = rules or load_rules()
    reports: list[FleetReport] = [check_fleet(d, file=f, rules=rules) for d, f in zip((human, berserker), files)]
    for report, side in zip(reports, SIDES):
        if not report.legal:
            raise BadFleets(report.file or side, f"not a legal starting fleet ({report.problems[0].message}); "
                            "see `cardkit fleet check`")
        if report.side != side:
            raise BadFleets(report.file or side, f"is a {report.side} fleet; expected the {side} fleet here")
    ships = tuple(ShipOnBoard(side, rules.ship(s["type"]).id, s["square"].strip().lower(),
                              rules.ship(s["type"]).hits)
                  for side, data in zip(SIDES, (human, berserker)) for s in data["ships"])
    deck: list[CardId] = [] if sandbox else standard_deck(rules)
    random.Random(seed).shuffle(deck)
    state = BoardState(ships=ships, turn=first, seed=seed, sandbox=sandbox, deck=tuple(deck),
                       hands={side: () for side in SIDES})
    return begin_turn(state, first)


def other(side: Side) -> Side:
    return SIDES[1 - SIDES.index(side)]


def squares_from(square: Square, n: int, board: Board = BOARD) -> Iterator[tuple[Square, tuple[Square, ...]]]:
    """Every square exactly `n` steps away in a straight line, with the squares passed on the way."""
    for d in DIRECTIONS:
        end = ray(square, d, n, board)
        if end is not None:
            yield end, tuple(ray(square, d, i, board) or "" for i in range(1, n))


def ship_symbols(rules: FleetRules) -> dict[str, str]:
    """One letter per ship type for the board picture: the first free letter of its name's last word, then of the rest."""
    out: dict[str, str] = {}
    for ship in rules.ships.values():
        words = ship.name.replace("-", " ").split()
        letters = [c.upper() for w in (words[-1:] + words[:-1]) for c in w if c.isalpha()]
        out[ship.id] = next((c for c in letters if c not in out.values()), "?")
    return out


def render_board(state: BoardState, rules: FleetRules | None = None, board: Board = BOARD) -> str:
    """The board as text, rank 8 at the top; human ships upper case, the Berserker's lower case."""
    rules = rules or load_rules()
    symbols = ship_symbols(rules)
    lines = []
    for r in range(board.ranks, 0, -1):
        cells = []
        for f in board.files:
            ship = state.ship_at(f"{f}{r}")
            cells.append("." if ship is None else
                         symbols[ship.type] if ship.side == "human" else symbols[ship.type].lower())
        lines.append(f"{r} {' '.join(cells)}")
    lines.append("  " + " ".join(board.files))
    legend = ", ".join(f"{symbols[s.id]} {s.name}" for s in rules.ships.values())
    lines.append(f"  ({legend}; lower case: Berserker side)")
    return "\n".join(lines)


def describe(state: BoardState, rules: FleetRules | None = None) -> str:
    """Whose turn and phase, hits of damaged ships, hands and deck: the text under the board."""
    rules = rules or load_rules()
    if state.winner:
        head = f"the {state.winner} fleet has won"
    else:
        head = f"turn {state.number}: {state.turn} to play, {state.phase} phase"
    lines = [head + (" (sandbox: hands not tracked)" if state.sandbox else "")]
    damaged = [f"{rules.ships[s.type].name} {s.square} {s.hits}/{rules.ships[s.type].hits}"
               for s in state.ships if s.hits < rules.ships[s.type].hits]
    if damaged:
        lines.append("damaged: " + ", ".join(damaged))
    if not state.sandbox:
        for side in SIDES:
            lines.append(f"{side} hand: {', '.join(state.hand(side)) or '(empty)'}")
        lines.append(f"deck {len(state.deck)}, discard {len(state.discard)}")
    return "\n".join(lines)
