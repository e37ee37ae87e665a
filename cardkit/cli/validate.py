"""`cardkit validate DECK...`: is each deck legal in its format, and if not, why."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._errors import EXIT_FINDING, EXIT_OK, EXIT_USAGE, guarded
from cardkit.cli._options import FormatOption, JsonOption, print_json, stdin_once
from cardkit.cli._render import paint, problem_line, tally
from cardkit.errors import with_hint
from cardkit.visible import visible


@guarded
def validate_command(
    decks: Annotated[list[Path], typer.Argument(help="Deck files (.deck text or .json), one or more; - reads standard input, code:CODE is a deck code.", show_default=False, metavar="DECK")],
    format_name: FormatOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check each DECK against its format and list every problem with its line.

    Exit 0 when every deck is legal (warnings allowed), 1 when any is illegal,
    2 for a usage error or a file that can't be read as a deck (the other decks
    are still reported); a broken catalogue is one error line, exit 2.
    --json prints an array with one object per deck:
    {path, game, format, player, legal, counts: {main, side}, problems: [...]}.
    """
    from cardkit.decks.report import validate_files

    stdin_once(*decks)
    reports = validate_files(decks, format_name)
    if as_json:
        print_json([r.to_dict() for r in reports])
    for r in reports:
        if r.failure is not None:
            typer.echo(f"error: {visible(with_hint(r.failure, r.failure_hint))}", err=True)
            if not as_json:
                typer.echo(f"{visible(r.path)}: {paint('UNREADABLE')}")
            continue
        if as_json:
            continue
        counts = f"{r.counts['main']} main" + (f" + {r.counts['side']} side" if r.counts["side"] else "")
        errors = sum(p.is_error for p in r.problems)
        found = tally(errors, len(r.problems) - errors)
        verdict = paint("LEGAL" if r.legal else "ILLEGAL")
        typer.echo(f"{visible(r.path)}: {verdict}  {visible(r.format)}, {counts}" + (f"; {found}" if found else ""))
        for p in r.problems:
            typer.echo(problem_line(p))
    if any(r.failure is not None for r in reports):
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_OK if all(r.legal for r in reports) else EXIT_FINDING)


def register(app: typer.Typer) -> None:
    app.command("validate")(validate_command)
