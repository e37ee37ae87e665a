"""`cardkit combat tcg`: one battle between two Berserk TCG characters.

`cardkit.cli.combat` adds it to the one `combat` group.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cardkit.cli._errors import guarded
from cardkit.cli._options import JsonOption, print_json


@guarded
def tcg_command(
    attacker: Annotated[str, typer.Argument(help="Attacking character: id or name, e.g. BK1-013 or Casca.")],
    defender: Annotated[str, typer.Argument(help="Defending character: id or name, e.g. BK1-011.")],
    as_json: JsonOption = False,
) -> None:
    """Fight ATTACKER against DEFENDER with the catalogue's Power, HP and Range.

    The higher Range strikes first and a character killed first deals no
    damage; equal Range strikes at once. Exit 0, 1 for a card that is not
    found or not a character.
    """
    from cardkit.games.berserk_tcg.game.battle import one_battle

    result = one_battle(attacker, defender)
    if as_json:
        print_json(result.to_dict())
        return
    names = {f.id: f.name for f in (*result.attackers, *result.defenders)}
    typer.echo(f"{result.attackers[0].label()} attacks {result.defenders[0].label()}")
    for step in result.steps:
        typer.echo("  " + step.describe(names))
    for side, fighter in (("attacker", result.attackers[0]), ("defender", result.defenders[0])):
        fate = "survives" if fighter.alive else "dies"
        typer.echo(f"{side} {fighter.name} {fate} ({fighter.damage} damage of {fighter.hp} HP)")
