"""Exact odds of a strike on an open card, over the 36 equally likely die pairs.

A strike may carry the modifiers of the engine (+X, vampirism X, without counter-strike,
magic) and meet the struck card's protections; each is worked out by the same
functions `battle apply` uses, so the odds are the engine's, enumerated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cardkit.errors import BadArgument
from cardkit.games.squad_games.battle.abilities import actions_of, codes_with, incorporeal_code, protections_of
from cardkit.games.squad_games.battle.cards import BattleCard
from cardkit.games.squad_games.battle.combat import strike_on_closed, strike_on_open, with_modifiers
from cardkit.games.squad_games.battle.rules import DIE, HITS, Hit, Strike

ROLLS = 36


@dataclass(frozen=True, slots=True)
class StrikeKind:
    """How the strike is made and met: its kind, +X and vampirism X, and what the struck card's abilities do to it."""

    kind: str = "simple"
    plus: int | None = None
    vampirism: int | None = None
    protected_by: str | None = None
    incorporeal: bool = False

    @property
    def one_die(self) -> bool:
        """Magic strikes and strikes without counter-strike are made as against a closed card."""
        return self.kind in ("magic", "nocounter")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "plus": self.plus, "vampirism": self.vampirism, "protected_by": self.protected_by,
                "incorporeal": self.incorporeal}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One pair of strikes, the die pairs that give it, and its exact probability."""

    attacker_hit: Hit
    defender_hit: Hit
    to_defender: int
    to_attacker: int
    rolls: tuple[tuple[int, int], ...]
    heal: int = 0

    @property
    def p(self) -> Fraction:
        return Fraction(len(self.rolls), ROLLS)


@dataclass(frozen=True, slots=True)
class StrikeOdds:
    """The whole distribution of one simple strike, with the lives it is judged against."""

    attacker: Strike
    defender: Strike | None
    attacker_life: int
    defender_life: int
    outcomes: tuple[Outcome, ...]
    how: StrikeKind = field(default_factory=lambda: StrikeKind())

    def _mean(self, attr: str) -> Fraction:
        return sum((o.p * getattr(o, attr) for o in self.outcomes), Fraction(0))

    @property
    def expected_to_defender(self) -> Fraction:
        return self._mean("to_defender")

    @property
    def expected_to_attacker(self) -> Fraction:
        return self._mean("to_attacker")

    @property
    def p_defender_dies(self) -> Fraction:
        return sum((o.p for o in self.outcomes if self.defender_life - o.to_defender <= 0), Fraction(0))

    @property
    def p_attacker_dies(self) -> Fraction:
        # Vampirism's life comes back at the same time as the counter-strike (reading strike_modifiers).
        return sum((o.p for o in self.outcomes if self.attacker_life - o.to_attacker + o.heal <= 0), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        def num(f: Fraction) -> float:
            return float(f)

        return {
            "attacker": {"strike": str(self.attacker), "life": self.attacker_life},
            "defender": {"strike": None if self.defender is None else str(self.defender), "life": self.defender_life},
            "strike": self.how.to_dict(),
            "outcomes": [{"attacker_hit": o.attacker_hit, "defender_hit": o.defender_hit,
                          "to_defender": o.to_defender, "to_attacker": o.to_attacker, "heal": o.heal,
                          "p": num(o.p), "p_exact": str(o.p), "rolls": [f"{a}:{d}" for a, d in o.rolls]}
                         for o in self.outcomes],
            "expected_damage": {"to_defender": num(self.expected_to_defender), "to_attacker": num(self.expected_to_attacker),
                                "to_defender_exact": str(self.expected_to_defender),
                                "to_attacker_exact": str(self.expected_to_attacker)},
            "p_defender_dies": num(self.p_defender_dies), "p_defender_dies_exact": str(self.p_defender_dies),
            "p_attacker_dies": num(self.p_attacker_dies), "p_attacker_dies_exact": str(self.p_attacker_dies),
        }


def strike_odds(attacker: Strike, defender: Strike | None, attacker_life: int, defender_life: int,
                how: StrikeKind = StrikeKind(), attacker_top: int | None = None) -> StrikeOdds:
    """Every die pair of a strike on an open card, grouped by the two strikes it gives.

    A one-die strike (magic, without counter-strike) uses the attacker's die of each pair, so
    each of its six values still counts six times in 36. A defender without strike values (an artifact)
    strikes back for nothing, as in `battle apply`. With `attacker_top` (the attacker's printed life) an
    outcome's `heal` is the life vampirism really restores, never above it, as `battle apply` heals.
    """
    groups: dict[tuple[Hit, Hit], list[tuple[int, int]]] = {}
    damage: dict[tuple[Hit, Hit], tuple[int, int, int]] = {}
    for a in DIE:
        for d in DIE:
            ex = strike_on_closed(attacker, a) if how.one_die else strike_on_open(attacker, defender, a, d)
            key = (ex.attacker_hit, ex.defender_hit)
            groups.setdefault(key, []).append((a, d))
            to_d, heal = with_modifiers(ex.to_defender, ex.attacker_hit != "miss", how.plus, how.vampirism, how.incorporeal)
            if how.protected_by:
                to_d = heal = 0
            if attacker_top is not None:
                # Absorbed at the same time as the counter-strike, up to the printed life (reading strike_modifiers).
                heal = max(0, min(heal, attacker_top - (attacker_life - ex.to_attacker)))
            damage[key] = (to_d, ex.to_attacker, heal)
    order = sorted(groups, key=lambda k: (-HITS.index(k[0]), HITS.index(k[1])))
    outcomes = tuple(Outcome(k[0], k[1], damage[k][0], damage[k][1], tuple(groups[k]), damage[k][2]) for k in order)
    return StrikeOdds(attacker, defender, attacker_life, defender_life, outcomes, how)


def card_strike_odds(game: str, attacker: BattleCard, defender: BattleCard, attacker_life: int | None, defender_life: int | None,
                     kind: str = "simple", plus: int | None = None, vampirism: int | None = None) -> StrikeOdds:
    """The odds of `attacker` striking `defender` with the modifiers its catalogue abilities allow, against the
    defender's catalogue protections; BadArgument when the attacker has no strike or lacks an ability the strike
    needs, or the defender has no life for a strike to take (a terrain)."""
    if attacker.strike is None:
        raise BadArgument(f"{attacker.label} has no strike values")
    if defender.life is None:
        raise BadArgument(f"{defender.label} has no life to lose: no strike is made on it")
    attacker_life = attacker_life or attacker.life
    if attacker_life is None:
        raise BadArgument(f"must be given: {attacker.label} has no life printed", "attacker_life")
    defender_life = defender_life or defender.life
    have = actions_of(game, attacker.abilities)
    needs = {"aimed": "aimed", "magic": "magic", "nocounter": "special"}.get(kind)
    for need, wanted in ((needs, True), ("special", plus is not None), ("vampirism", vampirism is not None)):
        if wanted and need is not None and need not in have:
            raise BadArgument(f"{attacker.label} has no {need} strike (its abilities: {', '.join(attacker.abilities) or 'none'}; "
                              f"it comes with {', '.join(codes_with(game, need)) or 'no code of this game'})")
    special = kind != "simple" or plus is not None or vampirism is not None
    guarded_from = "magic" if kind == "magic" else ("simple" if not special else None)
    protected = protections_of(game, defender.abilities).get(guarded_from) if guarded_from else None
    incorporeal = incorporeal_code(game, defender.abilities) is not None
    how = StrikeKind(kind, plus, vampirism, protected, incorporeal)
    return strike_odds(attacker.strike, defender.strike, attacker_life, defender_life, how, attacker.life)


def odds_to_json(odds: StrikeOdds, attacker: BattleCard, defender: BattleCard) -> dict[str, Any]:
    """The JSON of `combat odds --json`: `odds.to_dict()` with each side's card id and name beside its strike."""
    data = odds.to_dict()
    data["attacker"].update(card=attacker.id, name=attacker.name)
    data["defender"].update(card=defender.id, name=defender.name)
    return data
