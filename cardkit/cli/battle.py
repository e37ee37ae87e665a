"""`cardkit battle new|moves|apply`: the battle engine of Berserk Online and the tabletop CCG."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._engine import Started, engine_app


def start(
    first: Annotated[Path, typer.Argument(help="The first player's placement file (`squad place`).")],
    second: Annotated[Path, typer.Argument(help="The second player's placement file.")],
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**32 - 1, help="Seed of every deck shuffle in the battle.")] = 0,
    show_third_row: Annotated[bool, typer.Option("--show-third-row", help=(
        "Berserk Online: the second player reveals its third row at once instead of keeping it hidden."))] = False,
) -> Started:
    """The battle at its start from two placements, each checked first.

    Placement squares (row 1 = the player's front row) become absolute
    squares a1-e6 from the first player's side; the second player's
    columns are mirrored (its a1 is e4). Exit 1 when a placement is
    illegal (its problems listed), 2 when a file can't be read.
    """
    from cardkit.games.battle.setup import load_side, new_battle

    return Started(new_battle(load_side(first), load_side(second), seed, hide_third_row=not show_third_row), (first, second))


battle_app = engine_app("cardkit.games.battle.engine", (
    "Battles of Berserk Online and the tabletop CCG: the start, the legal actions, applying actions."), start)


def register(app: typer.Typer) -> None:
    app.add_typer(battle_app, name="battle")
