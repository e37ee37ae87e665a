"""Options shared by several commands, and output helpers."""

from __future__ import annotations

import json
from typing import Annotated, Any, Optional

import typer

from cardkit.visible import visible_json

JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of text.")]
GameOption = Annotated[
    Optional[str],
    typer.Option("--game", "-g", help="Game: berserk-tcg, berserk-ccg, berserk-online or berserker."),
]
FormatOption = Annotated[
    Optional[str], typer.Option("--format", "-f", help="Format name from data/formats/ (default: from the file, else the game's default).")
]
SeedOption = Annotated[int, typer.Option("--seed", help="Random seed; the same seed gives the same output.")]


def print_json(data: Any) -> None:
    typer.echo(visible_json(json.dumps(data, ensure_ascii=False, indent=2)))
