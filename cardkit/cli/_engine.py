"""One factory for the `new|moves|apply` commands of every game engine (battle, tcg, fleet).

A game's CLI module gives only what differs: the engine's module and a `start`
function whose typer-annotated parameters are the start's inputs (two squads,
two decks, two fleets, a seed...). Everything else, reading, listing, applying,
writing and printing, is one code path here, so the three games print alike.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional, Sequence, get_type_hints

import typer

from cardkit.cli._errors import EXIT_FINDING, guarded
from cardkit.cli._options import JsonOption, print_json
from cardkit.cli._render import problem_lines
from cardkit.jsonio import input_name
from cardkit.visible import visible, visible_lines

if TYPE_CHECKING:
    from cardkit.games.engine import Engine


@dataclass(frozen=True)
class Started:
    """What a game's `start` returns: the new state, the files it came from, warnings for stderr."""

    state: Any
    inputs: tuple[Path, ...]
    warnings: tuple[str, ...] = ()


OutOption = Annotated[Optional[Path], typer.Option("--out", "-o", help="Write the new state here (never over an input).")]
# a listed action is a few hundred bytes, so the ceiling keeps the largest listing in tens of megabytes
LimitOption = Annotated[int, typer.Option("--limit", min=1, max=100_000, help=(
    "List at most this many actions, 1 to 100000 (a note says when there are more)."))]


def _engine(module: str) -> "Engine[Any, Any]":
    engine: Engine[Any, Any] = importlib.import_module(module).ENGINE
    return engine


def _show_state(engine: "Engine[Any, Any]", state: Any) -> None:
    typer.echo(visible_lines(engine.describe(state)))
    for note in engine.notes(state):
        typer.echo(f"  note: {visible(note)}")


def engine_app(module: str, help: str, start: Callable[..., Started]) -> typer.Typer:
    """The `new`, `moves` and `apply` commands of the engine `module`.ENGINE; `new` takes `start`'s parameters."""
    app = typer.Typer(help=help, no_args_is_help=True)
    app.command("new")(_new_command(module, start))

    @app.command("moves")
    @guarded
    def moves_command(
        state_file: Annotated[Path, typer.Argument(metavar="STATE", help="A state written by `new` or `apply`.")],
        limit: LimitOption = 1000,
        as_json: JsonOption = False,
    ) -> None:
        """Every legal action of the player to act, one per line, as `apply` takes them.

        At most --limit actions are listed (1000 by default); a note says when
        there are more, and every listed action is legal.
        """
        engine = _engine(module)
        state = engine.read(state_file)
        moves = engine.moves(state, limit)
        if as_json:
            print_json({"path": input_name(state_file), **moves.status, "actions": list(moves.actions),
                        "complete": moves.complete})
            return
        typer.echo(f"{visible(input_name(state_file))}: {visible(engine.headline(state))}; "
                   f"{len(moves.actions)}{'' if moves.complete else '+'} legal action(s)")
        for action in moves.actions:
            typer.echo(f"  {visible(action)}")
        if moves.note:
            typer.echo(f"note: {moves.note}")

    @app.command("apply")
    @guarded
    def apply_command(
        state_file: Annotated[Path, typer.Argument(metavar="STATE", help="A state written by `new` or `apply`.")],
        actions: Annotated[list[str], typer.Argument(metavar="ACTION...", help="Actions in order, each one quoted argument.")],
        out: OutOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Apply ACTIONs in order to STATE; print what happened and the new state.

        The first illegal action stops the run: an ILLEGAL_ACTION problem, exit 1,
        nothing written. Text that is no action, or a state that can't be read: one
        error line, exit 2. `moves` lists the actions.
        """
        engine = _engine(module)
        result = engine.apply_all(engine.read(state_file), actions)
        if result.legal and out is not None:
            engine.write(result.state, out, (state_file,))
        if as_json:
            print_json({"path": input_name(state_file), **result.to_dict()})
        else:
            for event in result.events:
                typer.echo(f"  {visible(event['text'])}")
            for line in problem_lines(result.problems):
                typer.echo(line)
            shown = visible(input_name(state_file))
            if result.legal:
                _show_state(engine, result.state)
                written = f", written to {visible(str(out))}" if out is not None else ""
                typer.echo(f"{shown}: {len(actions)} action(s) applied{written}")
            else:
                typer.echo(f"{shown}: ILLEGAL at action {result.applied + 1} of {len(actions)}; nothing written")
        if not result.legal:
            raise typer.Exit(EXIT_FINDING)

    return app


def _new_command(module: str, start: Callable[..., Started]) -> Callable[..., None]:
    """`new`: `start`'s parameters plus --out and --json; writes the state and prints it."""
    hints = get_type_hints(start, include_extras=True)
    own = [p.replace(annotation=hints[p.name]) for p in inspect.signature(start).parameters.values()]
    extra = [inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[
                 Path, typer.Option("--out", "-o", help="Where to write the state (JSON).")]),
             inspect.Parameter("as_json", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=JsonOption)]

    def new_command(**kwargs: Any) -> None:
        out: Path = kwargs.pop("out")
        as_json: bool = kwargs.pop("as_json")
        engine = _engine(module)
        started = start(**kwargs)
        for line in started.warnings:
            typer.echo(f"warning: {visible(line)}", err=True)
        engine.write(started.state, out, started.inputs)
        if as_json:
            print_json(engine.to_dict(started.state))
            return
        _show_state(engine, started.state)
        typer.echo(f"state written to {visible(str(out))}")

    params: Sequence[inspect.Parameter] = [*own, *extra]
    new_command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    new_command.__annotations__ = {p.name: p.annotation for p in params}
    new_command.__doc__ = start.__doc__
    new_command.__name__ = "new_command"
    return guarded(new_command)
