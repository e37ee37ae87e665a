"""`cardkit combat odds` and `combat tcg`: the exact distribution of a simple strike; one Berserk TCG battle."""

from __future__ import annotations

from typing import Annotated

import typer

from cardkit.cli._errors import guarded
from cardkit.cli._options import JsonOption, print_json
from cardkit.games.registry import BATTLE_GAMES, in_words

combat_app = typer.Typer(help=(
    "Single fights worked out: the exact odds of a strike in Berserk Online and the tabletop CCG (`odds`), "
    "one Berserk TCG battle between two characters (`tcg`)."), no_args_is_help=True)

LifeOption = Annotated[int | None, typer.Option(min=1, max=1000, help="Life to judge deaths against (default: the card's).")]
BattleGameOption = Annotated[str | None, typer.Option("--game", "-g", help=f"{in_words(BATTLE_GAMES)} (default: the one with the card).")]


@combat_app.command("odds")
@guarded
def odds_command(
    attacker: Annotated[str, typer.Argument(help="The attacking card: id or name.")],
    defender: Annotated[str, typer.Argument(help="The attacked open card: id or name.")],
    attacker_life: LifeOption = None,
    defender_life: LifeOption = None,
    game: BattleGameOption = None,
    plus: Annotated[int | None, typer.Option("--plus", min=0, max=99, help=(
        "+X to the strike (a special strike: the attacker needs `specia_kick`)."))] = None,
    vampirism: Annotated[int | None, typer.Option("--vampirism", min=0, max=99, help=(
        "Vampirism X: a landing strike deals X and heals X (the attacker needs the ability)."))] = None,
    nocounter: Annotated[bool, typer.Option("--nocounter", help=(
        "A strike without counter-strike: one die, as against a closed card."))] = False,
    magic: Annotated[bool, typer.Option("--magic", help="A magic strike: one die, as against a closed card.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Exact odds of a strike by ATTACKER on the open card DEFENDER.

    Both cards are of one game: --game, or else the attacker's.
    Both players roll a die; the Angriffstabelle picks each side's strike
    from the two dice (one die, no counter-strike, with --nocounter or
    --magic). --plus and --vampirism change a landing strike as `battle
    apply` does; the defender's protections and incorporeality come from
    the catalogue. Probabilities are exact fractions over the 36 die
    pairs; deaths are judged against the cards' lives or the given ones.
    """
    from cardkit.errors import BadArgument
    from cardkit.games.squad_games.battle.lookup import find_battle_pair
    from cardkit.games.squad_games.battle.odds import card_strike_odds, odds_to_json

    g, a, d = find_battle_pair(attacker, defender, game)
    if nocounter and magic:
        raise BadArgument("--nocounter and --magic are two kinds of strike: give one")
    kind = "nocounter" if nocounter else ("magic" if magic else "simple")
    odds = card_strike_odds(g, a, d, attacker_life, defender_life, kind, plus, vampirism)
    a_life, d_life = odds.attacker_life, odds.defender_life
    if as_json:
        print_json(odds_to_json(odds, a, d))
        return
    how = odds.how
    said = [w for w in (how.kind if how.kind != "simple" else "", f"plus {how.plus}" if how.plus is not None else "",
                        f"vampirism {how.vampirism}" if how.vampirism is not None else "") if w]
    typer.echo(f"{a.label} {a.strike}, life {a_life} strikes {d.label} {d.strike or 'without strike values'}, life {d_life} "
               f"({', '.join(said + ['open card', '36 die pairs'])})")
    if how.protected_by:
        typer.echo(f"  {d.name} is protected ({how.protected_by}): the strike does nothing to it")
    if how.incorporeal and how.vampirism is not None:
        typer.echo(f"  {d.name} is incorporeal: vampirism does not act on it")
    typer.echo(f"  {'attacker':8} {'defender':8} {'dmg':>3} {'back':>4} {'p':>7}  {'exact':>5}  rolls (attacker:defender)")
    for o in odds.outcomes:
        rolls = " ".join(f"{x}:{y}" for x, y in o.rolls)
        heal = f"  heals {o.heal}" if o.heal else ""
        typer.echo(f"  {o.attacker_hit:8} {o.defender_hit:8} {o.to_defender:>3} {o.to_attacker:>4} {float(o.p):7.4f}  {str(o.p):>5}  {rolls}{heal}")
    for name, value in ((d.name, odds.expected_to_defender), (a.name, odds.expected_to_attacker)):
        # Every probability is a multiple of 1/36, so the expectation is too: x/36 reads as damage over all 36 rolls.
        typer.echo(f"  expected damage to {name}: {value * 36}/36 = {float(value):.4f}")
    typer.echo(f"  p({d.name} dies) = {odds.p_defender_dies}   p({a.name} dies) = {odds.p_attacker_dies}")


def register(app: typer.Typer) -> None:
    from cardkit.cli.combat_tcg import tcg_command

    # One `combat` group for every game, so that a run of `cardkit combat ...` loads this module only.
    if not any(c.name == "tcg" for c in combat_app.registered_commands):
        combat_app.command("tcg")(tcg_command)
    app.add_typer(combat_app, name="combat")
