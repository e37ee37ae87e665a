"""One battle between characters: Power against HP, the higher Range striking first.

"if a 2/2 is fighting against a 2/3, they'll both deliver the other 2 points
of damage, the 2/2 will then die, and the 2/3 will survive"; "a 2/1 character
card with a higher Range than a 3/2 will kill it before it can fight back".
Characters of equal Range strike at the same time. Several characters on a
side (a city's battle) pool their Power at each Range step and assign it to
the other side in order, the reading `battle_damage_order` in
`data/rules/berserk-tcg.json`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from cardkit.errors import CardkitError
from cardkit.games.berserk_tcg.opening.cards import CardId

SIDES: tuple[str, str] = ("attacker", "defender")


class NotACharacter(CardkitError):
    """The card cannot fight: it has no Power and HP."""

    error_code = "NOT_A_CHARACTER"

    def __init__(self, card_id: str, name: str) -> None:
        super().__init__(f"{name} ({card_id}) is not a character: it has no Power and HP to fight with")


@dataclass(frozen=True)
class Fighter:
    """A character as a battle sees it; `damage` is what it has taken this turn."""

    id: CardId
    name: str
    power: int
    hp: int
    range: int
    damage: int = 0

    @property
    def alive(self) -> bool:
        return self.damage < self.hp

    @classmethod
    def from_catalogue(cls, card: Mapping[str, Any]) -> Fighter:
        if card.get("kind") != "character" or card.get("power") is None or card.get("hp") is None:
            raise NotACharacter(str(card.get("id")), str(card.get("name")))
        return cls(card["id"], card["name"], int(card["power"]), int(card["hp"]), int(card.get("range") or 0))

    def label(self) -> str:
        return f"{self.name} ({self.id}, {self.power}/{self.hp}, Range {self.range})"


@dataclass(frozen=True)
class Strike:
    """One Range step: who struck whom for how much, and who died from it."""

    range: int
    hits: tuple[tuple[str, CardId, CardId, int], ...]  # (striking side, striker, target, damage)
    killed: tuple[CardId, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"range": self.range,
                "hits": [{"side": s, "striker": a, "target": t, "damage": d} for s, a, t, d in self.hits],
                "killed": list(self.killed)}

    def describe(self, names: Mapping[CardId, str]) -> str:
        hits = "; ".join(f"{names[a]} deals {d} to {names[t]}" for _, a, t, d in self.hits)
        dead = f"; {', '.join(names[k] for k in self.killed)} dies" if self.killed else ""
        return f"Range {self.range}: {hits or 'nobody strikes'}{dead}"


@dataclass(frozen=True)
class BattleResult:
    """Both sides after the battle (with damage taken) and the Range steps that led there."""

    attackers: tuple[Fighter, ...]
    defenders: tuple[Fighter, ...]
    steps: tuple[Strike, ...] = ()

    @property
    def attacker_survives(self) -> bool:
        return any(f.alive for f in self.attackers)

    @property
    def defender_survives(self) -> bool:
        return any(f.alive for f in self.defenders)

    @property
    def attacker_wins(self) -> bool:
        """The attackers take what they fought for: one of them stands and no defender does."""
        return self.attacker_survives and not self.defender_survives

    def to_dict(self) -> dict[str, Any]:
        return {"attacker_survives": self.attacker_survives, "defender_survives": self.defender_survives,
                "steps": [s.to_dict() for s in self.steps]}


def _assign(power: int, targets: list[Fighter], dealt: dict[int, int]) -> list[tuple[int, int]]:
    """Give `power` to `targets` in order, each up to the HP it has left; (index, damage) pairs."""
    out: list[tuple[int, int]] = []
    for i, t in enumerate(targets):
        if power <= 0:
            break
        if not t.alive:
            continue
        left = t.hp - t.damage - dealt.get(i, 0)
        if left <= 0:
            continue
        d = min(power, left)
        dealt[i] = dealt.get(i, 0) + d
        out.append((i, d))
        power -= d
    return out


def fight(attackers: Iterable[Fighter], defenders: Iterable[Fighter]) -> BattleResult:
    """Resolve a battle: Range steps from the highest down; everyone of a step strikes at once.

    Each striker's Power goes to the first opposing character still standing,
    the surplus over its HP left to the next (the reading `battle_damage_order`).
    With no one on one side, nobody strikes.
    """
    sides = [list(attackers), list(defenders)]
    steps: list[Strike] = []
    if not sides[0] or not sides[1]:
        return BattleResult(tuple(sides[0]), tuple(sides[1]))
    for rng in sorted({f.range for side in sides for f in side}, reverse=True):
        strikers = [[(i, f) for i, f in enumerate(side) if f.alive and f.range == rng] for side in sides]
        if not any(strikers):
            continue
        dealt: list[dict[int, int]] = [{}, {}]
        hits: list[tuple[str, CardId, CardId, int]] = []
        for s, who in enumerate(strikers):
            other = 1 - s
            for _, f in who:
                for target, d in _assign(f.power, sides[other], dealt[other]):
                    hits.append((SIDES[s], f.id, sides[other][target].id, d))
        killed: list[CardId] = []
        for s in (0, 1):
            for i, d in dealt[s].items():
                f = sides[s][i]
                sides[s][i] = replace(f, damage=f.damage + d)
                if not sides[s][i].alive:
                    killed.append(f.id)
        steps.append(Strike(rng, tuple(hits), tuple(killed)))
        if not any(f.alive for f in sides[0]) or not any(f.alive for f in sides[1]):
            break
    return BattleResult(tuple(sides[0]), tuple(sides[1]), tuple(steps))


def healed(fighters: Iterable[Fighter]) -> tuple[Fighter, ...]:
    """The ending phase: "the damages dealt and that didn't send a card to the Trash are healed"."""
    return tuple(replace(f, damage=0) for f in fighters if f.alive)


def load_fighter(text: str) -> Fighter:
    """A TCG character by id or name from the catalogue; CardNotFound, AmbiguousCard or NotACharacter otherwise."""
    from cardkit.catalogue.lookup import card_index
    from cardkit.errors import AmbiguousCard, CardNotFound

    index = card_index("berserk-tcg")
    found = index.find(text)
    if found.resolved is None:
        if found.ambiguous:
            raise AmbiguousCard(text, list(found.ids))
        raise CardNotFound(text, list(found.suggestions))
    return Fighter.from_catalogue(index.catalogue.cards[found.resolved])


def one_battle(attacker: str, defender: str) -> BattleResult:
    """`cardkit combat tcg`: one catalogue character attacking another."""
    return fight([load_fighter(attacker)], [load_fighter(defender)])
