"""One factory for the `new|moves|apply` commands of every game engine (battle, tcg, fleet).

A game's CLI module gives only what differs: the engine's module and a `start`
function whose typer-annotated parameters are the start's inputs (two squads,
two decks, two fleets, a seed...). Everything else, reading, listing, applying,
writing and printing, is one code path (`moves` and `apply` in cardkit/cli/_engine_commands.py),
so the three games print alike.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, get_type_hints

import typer

from cardkit.cli import _engine_commands as commands
from cardkit.cli import _progress
from cardkit.cli._errors import EXIT_OK, guarded
from cardkit.cli._options import JsonOption, print_json
from cardkit.visible import visible


@dataclass(frozen=True)
class Started:
    """What a game's `start` returns: the new state, the files it came from, warnings for stderr."""

    state: Any
    inputs: tuple[Path, ...]
    warnings: tuple[str, ...] = ()


OutOption = Annotated[Path | None, typer.Option("--out", "-o", help="Write the new state here (never over an input).")]
LimitOption = Annotated[int, typer.Option("--limit", min=commands.MOVES_LIMIT_RANGE[0], max=commands.MOVES_LIMIT_RANGE[1], help=(
    "List at most this many actions, 1 to 100000 (a note says when there are more)."))]


def engine_app(module: str, help: str, start: Callable[..., Started]) -> typer.Typer:
    """The `new`, `moves` and `apply` commands of the engine `module`.ENGINE; `new` takes `start`'s parameters."""
    app = typer.Typer(help=help, no_args_is_help=True)
    app.command("new")(_new_command(module, start))

    @app.command("moves")
    @guarded
    def moves_command(
        state_file: Annotated[Path, typer.Argument(metavar="STATE", help="A state written by `new` or `apply`.")],
        limit: LimitOption = commands.MOVES_LIMIT_DEFAULT,
        as_json: JsonOption = False,
    ) -> None:
        """Every legal action of the player to act, one per line, as `apply` takes them.

        At most --limit actions are listed (1000 by default); a note says when
        there are more, and every listed action is legal. A battle's strike is
        listed without dice (`apply` rolls them from the state's seed unless
        they are written); an `X` stands for the card's number, which you write.
        """
        code = commands.moves(module, state_file, limit, as_json, typer.echo)
        if code != EXIT_OK:
            raise typer.Exit(code)

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
        error line, exit 2. `moves` lists the actions. Without --out the new state
        is only shown, not written (a note on a terminal says so).
        """
        code = commands.apply(module, state_file, actions, out, as_json, typer.echo)
        if code != EXIT_OK:
            raise typer.Exit(code)
        if out is None and _progress.stderr_is_terminal():
            # Only a person at a terminal can miss it; a script reads the state from stdout on purpose.
            typer.echo(f"note: {commands.NOT_WRITTEN}", err=True)

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
        engine = commands.engine(module)
        started = start(**kwargs)
        for line in started.warnings:
            typer.echo(f"warning: {visible(line)}", err=True)
        engine.write(started.state, out, started.inputs)
        if as_json:
            print_json(engine.to_dict(started.state))
            return
        commands.show_state(engine, started.state, typer.echo)
        typer.echo(f"state written to {visible(str(out))}")

    params: Sequence[inspect.Parameter] = [*own, *extra]
    new_command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    new_command.__annotations__ = {p.name: p.annotation for p in params}
    new_command.__doc__ = start.__doc__
    new_command.__name__ = "new_command"
    return guarded(new_command)
