"""Which ship type may play which card, from the unit tables and the card list.

A Move card's number may not exceed the ship's Speed, an Attack card's range
may not exceed its Range, and a card's restriction (ship types, a side, the
attacks it answers) is read from the card's data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardkit.games.berserker.model import FleetCard, FleetRules, Ship, load_rules

# Which ship number bounds each card type's number, and how the text names both.
_BOUNDS: dict[str, tuple[str, str, str]] = {
    "move": ("speed", "moves {value}", "Speed"),
    "attack": ("range", "has range {value}", "Range"),
}


@dataclass(frozen=True)
class Usage:
    """Whether `ship` may play `card`: every reason it may not, or the conditions it is played under."""

    card: FleetCard
    ship: Ship
    refusals: tuple[str, ...]
    conditions: tuple[str, ...]

    @property
    def allowed(self) -> bool:
        return not self.refusals

    @property
    def reason(self) -> str:
        """One sentence: the refusals when not allowed, else what allows it and its conditions."""
        if self.refusals:
            return f"{self.ship.name} cannot use {self.card.name}: " + "; ".join(self.refusals)
        return f"{self.ship.name} can use {self.card.name}" + "".join(f"; {c}" for c in self.conditions)

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card.id, "ship": self.ship.id, "legal": self.allowed, "reason": self.reason}


def _names(ids: tuple[str, ...], table: dict[str, Any]) -> str:
    return " or ".join(table[i].name if i in table else i for i in ids)


# can_use's answers by the identity of what it was asked about; each entry keeps its card, ship and rules, so
# an identity is never taken for another object's. Listing a fleet state's legal actions asks about the same
# few pairs thousands of times. Bounded: cleared when full.
_ANSWERS: dict[tuple[int, int, int], tuple[FleetCard, Ship, FleetRules, Usage]] = {}
_MOST_ANSWERS = 4096


def can_use(card: FleetCard, ship: Ship, rules: FleetRules | None = None) -> Usage:
    """Check every rule for `ship` playing `card`; all refusals are collected, not just the first."""
    rules = rules or load_rules()
    key = (id(card), id(ship), id(rules))
    found = _ANSWERS.get(key)
    if found is not None and found[0] is card and found[1] is ship and found[2] is rules:
        return found[3]
    usage = _judged(card, ship, rules)
    if len(_ANSWERS) >= _MOST_ANSWERS:
        _ANSWERS.clear()
    _ANSWERS[key] = (card, ship, rules, usage)
    return usage


def _judged(card: FleetCard, ship: Ship, rules: FleetRules) -> Usage:
    refusals: list[str] = []
    conditions: list[str] = []
    r = card.restriction
    if r is not None and r.ships is not None and ship.id not in r.ships:
        refusals.append(f"only a {_names(r.ships, rules.ships)} may use {card.name}")
    if r is not None and r.side is not None and ship.side != r.side:
        refusals.append(f"only {r.side} ships may use {card.name}; the {ship.name} is a {ship.side} ship")
    bound = _BOUNDS.get(card.type)
    if bound is not None and card.value is not None:
        field, wording, label = bound
        limit = getattr(ship, field)
        if card.value > limit:
            refusals.append(f"{card.name} {wording.format(value=card.value)}, above its {label} of {limit}")
        else:
            conditions.append(f"{card.name} {wording.format(value=card.value)}, within its {label} of {limit}")
    if r is not None and r.against is not None:
        conditions.append(f"only against {_names(r.against, rules.cards)}")
    if card.type == "attack" and card.damage is not None and card.damage != 1:
        conditions.append(f"does {card.damage} points of damage")
    if card.destroys_user:
        conditions.append(f"the {ship.name} is destroyed")
    if card.negates == "attack":
        conditions.append("negates the attack")
    elif card.negates == "damage" and card.damage is not None:
        conditions.append(f"negates {card.damage} point{'s' if card.damage != 1 else ''} of the attack's damage")
    return Usage(card, ship, tuple(refusals), tuple(conditions))


def can_use_named(card: str, ship: str, rules: FleetRules | None = None) -> Usage:
    """`can_use` by names or ids; `UnknownName` (with suggestions) when either is not found."""
    rules = rules or load_rules()
    return can_use(rules.card(card), rules.ship(ship), rules)


@dataclass(frozen=True)
class UsageTable:
    """Every card kind against every ship type, in catalogue order."""

    ships: tuple[Ship, ...]
    rows: tuple[tuple[FleetCard, tuple[Usage, ...]], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ships": [s.id for s in self.ships],
            "cards": [
                {"card": card.id, "name": card.name, "type": card.type, "value": card.value,
                 "allowed": {u.ship.id: u.allowed for u in usages}}
                for card, usages in self.rows
            ],
        }

    def render_text(self) -> str:
        """An aligned grid: one row per card, one column per ship type, `yes` / `-`."""
        head = ["card", "type", "no."] + [s.name for s in self.ships]
        body = [[card.name, card.type, "-" if card.value is None else str(card.value)]
                + [("yes*" if u.conditions and _conditional(u) else "yes") if u.allowed else "-" for u in usages]
                for card, usages in self.rows]
        widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head] + body]
        lines.append("* with a condition (see `cardkit fleet can-use CARD SHIP`)")
        return "\n".join(lines) + "\n"


def _conditional(u: Usage) -> bool:
    c = u.card
    return bool(c.destroys_user or (c.restriction and c.restriction.against))


def usage_table(rules: FleetRules | None = None) -> UsageTable:
    rules = rules or load_rules()
    ships = tuple(rules.ships.values())
    return UsageTable(ships, tuple((card, tuple(can_use(card, s, rules) for s in ships))
                                   for card in rules.cards.values()))


def attacks_per_turn(ship: Ship) -> int:
    """How many attacks one ship of this type may make in a Fire phase."""
    return ship.attacks_per_turn


def fires_through_ships(ship: Ship) -> bool:
    """Whether this type's attacks pass through other ships."""
    return ship.fires_through_ships


def hits(ship: Ship) -> int:
    """Points of damage this type takes before it sinks."""
    return ship.hits
