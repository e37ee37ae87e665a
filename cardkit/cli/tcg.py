"""`cardkit tcg new|moves|apply`: a two-player Berserk TCG game with cities, battles and victory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._engine import Started, engine_app
from cardkit.cli._engine_commands import ENGINE_MODULES


def start(
    first: Annotated[Path, typer.Argument(help="The first player's deck (moves first, skips its first draw).")],
    second: Annotated[Path, typer.Argument(help="The second player's deck.")],
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**32 - 1, help="Seed of the shuffles and the cities' order.")] = 0,
) -> Started:
    """Start a game: shuffle both decks, draw 7 each, lay the five cities face down.

    Which city is royal stays hidden until it is revealed. An illegal deck is
    played with a warning on stderr; exit 2 for a deck that cannot be read or
    is not a Berserk TCG deck.
    """
    from cardkit.games.berserk_tcg.game.setup import new_game, read_match_deck

    decks = [read_match_deck(str(first)), read_match_deck(str(second))]
    game = new_game([d.cards for d in decks], [d.name for d in decks], seed=seed)
    return Started(game, (first, second), tuple(w for d in decks for w in d.warnings))


tcg_app = engine_app(ENGINE_MODULES["tcg"], "Berserk TCG: play a two-player game over the five cities.", start)


def register(app: typer.Typer) -> None:
    app.add_typer(tcg_app, name="tcg")
