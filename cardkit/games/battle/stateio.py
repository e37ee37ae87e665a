"""Reading and writing battle state files (schema `schemas/battle-state.schema.json`)."""

from __future__ import annotations

import os
from pathlib import Path

from cardkit.errors import BadArgument, CardkitError, UnreadableInput
from cardkit.games.battle.state import BattleState, check_state, state_from_dict
from cardkit.jsonio import dumps_canonical, read_text_input
from cardkit.outputs import Kind, Output
from cardkit.squads.read import parse_checked_json


def read_state(path: str | os.PathLike[str]) -> BattleState:
    """The battle in `path`: UnreadableInput when it is no battle state or an impossible one."""
    data = parse_checked_json(path, read_text_input(path), "battle-state.schema.json", "battle state")
    state = state_from_dict(data)
    problems = check_state(state)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UnreadableInput(path, f"not a possible battle state: {problems[0].message}{more}")
    return state


def is_battle_state(path: Path) -> bool:
    """Whether `path` holds a battle state cardkit can read: the only kind of file `--out` may replace."""
    try:
        read_state(path)
    except CardkitError:
        return False
    return True


BATTLE_STATE = Kind("battle state", is_battle_state)


def write_state(state: BattleState, out: str | os.PathLike[str], inputs: tuple[str | os.PathLike[str], ...] = ()) -> None:
    """Write `state` to `out` through the guarded writer: never over an input, a special file or
    a file that is not a battle state (`OutputRefused`, exit 2)."""
    try:
        Output(Path(out), BATTLE_STATE, tuple(Path(p) for p in inputs)).write(dumps_canonical(state.to_dict()))
    except OSError as exc:
        raise BadArgument(f"can't write {out}: {exc.strerror or exc}") from None
