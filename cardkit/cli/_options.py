"""Options shared by several commands, and output helpers."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer

from cardkit.cli._output import json_text
from cardkit.games.registry import GAMES, in_words

JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of text.")]
GameOption = Annotated[
    str | None,
    typer.Option("--game", "-g", help=f"Game: {in_words(GAMES)}."),
]


def complete_format(incomplete: str) -> list[tuple[str, str]]:
    """Shell completion of `--format`: each format name beginning with what is typed, with its title."""
    from cardkit.errors import CardkitError
    from cardkit.formats import list_formats

    try:
        formats = list_formats()
    except CardkitError:
        return []  # a broken format file is reported when the command runs, not while a name is typed
    return [(f.name, f.title) for f in formats if f.name.startswith(incomplete.lower())]


FormatOption = Annotated[
    str | None, typer.Option("--format", "-f", autocompletion=complete_format,
                                help="Format name from data/formats/ (default: from the file, else the game's default).")
]
SeedOption = Annotated[int, typer.Option("--seed", help="Random seed; the same seed gives the same output.")]


def stdin_once(*paths: str | os.PathLike[str] | None) -> None:
    """Refuse `-` given twice (the second read would find standard input empty); on a terminal, say how to end it."""
    from cardkit.errors import BadArgument
    from cardkit.jsonio import is_stdin

    given = sum(1 for p in paths if p is not None and is_stdin(p))
    if given > 1:
        raise BadArgument("`-` (standard input) can be given only once")
    if given and sys.stdin is not None and sys.stdin.isatty():
        typer.echo("reading standard input: paste the list, then Ctrl-D on a line of its own", err=True)


def print_json(data: Any) -> None:
    typer.echo(json_text(data))
