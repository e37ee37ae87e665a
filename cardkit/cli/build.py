"""`cardkit build`: the SQLite database of the whole catalogue."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cardkit.cli._errors import guarded
from cardkit.cli._options import JsonOption


@guarded
def build_command(
    out: Annotated[Optional[Path], typer.Option(
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
    from cardkit.cli._build_command import build

    build(out, as_json, typer.echo)


def register(app: typer.Typer) -> None:
    app.command("build")(build_command)
