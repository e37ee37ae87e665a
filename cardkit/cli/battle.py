"""`cardkit battle new|moves|apply`: the battle engine of Berserk Online and the tabletop CCG."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from cardkit.cli._errors import EXIT_FINDING, guarded
from cardkit.cli._options import JsonOption, print_json
from cardkit.cli._render import problem_lines
from cardkit.jsonio import input_name

if TYPE_CHECKING:
    from cardkit.games.battle.state import BattleState

battle_app = typer.Typer(
    help="Battles of Berserk Online and the tabletop CCG: the start, the legal actions, applying actions.",
    no_args_is_help=True,
)

OutOption = Annotated[Optional[Path], typer.Option("--out", "-o", help="Write the new state here (never over an input).")]


def render_board(state: "BattleState") -> str:
    """The field, second player's back row on top, with a legend of cards and the other zones."""
    from cardkit.games.battle.board import COLUMNS, ROWS

    lines = ["        " + "    ".join(COLUMNS)]
    for row in range(ROWS, 0, -1):
        cells = []
        for col in COLUMNS:
            inst = state.at(f"{col}{row}")
            cells.append(f"{inst.iid:>3}{_mark(inst.open, inst.hidden)}" if inst else "  . ")
        side = {6: "   second player's half", 1: "   first player's half"}.get(row, "")
        lines.append((f"  {row}  " + " ".join(cells) + side).rstrip())
    lines.append("  (* closed, ? hidden)")
    for inst in state.cards:
        info = state.info(inst)
        where = inst.square if inst.zone == "battlefield" else inst.zone
        extra = f", counters {inst.counters}" if inst.counters else ""
        extra += "".join(f", {k} {v}" for k, v in inst.markers)
        strike = f" {info.strike}" if info.strike else ""
        status = "hidden" if inst.hidden else ("open" if inst.open else "closed")
        life = f", life {inst.life}" if info.life is not None else ""
        lines.append(f"  #{inst.iid:<3} {inst.owner:6} {where:10} {info.label}{strike}{life}, {status}{extra}")
    lines.append(f"turn {state.turn}, {state.to_move} player to act; {state.result}")
    return "\n".join(lines)


def _mark(is_open: bool, hidden: bool) -> str:
    return "?" if hidden else (" " if is_open else "*")


@battle_app.command("new")
@guarded
def new_command(
    first: Annotated[Path, typer.Argument(help="The first player's placement file (`squad place`).")],
    second: Annotated[Path, typer.Argument(help="The second player's placement file.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the battle state (JSON).")],
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**32 - 1, help="Seed of every deck shuffle in the battle.")] = 0,
    show_third_row: Annotated[bool, typer.Option("--show-third-row", help=(
        "Berserk Online: the second player reveals its third row at once instead of keeping it hidden."))] = False,
    as_json: JsonOption = False,
) -> None:
    """The battle at its start from two placements, each checked first.

    Placement squares (row 1 = the player's front row) become absolute
    squares a1-e6 from the first player's side; the second player's
    columns are mirrored (its a1 is e4). Exit 1 when a placement is
    illegal (its problems listed), 2 when a file can't be read.
    """
    from cardkit.games.battle.setup import load_side, new_battle
    from cardkit.games.battle.stateio import write_state

    state = new_battle(load_side(first), load_side(second), seed, hide_third_row=not show_third_row)
    write_state(state, out, (first, second))
    if as_json:
        print_json(state.to_dict())
        return
    typer.echo(f"{out}: new {state.game} battle, {len(state.cards)} cards")
    typer.echo(render_board(state))
    for note in state.notes:
        typer.echo(f"  note: {note}")


@battle_app.command("moves")
@guarded
def moves_command(
    state_file: Annotated[Path, typer.Argument(metavar="STATE", help="Battle state (JSON, schemas/battle-state.schema.json).")],
    as_json: JsonOption = False,
) -> None:
    """Every legal action of the player to act, in the notation `apply` reads.

    Attacks are listed without their roll, and each ability action with X
    for the card's number: add `dice A D` (open card or defender) or
    `dice A` (closed card), and write the number in place of X (a shot's
    X-Y-Z takes `dice D`) when applying them.
    """
    from cardkit.games.battle.legal import legal_actions
    from cardkit.games.battle.stateio import read_state

    state = read_state(state_file)
    actions = [str(a) for a in legal_actions(state)]
    if as_json:
        print_json({"path": input_name(state_file), "turn": state.turn, "to_move": state.to_move, "result": state.result, "actions": actions})
        return
    typer.echo(f"{state_file}: turn {state.turn}, {state.to_move} player; {len(actions)} legal action(s)")
    for a in actions:
        typer.echo(f"  {a}")


@battle_app.command("apply")
@guarded
def apply_command(
    state_file: Annotated[Path, typer.Argument(metavar="STATE", help="Battle state (JSON).")],
    actions: Annotated[list[str], typer.Argument(metavar="ACTION...", help="Actions in order, each one quoted argument.")],
    out: OutOption = None,
    as_json: JsonOption = False,
) -> None:
    r"""Apply ACTIONs in order to STATE; print what happened and the new state.

    Actions: move FROM TO, attack FROM TO \[aimed|magic|nocounter]
    \[plus X] \[vampirism X] \[poison X] \[defend SQ] \[surprise WHERE
    shoot|throw|discharge X] dice A \[D], ranged FROM TO,
    shoot|throw|discharge FROM TO X\[-Y-Z] \[dice D], deathblow FROM X,
    collect WHERE, end, counters WHERE +N, pay WHERE N, mark WHERE NAME N,
    to-deck WHERE (WHERE: a square a1-e6, or #id).
    An illegal action stops there: ILLEGAL_ACTION, exit 1, nothing
    written. A malformed action or state: one error line, exit 2.
    """
    from cardkit.games.battle.apply import apply_all
    from cardkit.games.battle.notation import Action
    from cardkit.games.battle.stateio import read_state, write_state

    state = read_state(state_file)
    parsed = [Action.parse(text) for text in actions]
    result = apply_all(state, parsed)
    if result.legal and out is not None:
        write_state(result.state, out, (state_file,))
    if as_json:
        print_json({"path": input_name(state_file), **result.to_dict()})
    else:
        for e in result.events:
            typer.echo(f"  {e['text']}")
        if result.problems:
            typer.echo(f"{state_file}: ILLEGAL at action {result.applied + 1} of {len(parsed)}; nothing written")
            typer.echo("\n".join(problem_lines(result.problems)))
        else:
            typer.echo(f"{state_file}: {len(parsed)} action(s) applied" + (f", written to {out}" if out else ""))
            typer.echo(render_board(result.state))
            for note in result.state.notes:
                typer.echo(f"  note: {note}")
    if not result.legal:
        raise typer.Exit(EXIT_FINDING)


def register(app: typer.Typer) -> None:
    app.add_typer(battle_app, name="battle")
