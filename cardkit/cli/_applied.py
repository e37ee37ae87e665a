"""How `fleet apply` and `tcg apply` show a run of actions: one shape for both boards."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence

import typer

from cardkit.cli._errors import EXIT_FINDING
from cardkit.cli._options import print_json
from cardkit.cli._render import problem_lines
from cardkit.jsonio import input_name
from cardkit.visible import visible, visible_lines


class Applied(Protocol):
    """What an engine's `apply_all` returns."""

    @property
    def legal(self) -> bool: ...

    @property
    def events(self) -> Sequence[Mapping[str, Any]]: ...

    @property
    def problems(self) -> Sequence[Any]: ...

    def to_dict(self) -> dict[str, Any]: ...


def show_applied(result: Applied, state_file: Path, out: Path | None, as_json: bool,
                 picture: Callable[[], str]) -> None:
    """Print the events, the problems and the new state (`picture`), or the JSON; exit 1 when an action was illegal."""
    if as_json:
        print_json({"path": input_name(state_file), **result.to_dict()})
    else:
        for event in result.events:
            typer.echo(visible(event["text"]))
        for line in problem_lines(result.problems):
            typer.echo(line)
        if result.legal:
            typer.echo(visible_lines(picture()))
            if out is not None:
                typer.echo(f"state written to {visible(str(out))}")
        else:
            typer.echo("ILLEGAL: nothing written" if out is not None else "ILLEGAL")
    if not result.legal:
        raise typer.Exit(EXIT_FINDING)
