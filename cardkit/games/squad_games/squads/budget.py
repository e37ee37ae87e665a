"""Crystal budgets: the format's `squad` object as rules, and a budget with its derivation."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cardkit.errors import BadArgument
from cardkit.games.squad_games.squads.cards import NEUTRAL, SquadCard
from cardkit.textfold import fold
from cardkit.visible import quoted

# The optimiser asks for a card's key in its inner loop; a deal holds at most a few dozen names.
_name_key = lru_cache(maxsize=4096)(fold)

SEATS: tuple[str, ...] = ("first", "second")


@dataclass(frozen=True)
class SquadRules:
    """The squad numbers of one format (see `schemas/format.schema.json`, property `squad`).

    `element_gold` pairs a number of distinct elements with the gold modifier
    added to the base; counts past the table continue its last step.
    """

    format: str
    game: str
    deal_size: int
    gold: int
    silver: int
    element_gold: tuple[tuple[int, int], ...]
    neutral_is_element: bool = False
    second_seat_gold: int = 0
    second_seat_silver: int = 0
    redeal_gold: int = 1
    flyer_crystal_cap: int | None = None
    max_terrains: int | None = None
    unique_once: bool = True
    copies_by: str = "card"
    reserve_zone: frozenset[str] = frozenset({"flyer", "terrain"})
    side_squares: str = "both-seats"

    @classmethod
    def from_dict(cls, format_name: str, game: str, data: dict[str, Any], copies_by: str = "card") -> SquadRules:
        seat = data.get("second_seat", {})
        table = tuple(sorted((int(k), int(v)) for k, v in data["element_gold"].items()))
        rules = cls(
            format=format_name, game=game, deal_size=int(data.get("deal_size", 15)),
            gold=int(data["gold"]), silver=int(data["silver"]), element_gold=table,
            neutral_is_element=bool(data.get("neutral_is_element", False)),
            second_seat_gold=int(seat.get("gold", 0)), second_seat_silver=int(seat.get("silver", 0)),
            redeal_gold=int(data.get("redeal_gold", 1)),
            flyer_crystal_cap=data.get("flyer_crystal_cap"), max_terrains=data.get("max_terrains"),
            unique_once=bool(data.get("unique_once", True)), copies_by=copies_by,
            reserve_zone=frozenset(data.get("reserve_zone", ("flyer", "terrain"))),
            side_squares=str(data.get("side_squares", "both-seats")),
        )
        rules.check_monotone()
        return rules

    def card_key(self, card: SquadCard) -> str:
        """What printings of one card share: the id, or under `copies_by: name` the name (folded as
        lookups fold names: Мародер = Мародёр), so a reprint and its original are one card."""
        return _name_key(card.name) if self.copies_by == "name" else card.id

    def unique_key(self, card: SquadCard) -> str:
        """What two copies of a unique card share (`card_key`): a reprint and its original are the unique card twice."""
        return self.card_key(card)

    def in_reserve(self, card: SquadCard) -> bool:
        """Whether the card stands in the reserve (auxiliary) zone from set-up rather than on a square."""
        return (card.flyer and "flyer" in self.reserve_zone) or (card.terrain and "terrain" in self.reserve_zone)

    def element_modifier(self, count: int) -> int:
        """Gold added for a squad of `count` distinct elements."""
        table = dict(self.element_gold)
        if count in table:
            return table[count]
        top = max(table)
        step = table[top] - table.get(top - 1, table[top])
        return table[top] + step * (count - top)

    def check_monotone(self) -> None:
        """The optimiser relies on more elements never giving more gold."""
        top = max(k for k, _ in self.element_gold) + 2
        mods = [self.element_modifier(n) for n in range(top)]
        if any(b > a for a, b in zip(mods, mods[1:])):
            raise BadArgument(f"format {self.format}: element_gold must not grow with the number of elements")

    def elements_of(self, cards: Iterable[SquadCard]) -> list[str]:
        """Distinct elements of `cards`, sorted; neutral counts only if the format says so."""
        found: set[str] = set()
        for c in cards:
            if c.elements:
                found |= c.elements
            elif self.neutral_is_element:
                found.add(NEUTRAL)
        return sorted(found)


@dataclass(frozen=True)
class Budget:
    """Gold and silver for one squad, with each step that produced them."""

    gold: int
    silver: int
    steps: tuple[tuple[str, int, int], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {"gold": self.gold, "silver": self.silver}

    def derivation(self) -> list[dict[str, Any]]:
        return [{"step": s, "gold": g, "silver": v} for s, g, v in self.steps]


def check_seat(seat: str) -> str:
    if seat not in SEATS:
        raise BadArgument(f"seat must be 'first' or 'second'; got {quoted(seat)}")
    return seat


@lru_cache(maxsize=1024)
def budget_for(rules: SquadRules, element_count: int, seat: str = "first", redeals: int = 0,
               gold: int | None = None, silver: int | None = None) -> Budget:
    """The budget of a squad with `element_count` distinct elements; `gold`/`silver` replace the base."""
    check_seat(seat)
    if redeals < 0:
        raise BadArgument(f"re-deals must be a non-negative whole number; got {redeals}")
    base_g = rules.gold if gold is None else gold
    base_s = rules.silver if silver is None else silver
    steps: list[tuple[str, int, int]] = [("base" if gold is None and silver is None else "base (table setting)", base_g, base_s)]
    mod = rules.element_modifier(element_count)
    steps.append(("no element (neutral only)" if element_count == 0 else f"{element_count} element(s)", mod, 0))
    if seat == "second":
        steps.append(("second seat", rules.second_seat_gold, rules.second_seat_silver))
    if redeals:
        steps.append((f"{redeals} re-deal(s)", -rules.redeal_gold * redeals, 0))
    return Budget(gold=sum(s[1] for s in steps), silver=sum(s[2] for s in steps), steps=tuple(steps))


def squad_rules(format_name: str) -> SquadRules:
    """The squad rules of a format file (UnknownFormat if none; BadArgument if it has no `squad`)."""
    from cardkit.formats import list_formats, load_format

    fmt = load_format(format_name)
    if not fmt.squad:
        known = sorted(f.name for f in list_formats() if f.squad)
        raise BadArgument(
            f"format {quoted(format_name)} has no squad rules; squad formats: {', '.join(known) or 'none'}")
    return SquadRules.from_dict(fmt.name, fmt.game, fmt.squad, fmt.copies_by)
