"""Reading and writing battle state files (schema `schemas/battle-state.schema.json`)."""

from __future__ import annotations

import os
from pathlib import Path

from cardkit.errors import BadArgument, UnreadableInput
from cardkit.games.battle.state import BattleState, check_state, state_from_dict
from cardkit.jsonio import dumps_canonical, read_text_input, write_atomic
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


def write_state(state: BattleState, out: str | os.PathLike[str], inputs: tuple[str | os.PathLike[str], ...] = ()) -> None:
    """Write `state` atomically to `out`; BadArgument when `out` is one of the command's input files."""
    target = Path(out)
    for given in inputs:
        if Path(given).exists() and target.exists() and target.resolve() == Path(given).resolve():
            raise BadArgument(f"--out {out} is an input of this command; cardkit never overwrites its input")
    if target.is_dir():
        raise BadArgument(f"--out {out} is a directory; give a file name")
    try:
        write_atomic(target, dumps_canonical(state.to_dict()))
    except OSError as exc:
        raise BadArgument(f"can't write {out}: {exc.strerror or exc}") from None
