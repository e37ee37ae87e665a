"""`cardkit battle new|moves|apply`: the battle engine of Berserk Online and the tabletop CCG."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._engine import Started, engine_app
from cardkit.cli._engine_commands import ENGINE_MODULES

DealOption = Annotated[Path | None, typer.Option(help=(
    "That player's deal file (`dealt` cards, as `squad best` reads it): the dealt cards not placed go to its stack."))]
DeckOption = Annotated[Path | None, typer.Option(help=(
    "That player's card set (a deck file): its cards not dealt (or not placed) go to its stack."))]


def start(
    first: Annotated[Path, typer.Argument(help="The first player's placement file (`squad place`), unless the files' seats say otherwise.")],
    second: Annotated[Path, typer.Argument(help="The second player's placement file, unless the files' seats say otherwise.")],
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**32 - 1, help=(
        "Seed of every deck shuffle in the battle, and of the first player's draw when no file names its seat."))] = 0,
    show_third_row: Annotated[bool, typer.Option("--show-third-row", help=(
        "Berserk Online: the second player reveals its third row at once instead of keeping it hidden."))] = False,
    first_deal: DealOption = None,
    second_deal: DealOption = None,
    first_deck: DeckOption = None,
    second_deck: DeckOption = None,
) -> Started:
    """The battle at its start from two placements, each checked first.

    Placement squares (row 1 = the player's front row) become absolute
    squares a1-e6 from the first player's side; the second player's
    columns are mirrored (its a1 is e4). In Berserk Online, when neither
    file names its seat, the seed draws the first player. A player's deal
    and card set, where given, make its stack (the deck zone). Exit 1 when
    a placement is illegal (its problems listed), 2 when a file can't be
    read.
    """
    from cardkit.games.squad_games.battle.setup import load_side, new_battle

    sides = (load_side(first, first_deal, first_deck), load_side(second, second_deal, second_deck))
    inputs = tuple(p for p in (first, second, first_deal, second_deal, first_deck, second_deck) if p is not None)
    return Started(new_battle(*sides, seed, hide_third_row=not show_third_row), inputs)


battle_app = engine_app(ENGINE_MODULES["battle"], (
    "Battles of Berserk Online and the tabletop CCG: the start, the legal actions, applying actions."), start)


def register(app: typer.Typer) -> None:
    app.add_typer(battle_app, name="battle")
