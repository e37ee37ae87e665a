"""The fleet game behind the one engine protocol (`cardkit.games.engine`), and the board as text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from cardkit.games.berserker.game import apply as play
from cardkit.games.berserker.game import notation, state
from cardkit.games.berserker.game.board import BOARD, Board
from cardkit.games.berserker.game.state import BoardState
from cardkit.games.berserker.model import SIDES, FleetRules, load_rules
from cardkit.games.engine import Engine, Event
from cardkit.problems import Problem


class FleetEngine(Engine[BoardState, notation.FleetAction]):
    name = "fleet"
    noun = "fleet board state"
    schema = "fleet-state.schema.json"

    def from_dict(self, data: Any) -> BoardState:
        return state.from_dict(data)

    def to_dict(self, board: BoardState) -> dict[str, Any]:
        return board.to_dict()

    def check(self, board: BoardState) -> list[Problem]:
        return state.check(board)

    def parse(self, text: str) -> notation.FleetAction:
        return notation.parse_action(text)

    def legal_actions(self, board: BoardState) -> Iterator[notation.FleetAction]:
        from cardkit.games.berserker.game.legal import legal_actions  # only `moves` lists them

        return legal_actions(board)

    def listed_fully(self, board: BoardState, action: notation.FleetAction) -> bool:
        return not isinstance(action, notation.Forward)

    def apply(self, board: BoardState, action: notation.FleetAction) -> tuple[BoardState, list[Event]]:
        return play.apply(board, action)

    def inventory(self, board: BoardState) -> Counter[str]:
        return Counter(board.deck) + Counter(board.discard) + sum((Counter(board.hand(s)) for s in SIDES), Counter())

    def over(self, board: BoardState) -> bool:
        return board.winner is not None

    def describe(self, board: BoardState) -> str:
        return render_board(board) + "\n" + describe(board)

    def summary(self, board: BoardState) -> dict[str, Any]:
        return board.summary()

    def to_act(self, board: BoardState) -> str:
        return board.turn

    def winner(self, board: BoardState) -> str | None:
        return board.winner

    def own_status(self, board: BoardState) -> dict[str, Any]:
        return {"turn": board.turn, "phase": board.phase}

    def headline(self, board: BoardState) -> str:
        if board.winner:
            return f"the {board.winner} fleet has won"
        return f"{board.turn}, {board.phase} phase"


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


ENGINE = FleetEngine()
