"""Exact odds of a simple strike on an open card, over the 36 equally likely die pairs."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardkit.games.battle.combat import strike_on_open
from cardkit.games.battle.rules import DIE, HITS, Hit, Strike

ROLLS = 36


@dataclass(frozen=True, slots=True)
class Outcome:
    """One pair of strikes, the die pairs that give it, and its exact probability."""

    attacker_hit: Hit
    defender_hit: Hit
    to_defender: int
    to_attacker: int
    rolls: tuple[tuple[int, int], ...]

    @property
    def p(self) -> Fraction:
        return Fraction(len(self.rolls), ROLLS)


@dataclass(frozen=True, slots=True)
class StrikeOdds:
    """The whole distribution of one simple strike, with the lives it is judged against."""

    attacker: Strike
    defender: Strike
    attacker_life: int
    defender_life: int
    outcomes: tuple[Outcome, ...]

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
        return sum((o.p for o in self.outcomes if self.attacker_life - o.to_attacker <= 0), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        def num(f: Fraction) -> float:
            return float(f)

        return {
            "attacker": {"strike": str(self.attacker), "life": self.attacker_life},
            "defender": {"strike": str(self.defender), "life": self.defender_life},
            "outcomes": [{"attacker_hit": o.attacker_hit, "defender_hit": o.defender_hit,
                          "to_defender": o.to_defender, "to_attacker": o.to_attacker,
                          "p": num(o.p), "p_exact": str(o.p), "rolls": [f"{a}:{d}" for a, d in o.rolls]}
                         for o in self.outcomes],
            "expected_damage": {"to_defender": num(self.expected_to_defender), "to_attacker": num(self.expected_to_attacker),
                                "to_defender_exact": str(self.expected_to_defender),
                                "to_attacker_exact": str(self.expected_to_attacker)},
            "p_defender_dies": num(self.p_defender_dies), "p_defender_dies_exact": str(self.p_defender_dies),
            "p_attacker_dies": num(self.p_attacker_dies), "p_attacker_dies_exact": str(self.p_attacker_dies),
        }


def strike_odds(attacker: Strike, defender: Strike, attacker_life: int, defender_life: int) -> StrikeOdds:
    """Every die pair of a simple strike on an open card, grouped by the two strikes it gives."""
    groups: dict[tuple[Hit, Hit], list[tuple[int, int]]] = {}
    damage: dict[tuple[Hit, Hit], tuple[int, int]] = {}
    for a in DIE:
        for d in DIE:
            ex = strike_on_open(attacker, defender, a, d)
            key = (ex.attacker_hit, ex.defender_hit)
            groups.setdefault(key, []).append((a, d))
            damage[key] = (ex.to_defender, ex.to_attacker)
    order = sorted(groups, key=lambda k: (-HITS.index(k[0]), HITS.index(k[1])))
    outcomes = tuple(Outcome(k[0], k[1], damage[k][0], damage[k][1], tuple(groups[k])) for k in order)
    return StrikeOdds(attacker, defender, attacker_life, defender_life, outcomes)
