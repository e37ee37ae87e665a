"""One exchange of strikes: what each side's die shows, which strike each deals, and the damage."""

from __future__ import annotations

from dataclasses import dataclass

from cardkit.games.squad_games.battle.rules import Hit, Strike, closed_target_hit, strike_table


@dataclass(frozen=True)
class Exchange:
    """The strikes of one simple strike: the attacker's on the defender and the counter-strike."""

    attacker_hit: Hit
    defender_hit: Hit
    to_defender: int
    to_attacker: int


def strike_on_open(attacker: Strike, defender: Strike | None, attacker_die: int, defender_die: int) -> Exchange:
    """A simple strike on an open card: "würfeln beide Spieler" and the Angriffstabelle decides both strikes.

    A defender without strike values (an artifact) counter-strikes for nothing.
    """
    a_hit, d_hit = strike_table(attacker_die, defender_die)
    return Exchange(a_hit, d_hit, attacker.damage(a_hit), defender.damage(d_hit) if defender else 0)


def strike_on_closed(attacker: Strike, die: int) -> Exchange:
    """A simple strike on a closed card: one die, no counter-strike (reading `closed_target_die`)."""
    hit = closed_target_hit(die)
    return Exchange(hit, "miss", attacker.damage(hit), 0)


def with_modifiers(damage: int, landed: bool, plus: int | None = None, vampirism: int | None = None,
                   incorporeal: bool = False) -> tuple[int, int]:
    """(damage, heal) of a strike whose dice gave `damage`, with +X and vampirism X (reading `strike_modifiers`).

    A landing vampiric strike deals X in place of its value and heals X, except on an incorporeal card;
    +X adds X to a landing strike. A miss deals nothing, so nothing is added or absorbed.
    """
    heal = 0
    if landed and vampirism is not None and not incorporeal:
        damage = heal = vampirism
    if landed and plus:
        damage += plus
    return damage, heal
