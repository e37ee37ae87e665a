"""Reading and writing battle state files (schema `schemas/battle-state.schema.json`)."""

from __future__ import annotations

import os

from cardkit.errors import UnreadableInput
from cardkit.games.battle.state import BattleState, check_state, state_from_dict
from cardkit.jsonio import read_text_input
from cardkit.squads.read import parse_checked_json
from cardkit.statefiles import state_kind, write_state_file


def read_state(path: str | os.PathLike[str]) -> BattleState:
    """The battle in `path`: UnreadableInput when it is no battle state or an impossible one."""
    data = parse_checked_json(path, read_text_input(path), "battle-state.schema.json", "battle state")
    state = state_from_dict(data)
    problems = check_state(state)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UnreadableInput(path, f"not a possible battle state: {problems[0].message}{more}")
    return state


def write_state(state: BattleState, out: str | os.PathLike[str], inputs: tuple[str | os.PathLike[str], ...] = ()) -> None:
    """Write `state` to `out` through the guarded writer: never over an input, a special file or
    a file that is not a battle state (`OutputRefused`, exit 2)."""
    write_state_file(state.to_dict(), out, BATTLE_STATE, inputs)


BATTLE_STATE = state_kind("battle state", read_state)
