"""The battle engine behind the one engine protocol (`cardkit.games.engine`): a thin adapter.

The battle's own modules (state, notation, legal, apply, rules data) already
have the protocol's shape; this module only names them for the shared reader,
writer, `apply_all`, `moves` and CLI.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from cardkit.games.engine import Engine, Event
from cardkit.games.squad_games.battle.legal import legal_actions
from cardkit.games.squad_games.battle.notation import Action, Attack, Deathblow, Shoot
from cardkit.games.squad_games.battle.state import BattleState, check_state, state_from_dict
from cardkit.problems import Problem


class BattleEngine(Engine[BattleState, Action]):
    name = "battle"
    noun = "battle state"
    schema = "battle-state.schema.json"

    def from_dict(self, data: Any) -> BattleState:
        return state_from_dict(data)

    def to_dict(self, state: BattleState) -> dict[str, Any]:
        return state.to_dict()

    def check(self, state: BattleState) -> list[Problem]:
        return check_state(state)

    def parse(self, text: str) -> Action:
        return Action.parse(text)

    def legal_actions(self, state: BattleState) -> Iterator[Action]:
        return legal_actions(state)

    def apply(self, state: BattleState, action: Action) -> tuple[BattleState, list[Event]]:
        # Imported here: `moves` never applies, and the rules of applying are the largest module to compile.
        from cardkit.games.squad_games.battle.apply import apply

        return apply(state, action)

    def over(self, state: BattleState) -> bool:
        return state.over

    def inventory(self, state: BattleState) -> Counter[str]:
        return Counter(c.card for c in state.cards)

    def listed_fully(self, state: BattleState, action: Action) -> bool:
        return not isinstance(action, (Attack, Shoot, Deathblow))

    def complete(self, state: BattleState, action: Action, rng: random.Random) -> Action:
        """A listed action with its roll (two dice, or one against a closed card) and a number for every X."""
        from cardkit.games.squad_games.battle.rolls import rolled

        return rolled(state, action, rng)

    def rolled_by_hand(self, state: BattleState, action: Action) -> Action:
        from cardkit.games.squad_games.battle.rolls import dice_rolled, needs_dice

        # The state's generator costs a pass over the whole state: made only for an action that rolls.
        return dice_rolled(state, action, self.chance(state, str(action))) if needs_dice(action) else action

    def describe(self, state: BattleState) -> str:
        return render_board(state)

    def notes(self, state: BattleState) -> list[str]:
        return list(state.notes)

    def to_act(self, state: BattleState) -> str:
        return state.to_move

    def winner(self, state: BattleState) -> str | None:
        return state.winner if state.over else None

    def own_status(self, state: BattleState) -> dict[str, Any]:
        return {"turn": state.turn, "to_move": state.to_move, "result": state.result}

    def headline(self, state: BattleState) -> str:
        return f"turn {state.turn}, {state.to_move} player; {state.result}"


def render_board(state: BattleState) -> str:
    """The field, second player's back row on top, with a legend of cards and the other zones."""
    from cardkit.games.squad_games.battle.board import COLUMNS, ROWS

    lines = ["        " + "    ".join(COLUMNS)]
    for row in range(ROWS, 0, -1):
        cells = []
        for col in COLUMNS:
            inst = state.at(f"{col}{row}")
            cells.append(f"{inst.iid:>3}{_mark(inst.open, inst.hidden)}" if inst else "  . ")
        side = {6: "   second player's half", 1: "   first player's half"}.get(row, "")
        lines.append((f"  {row}  " + " ".join(cells) + side).rstrip())
    lines.append("  (* closed, ? hidden)")
    for inst in state.cards:
        info = state.info(inst)
        where = inst.square if inst.zone == "battlefield" else inst.zone
        extra = f", counters {inst.counters}" if inst.counters else ""
        extra += "".join(f", {k} {v}" for k, v in inst.markers)
        strike = f" {info.strike}" if info.strike else ""
        status = "hidden" if inst.hidden else ("open" if inst.open else "closed")
        life = f", life {inst.life}" if info.life is not None else ""
        lines.append(f"  #{inst.iid:<3} {inst.owner:6} {where:10} {info.label}{strike}{life}, {status}{extra}")
    lines.append(f"turn {state.turn}, {state.to_move} player to act; {state.result}")
    return "\n".join(lines)


def _mark(is_open: bool, hidden: bool) -> str:
    return "?" if hidden else (" " if is_open else "*")


ENGINE = BattleEngine()
