"""Fleet set-up: is a side's starting placement legal, and a new game from two legal fleets.

Legal means: exactly the ships of the side's unit table (counts from the
catalogue), each on one of the side's back two rows, no two on one square.
Every problem is reported, each pointing at its ship by JSON pointer.
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from cardkit.errors import UnreadableInput
from cardkit.games.berserker.game.board import BOARD, Board
from cardkit.games.berserker.game.state import BadFleets, BoardState, ShipOnBoard, begin_turn, standard_deck
from cardkit.games.berserker.model import SIDES, CardId, FleetRules, Side, load_rules
from cardkit.games.board import Square
from cardkit.jsonio import input_name, json_shown
from cardkit.problems import Problem, error, has_errors
from cardkit.visible import misleading, quoted

_SQUARE = re.compile(r"^\s*([a-zA-Z])\s*(\d+)\s*$")


@dataclass(frozen=True)
class FleetReport:
    """The verdict on one fleet file and every problem found in it."""

    side: Side
    ships: int
    problems: tuple[Problem, ...]
    file: str | None = None

    @property
    def legal(self) -> bool:
        return not has_errors(self.problems)

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "side": self.side, "ships": self.ships, "legal": self.legal,
                "problems": [p.to_dict() for p in self.problems]}


def _shape_error(data: Any) -> str | None:
    """Why `data` is not a fleet file at all (then nothing else can be checked), or None."""
    if not isinstance(data, dict):
        return "a fleet file is a JSON object with \"side\" and \"ships\""
    side = data.get("side")
    if side not in SIDES:
        return f"\"side\" must be one of {', '.join(SIDES)}; got {json_shown(side)}"
    if not isinstance(data.get("ships"), list):
        return "\"ships\" must be a list of {\"type\": ..., \"square\": ...} objects"
    return None


def check_fleet(data: Any, file: str | None = None, rules: FleetRules | None = None,
                board: Board = BOARD) -> FleetReport:
    """Every problem with a parsed fleet file; `UnreadableInput` when it is not shaped like one."""
    reason = _shape_error(data)
    if reason is not None:
        raise UnreadableInput(file or "<fleet>", reason)
    rules = rules or load_rules()
    side: Side = data["side"]
    allowed_ranks = board.allowed_ranks(side)
    problems: list[Problem] = []
    have: Counter[str] = Counter()
    taken: dict[Square, int] = {}

    def add(code: str, message: str, index: int | None = None, **where: Any) -> None:
        pointer = f"/ships/{index}" if index is not None else None
        problems.append(error(code, message, file=file, pointer=pointer, **where))

    for i, entry in enumerate(data["ships"]):
        label = f"ship {i + 1}"
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str) \
                or not isinstance(entry.get("square"), str):
            add("PARSE_ERROR", f"{label}: expected {{\"type\": NAME, \"square\": SQUARE}}, got {json_shown(entry, 120)}", i)
            continue
        # The deck reader's check: matching strips whitespace, so `Berserker\u2028` would read as the ship it hides.
        hiding = next(((key, why) for key in ("type", "square") if (why := misleading(entry[key]))), None)
        if hiding:
            add("PARSE_ERROR", f"{label}: the {hiding[0]} {json_shown(entry[hiding[0]], 40)} holds {hiding[1]}", i)
            continue
        ship = rules.find_ship(entry["type"])
        if ship is None:
            hint = rules.suggest_ship(entry["type"])
            add("UNKNOWN_SHIP", f"{label}: no ship type {quoted(entry['type'])}"
                + (f"; did you mean: {', '.join(hint)}" if hint else ""), i, card=entry["type"])
        else:
            have[ship.id] += 1
        name = ship.name if ship else entry["type"]
        m = _SQUARE.match(entry["square"])
        if m is None:
            add("PARSE_ERROR", f"{label} ({name}): {quoted(entry['square'])} is not a square like a1 or h8", i)
            continue
        # A rank of thousands of digits is off the board all the same; int() of it is refused,
        # and the message shows its start rather than a made-up number.
        file_letter, digits = m.group(1).lower(), m.group(2).lstrip("0") or "0"
        rank = int(digits) if len(digits) <= 6 else 10**6
        square = f"{file_letter}{digits if len(digits) <= 8 else digits[:8] + '...'}"
        card = ship.id if ship else entry["type"]
        if not board.on_board(file_letter, rank):
            add("OFF_BOARD", f"{label} ({name}) on {square}: the board is "
                f"{board.files[0]}1..{board.files[-1]}{board.ranks}", i, card=card, actual=square)
            continue
        if rank not in allowed_ranks:
            add("SQUARE_NOT_ALLOWED", f"{label} ({name}) on {square}: the {side} fleet sets up on ranks "
                f"{allowed_ranks[0]}-{allowed_ranks[-1]}", i, card=card, actual=square,
                limit=[allowed_ranks[0], allowed_ranks[-1]])
        if square in taken:
            add("SQUARE_TAKEN", f"{label} ({name}) on {square}: ship {taken[square] + 1} is already there "
                "(ships may not stack)", i, card=card, actual=square)
        else:
            taken[square] = i
    for ship in rules.ships.values():
        should = ship.count if ship.side == side else 0
        if have[ship.id] != should:
            add("WRONG_FLEET", f"{ship.name}: {have[ship.id]} in the fleet, the {side} fleet has {should}",
                card=ship.id, limit=should, actual=have[ship.id])
    return FleetReport(side=side, ships=len(data["ships"]), problems=tuple(problems), file=file)


def check_fleet_file(path: str | os.PathLike[str], rules: FleetRules | None = None) -> FleetReport:
    """Read and check a fleet file; `UnreadableInput` when it cannot be read as one."""
    return check_fleet(read_fleet_file(path), file=input_name(path), rules=rules)


def read_fleet_file(path: str | os.PathLike[str]) -> Any:
    """A fleet file parsed, not yet checked (`check_fleet`); `UnreadableInput` naming the kind of cardkit file
    it is instead (a deck, a game state) and the command that reads that, when it is one."""
    from cardkit.filekinds import refuse_other_kind
    from cardkit.jsonio import parse_json, read_text_input

    text, name = read_text_input(path), input_name(path)
    try:
        data = parse_json(text, name)
    except UnreadableInput:
        refuse_other_kind(name, text, "fleet.schema.json", "fleet file")
        raise
    if _shape_error(data) is not None:
        refuse_other_kind(name, text, "fleet.schema.json", "fleet file")
    return data


def new_game(human: Any, berserker: Any, seed: int = 0, sandbox: bool = False, first: Side = "human",
             rules: FleetRules | None = None, files: tuple[str, str] = ("<human>", "<berserker>")) -> BoardState:
    """A game from two parsed fleet files (each must pass `fleet check`), the deck shuffled by `seed`."""
    rules = rules or load_rules()
    reports: list[FleetReport] = [check_fleet(d, file=f, rules=rules) for d, f in zip((human, berserker), files)]
    for report, side in zip(reports, SIDES):
        if not report.legal:
            raise BadFleets(report.file or side, f"not a legal starting fleet ({report.problems[0].message})",
                            hint="`cardkit fleet check` lists every problem")
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


def fleet_report_to_json(report: FleetReport) -> dict[str, Any]:
    """The JSON of `fleet check --json`: `report.to_dict()` with the file under `path`, as every command names its input."""
    return {"path": report.file, "side": report.side, "ships": report.ships, "legal": report.legal,
            "problems": [p.to_dict() for p in report.problems]}
