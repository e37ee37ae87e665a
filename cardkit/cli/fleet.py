"""`cardkit fleet check|can-use|table|ships|new|moves|apply`: the Berserker fleet game's set-up, card rules and board."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._engine import Started, engine_app
from cardkit.cli._engine_commands import ENGINE_MODULES
from cardkit.cli._errors import EXIT_FINDING, guarded
from cardkit.cli._options import JsonOption, print_json, stdin_once
from cardkit.cli._render import problem_lines, verdict
from cardkit.jsonio import input_name
from cardkit.visible import visible

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
    from cardkit.games.berserker.game.setup import check_fleet_file, fleet_report_to_json

    stdin_once(fleet)
    report = check_fleet_file(fleet)
    if as_json:
        print_json(fleet_report_to_json(report))
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
    from cardkit.games.berserker.model import load_rules, ships_to_json

    ships = ships_to_json(load_rules())
    if as_json:
        print_json(ships)
        return
    head = ["ship", "side", "count", "hits", "speed", "range", "attacks/turn", "fires through ships"]
    rows = [[s["name"], s["side"], *(str(s[k]) for k in ("count", "hits", "speed", "range", "attacks_per_turn")),
             "yes" if s["fires_through_ships"] else "no"] for s in ships]
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    for r in [head] + rows:
        typer.echo("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())


def start(
    human: Annotated[Path, typer.Argument(help="The human fleet file (must pass `fleet check`).")],
    berserker: Annotated[Path, typer.Argument(help="The Berserker fleet file.")],
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**32 - 1, help="Seed of the deck's shuffles; the same seed, the same game.")] = 0,
    sandbox: Annotated[bool, typer.Option("--sandbox", help="Track no deck or hands: any card may be played.")] = False,
    berserker_first: Annotated[bool, typer.Option("--berserker-first", help="The Berserker moves first.")] = False,
) -> Started:
    """Set up a game on the 8x8 board from two fleet files and write its state.

    The shared deck is shuffled by --seed and the first player draws 3.
    --sandbox tracks no hands, so any card may be played: a referee's or a
    teacher's board. Exit 2 when a fleet is unreadable or not legal.
    """
    from cardkit.games.berserker.game.setup import new_game, read_fleet_file

    stdin_once(human, berserker)
    state = new_game(read_fleet_file(human), read_fleet_file(berserker), seed=seed, sandbox=sandbox,
                     first="berserker" if berserker_first else "human", files=(str(human), str(berserker)))
    return Started(state, (human, berserker))


_engine_commands = engine_app(ENGINE_MODULES["fleet"], "", start)
for _command in _engine_commands.registered_commands:
    fleet_app.registered_commands.append(_command)


def register(app: typer.Typer) -> None:
    app.add_typer(fleet_app, name="fleet")
