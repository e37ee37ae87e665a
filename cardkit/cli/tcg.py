"""`cardkit tcg new|moves|apply`: a two-player Berserk TCG game with cities, battles and victory."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cardkit.cli._applied import show_applied
from cardkit.cli._errors import guarded
from cardkit.cli._options import JsonOption, print_json
from cardkit.jsonio import input_name
from cardkit.visible import visible, visible_lines

if TYPE_CHECKING:
    from cardkit.games.berserk_tcg.match import Game

tcg_app = typer.Typer(help="Berserk TCG: play a two-player game over the five cities.", no_args_is_help=True)


def _write(game: "Game", out: Path, inputs: tuple[Path, ...]) -> None:
    """Write a state through the guarded writer: never over an input, a special file or a file that is no such state."""
    from cardkit.statefiles import state_kind, write_state_file

    write_state_file(game.to_dict(), out, state_kind("Berserk TCG game state", _read), inputs)


def _read(path: Path) -> "Game":
    from cardkit.games.berserk_tcg.match import from_dict
    from cardkit.jsonio import read_json_input

    return from_dict(read_json_input(path), source=str(path))


StateArg = Annotated[Path, typer.Argument(metavar="STATE", help="A game state written by `tcg new` or `tcg apply`.")]


@tcg_app.command("new")
@guarded
def new_command(
    first: Annotated[Path, typer.Argument(help="The first player's deck (moves first, skips its first draw).")],
    second: Annotated[Path, typer.Argument(help="The second player's deck.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the game state (JSON).")],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the shuffles and the cities' order.")] = 0,
    as_json: JsonOption = False,
) -> None:
    """Start a game: shuffle both decks, draw 7 each, lay the five cities face down.

    Which city is royal stays hidden until it is revealed. An illegal deck is
    played with a warning on stderr; exit 2 for a deck that cannot be read or
    is not a Berserk TCG deck.
    """
    from cardkit.games.berserk_tcg.match import describe, new_game, read_match_deck

    decks = [read_match_deck(str(first)), read_match_deck(str(second))]
    for line in (w for d in decks for w in d.warnings):
        typer.echo(f"warning: {visible(line)}", err=True)
    game = new_game([d.cards for d in decks], [d.name for d in decks], seed=seed)
    _write(game, out, (first, second))
    if as_json:
        print_json(game.to_dict())
        return
    typer.echo(visible_lines(describe(game)))
    typer.echo(f"state written to {visible(str(out))}")


@tcg_app.command("moves")
@guarded
def moves_command(state: StateArg, as_json: JsonOption = False) -> None:
    """List every legal action of the player on move, as `tcg apply` takes them."""
    from cardkit.games.berserk_tcg.match import legal_actions

    game = _read(state)
    actions = [str(a) for a in legal_actions(game)]
    if as_json:
        print_json({"path": input_name(state), "active": game.active, "phase": game.phase, "winner": game.winner, "actions": actions})
        return
    if game.winner is not None:
        typer.echo(f"{visible(game.players[game.winner].name)} has won: no moves")
        return
    typer.echo(f"{visible(game.players[game.active].name)}, {game.phase} phase: {len(actions)} legal action(s)")
    for a in actions:
        typer.echo(f"  {visible(a)}")


@tcg_app.command("apply")
@guarded
def apply_command(
    state: StateArg,
    actions: Annotated[list[str], typer.Argument(metavar="ACTION...", help="Actions, each one quoted argument: 'attack c3 with BK1-005'.")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write the new state here (never over STATE).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Apply actions in order: draw, open ID [pay ID,ID], pass,
    move ID to CITY, attack CITY with ID,ID, end, discard ID,ID.

    The first illegal action stops the run: an ILLEGAL_ACTION problem, exit 1,
    nothing written. Text that is no action is exit 2.
    """
    from cardkit.games.berserk_tcg.match import apply_all, describe

    result = apply_all(_read(state), actions)
    if result.legal and out is not None:
        _write(result.game, out, (state,))
    show_applied(result, state, out, as_json, lambda: describe(result.game))


def register(app: typer.Typer) -> None:
    app.add_typer(tcg_app, name="tcg")
