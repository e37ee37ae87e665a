"""`cardkit fleet check|can-use|table|ships|new|moves|apply`: the Berserker fleet game's set-up, card rules and board."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cardkit.cli._applied import show_applied
from cardkit.cli._errors import EXIT_FINDING, guarded
from cardkit.cli._options import JsonOption, print_json, stdin_once
from cardkit.cli._render import problem_lines, verdict
from cardkit.jsonio import input_name
from cardkit.visible import visible

if TYPE_CHECKING:
    from cardkit.games.berserker.board import BoardState

fleet_app = typer.Typer(
    help="Berserker fleet game: check a starting fleet, ask which ship may use which card, play on the board.",
    no_args_is_help=True,
)


@fleet_app.command("check")
@guarded
def check_command(
    fleet: Annotated[Path, typer.Argument(help='Fleet file (JSON): {"side": "human"|"berserker", "ships": [{"type": "ramship", "square": "a2"}, ...]}; - reads standard input.')],
    as_json: JsonOption = False,
) -> None:
    """Check a starting fleet: the side's exact ships, on its back two rows, one per square.

    Exit 0 when legal, 1 when not (every problem listed), 2 when the file cannot
    be read.
    """
    from cardkit.games.berserker.fleet import check_fleet_file

    stdin_once(fleet)
    report = check_fleet_file(fleet)
    if as_json:
        print_json({"path": input_name(fleet), "side": report.side, "ships": report.ships, "legal": report.legal,
                    "problems": [p.to_dict() for p in report.problems]})
    else:
        verdict_text = verdict(report.legal, report.problems)
        typer.echo(f"{visible(input_name(fleet))}: {visible(report.side)} fleet of {report.ships} ship{'' if report.ships == 1 else 's'}: {verdict_text}")
        for line in problem_lines(report.problems):
            typer.echo(line)
    if not report.legal:
        raise typer.Exit(EXIT_FINDING)


@fleet_app.command("can-use")
@guarded
def can_use_command(
    card: Annotated[str, typer.Argument(help="Card name or id, any case: 'Very Fast', very-fast.")],
    ship: Annotated[str, typer.Argument(help="Ship type name or id, any case: Cruiser, c-plus-gun-ship.")],
    as_json: JsonOption = False,
) -> None:
    """Say whether SHIP may play CARD, and why. Exit 0 yes, 1 no or an unknown card or ship (not found)."""
    from cardkit.games.berserker.usage import can_use_named

    usage = can_use_named(card, ship)
    if as_json:
        print_json(usage.to_dict())
    else:
        typer.echo(("yes: " if usage.allowed else "no: ") + usage.reason)
    if not usage.allowed:
        raise typer.Exit(EXIT_FINDING)


@fleet_app.command("table")
@guarded
def table_command(as_json: JsonOption = False) -> None:
    """Print every card against every ship type: who may use what."""
    from cardkit.games.berserker.usage import usage_table

    table = usage_table()
    if as_json:
        print_json(table.to_dict())
    else:
        typer.echo(table.render_text(), nl=False)


@fleet_app.command("ships")
@guarded
def ships_command(as_json: JsonOption = False) -> None:
    """Print the unit tables: count, hits, speed, range, attacks per turn, firing through ships."""
    from cardkit.games.berserker.model import load_rules

    ships = list(load_rules().ships.values())
    if as_json:
        print_json([{"id": s.id, "name": s.name, "side": s.side, "count": s.count, "hits": s.hits,
                     "speed": s.speed, "range": s.range, "attacks_per_turn": s.attacks_per_turn,
                     "fires_through_ships": s.fires_through_ships} for s in ships])
        return
    head = ["ship", "side", "count", "hits", "speed", "range", "attacks/turn", "fires through ships"]
    rows = [[s.name, s.side, str(s.count), str(s.hits), str(s.speed), str(s.range),
             str(s.attacks_per_turn), "yes" if s.fires_through_ships else "no"] for s in ships]
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    for r in [head] + rows:
        typer.echo("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


def _write_state(state: object, out: Path, inputs: tuple[Path, ...]) -> None:
    """Write a state through the guarded writer: never over an input, a special file or a file that is no such state."""
    from cardkit.statefiles import state_kind, write_state_file

    write_state_file(state.to_dict(), out, state_kind("fleet board state", _read_state), inputs)  # type: ignore[attr-defined]


def _read_state(path: Path) -> "BoardState":
    from cardkit.games.berserker.board import BoardState
    from cardkit.jsonio import read_json_input

    return BoardState.from_dict(read_json_input(path), source=str(path))


@fleet_app.command("new")
@guarded
def new_command(
    human: Annotated[Path, typer.Argument(help="The human fleet file (must pass `fleet check`).")],
    berserker: Annotated[Path, typer.Argument(help="The Berserker fleet file.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the board state (JSON).")],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deck's shuffles; the same seed, the same game.")] = 0,
    sandbox: Annotated[bool, typer.Option("--sandbox", help="Track no deck or hands: any card may be played.")] = False,
    berserker_first: Annotated[bool, typer.Option("--berserker-first", help="The Berserker moves first.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Set up a game on the 8x8 board from two fleet files and write its state.

    The shared deck is shuffled by --seed and the first player draws 3.
    --sandbox tracks no hands, so any card may be played: a referee's or a
    teacher's board. Exit 2 when a fleet is unreadable or not legal.
    """
    from cardkit.games.berserker.board import describe, new_game, render_board
    from cardkit.jsonio import read_json_input

    state = new_game(read_json_input(human), read_json_input(berserker), seed=seed, sandbox=sandbox,
                     first="berserker" if berserker_first else "human", files=(str(human), str(berserker)))
    _write_state(state, out, (human, berserker))
    if as_json:
        print_json(state.to_dict())
        return
    typer.echo(render_board(state))
    typer.echo(describe(state))
    typer.echo(f"state written to {out}")


@fleet_app.command("moves")
@guarded
def moves_command(
    state_file: Annotated[Path, typer.Argument(metavar="STATE", help="A board state written by `fleet new` or `fleet apply`.")],
    as_json: JsonOption = False,
) -> None:
    """List every legal action of the player on move, one per line, as `fleet apply` takes them.

    A forward move is shown as the largest group per card; any part of it
    that can still move is legal too.
    """
    from cardkit.games.berserker.fleet_actions import legal_actions

    state = _read_state(state_file)
    actions = [str(a) for a in legal_actions(state)]
    if as_json:
        print_json({"path": input_name(state_file), "turn": state.turn, "phase": state.phase, "winner": state.winner,
                    "actions": actions})
        return
    if state.winner:
        typer.echo(f"the {state.winner} fleet has won: no moves")
        return
    typer.echo(f"{state.turn}, {state.phase} phase: {len(actions)} legal action(s)")
    for a in actions:
        typer.echo(f"  {a}")


@fleet_app.command("apply")
@guarded
def apply_command(
    state_file: Annotated[Path, typer.Argument(metavar="STATE", help="A board state written by `fleet new` or `fleet apply`.")],
    actions: Annotated[list[str], typer.Argument(metavar="ACTION...", help="Actions, each one quoted argument: 'move a2 a4 card cruising-speed'.")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write the new state here (never over STATE).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Apply actions in order: move FROM TO card CARD, forward CARD SQ,SQ,
    fire FROM TO card CARD [defend CARD], discard CARD,CARD, end.

    The first illegal action stops the run: an ILLEGAL_ACTION problem, exit 1,
    nothing written. Text that is no action is exit 2.
    """
    from cardkit.games.berserker.board import describe, render_board
    from cardkit.games.berserker.fleet_actions import apply_all

    result = apply_all(_read_state(state_file), actions)
    if result.legal and out is not None:
        _write_state(result.state, out, (state_file,))
    show_applied(result, state_file, out, as_json,
                 lambda: render_board(result.state) + "\n" + describe(result.state))


def register(app: typer.Typer) -> None:
    app.add_typer(fleet_app, name="fleet")
