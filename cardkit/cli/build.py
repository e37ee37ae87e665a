"""`cardkit build`: the SQLite database of the whole catalogue."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._errors import guarded
from cardkit.cli._options import JsonOption, print_json


@guarded
def build_command(
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Database file to write (default: $CARDKIT_DB, else build/cardkit.db in a checkout, the cache folder when installed).",
    )] = None,
    as_json: JsonOption = False,
) -> None:
    """Build the SQLite database (cards, per-game tables, sets, formats, meta) atomically.

    The file is written beside its target and renamed into place, so a failed
    build leaves the previous database intact. Refused (exit 2, nothing
    written) when `cardkit catalogue check` fails, and when the target is a
    catalogue file, a special file, or an existing file that is not a catalogue
    database cardkit built. Commands that read the database rebuild it
    themselves when the catalogue or the formats have changed.
    """
    from cardkit.db.build import build_database

    start = time.perf_counter()
    result = build_database(out)
    seconds = time.perf_counter() - start
    if as_json:
        print_json({**result.to_dict(), "seconds": round(seconds, 3)})
        return
    typer.echo(f"built {result.path} in {seconds:.2f} s")
    for table, n in result.counts.items():
        typer.echo(f"  {table:16} {n:5} rows")
    typer.echo(f"  catalogue hash   {result.meta['catalogue_hash'][:16]}")


def register(app: typer.Typer) -> None:
    app.command("build")(build_command)
