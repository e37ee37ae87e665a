"""`cardkit catalogue import|check`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._errors import EXIT_FINDING, guarded
from cardkit.cli._options import JsonOption, print_json
from cardkit.games.registry import GAMES, in_words
from cardkit.visible import visible

catalogue_app = typer.Typer(help="Import and check the card catalogue (data/cards/).", no_args_is_help=True)


@catalogue_app.command("import")
@guarded
def import_command(
    game: Annotated[str, typer.Argument(help=f"{in_words(GAMES)}.")],
    path: Annotated[Path, typer.Argument(help="The game's reference card list (CSV, JSON or the fleet game's rules text).")],
    force: Annotated[bool, typer.Option("--force", help="Import even if the result would fail the catalogue "
                                                        "check's totals (a partial list); never a misshapen one.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Write GAME's catalogue files from the reference list at PATH (deterministic).

    Replaces data/cards/GAME/ with files made from PATH: the same PATH always
    gives byte-identical files, and files the import no longer makes are
    removed. A PATH that is not the game's card list, or whose cards would
    fail the catalogue check, is refused before anything is written (exit 2);
    --force imports a list whose only fault is its totals (a partial list).
    """
    from cardkit.catalogue.importing import import_game

    result = import_game(game, path, force=force)
    if as_json:
        print_json(result.to_dict(path))
        return
    typer.echo(f"{result.game}: {result.cards} cards in {len(result.written)} files")
    for p in result.removed:
        typer.echo(f"  removed {visible(p)}")


@catalogue_app.command("check")
@guarded
def check_command(as_json: JsonOption = False) -> None:
    """Validate every catalogue file against its schema, then cross-check counts and ids.

    Every problem is reported with its file, card id and JSON pointer. Exit 0
    when the catalogue is sound, 1 on any problem. --json prints
    {"legal", "games": {GAME: {"cards", "files", ...}}, "formats",
    "problems": [...]}.
    """
    from cardkit.catalogue.check import check_catalogue, where

    report = check_catalogue()
    if as_json:
        print_json(report.to_dict())
    else:
        for game, r in report.games.items():
            extra = "".join(f", {k.replace('_', ' ')} {v}" for k, v in r.extra.items())
            typer.echo(f"{game:15} {r.cards:5} cards in {r.files} files{extra}")
        typer.echo(f"{'formats':15} {report.formats:5} files")
        for p in report.problems:
            typer.echo(f"  {p.severity.value.upper():7} {p.code:17} {visible(where(p))}: {visible(p.message)}")
        typer.echo("catalogue OK" if report.ok else f"catalogue has {len(report.problems)} problem(s)")
    if not report.ok:
        raise typer.Exit(EXIT_FINDING)


def register(app: typer.Typer) -> None:
    app.add_typer(catalogue_app, name="catalogue")
