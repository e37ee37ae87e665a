"""What the engines' `moves` and `apply` do once their arguments are parsed: the bodies of the commands
cardkit/cli/_engine.py declares for every engine, writing through the `echo` they are given."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardkit.cli._errors import EXIT_FINDING, EXIT_OK
from cardkit.cli._output import Echo, json_text
from cardkit.jsonio import input_name
from cardkit.visible import visible, visible_lines

if TYPE_CHECKING:
    from cardkit.games.engine import Engine

ENGINE_MODULES: dict[str, str] = {
    "battle": "cardkit.games.squad_games.battle.engine",
    "tcg": "cardkit.games.berserk_tcg.game.engine",
    "fleet": "cardkit.games.berserker.game.engine",
}
"""The command group of each engine and the module whose `ENGINE` it runs."""
MOVES_LIMIT_RANGE = (1, 100_000)
"""`moves --limit`'s range: a listed action is a few hundred bytes, so the ceiling keeps the largest listing in tens of megabytes."""
MOVES_LIMIT_DEFAULT = 1000
"""`moves --limit` when not given."""
NOT_WRITTEN = "the new state was shown, not written: give --out FILE to keep it for the next `moves` or `apply`"
"""What `apply` without --out tells a person at a terminal."""


def engine(module: str) -> Engine[Any, Any]:
    found: Engine[Any, Any] = importlib.import_module(module).ENGINE
    return found


def show_state(engine: Engine[Any, Any], state: Any, echo: Echo) -> None:
    echo(visible_lines(engine.describe(state)))
    for note in engine.notes(state):
        echo(f"  note: {visible(note)}")


def moves(module: str, state_file: Path, limit: int, as_json: bool, echo: Echo) -> int:
    """`moves`: the legal actions of the player to act, at most `limit`; the exit code."""
    game = engine(module)
    state = game.read(state_file)
    found = game.moves(state, limit)
    if as_json:
        echo(json_text({"path": input_name(state_file), **found.status, "actions": list(found.actions),
                        "complete": found.complete}))
        return EXIT_OK
    echo(f"{visible(input_name(state_file))}: {visible(game.headline(state))}; "
         f"{len(found.actions)}{'' if found.complete else '+'} legal action(s)")
    shown = [visible(action) for action in found.actions]
    glosses = [game.gloss(state, action) for action in found.actions]
    # The names line up in one column after the actions, so an action can still be copied whole.
    width = max((len(a) for a, g in zip(shown, glosses) if g), default=0)
    for action, gloss in zip(shown, glosses):
        echo(f"  {action:{width}}  ({visible(gloss)})" if gloss else f"  {action}")
    if not found.complete:
        first = "the first legal action" if found.limit == 1 else f"the first {found.limit} legal actions"
        echo(f"note: {first} only: there are more; give --limit N for more (every listed action is legal)")
    return EXIT_OK


def apply(module: str, state_file: Path, actions: Sequence[str], out: Path | None, as_json: bool, echo: Echo) -> int:
    """`apply`: `actions` in order to the state in `state_file`, the new state written to `out`; the exit code."""
    game = engine(module)
    result = game.apply_all(game.read(state_file), actions, roll=True)
    if result.legal and out is not None:
        game.write(result.state, out, (state_file,))
    if as_json:
        echo(json_text({"path": input_name(state_file), **result.to_dict()}))
    else:
        for event in result.events:
            echo(f"  {visible(event['text'])}")
        if result.problems:
            from cardkit.cli._render import problem_lines  # a legal run (most runs) has none to render

            for line in problem_lines(result.problems, unit="action"):
                echo(line)
        shown = visible(input_name(state_file))
        if result.legal:
            show_state(game, result.state, echo)
            written = f", written to {visible(str(out))}" if out is not None else ""
            echo(f"{shown}: {len(actions)} action(s) applied{written}")
        else:
            echo(f"{shown}: ILLEGAL at action {result.applied + 1} of {len(actions)}; nothing written")
    return EXIT_OK if result.legal else EXIT_FINDING
