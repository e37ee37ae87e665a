"""Canned queries over the catalogue database: the questions players ask most.

Named parameters (`:level`) become form fields in Datasette. Every parameter
arrives as text and may be empty, so each query casts it and treats '' as
"any" where that makes sense.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardkit.games.registry import GAME_SPECS

_COSTED: tuple[str, ...] = tuple(g.id for g in GAME_SPECS if g.costs)


@dataclass(frozen=True)
class CannedQuery:
    """One canned query: its title, what it answers, and its SQL."""

    title: str
    description: str
    sql: str
    # Parameters with a fixed set of values, offered as choices (an empty choice means any).
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)


QUERIES: dict[str, CannedQuery] = {
    "mercenaries": CannedQuery(
        "Berserk TCG Mercenaries",
        "Every Mercenary: a deck may hold any number of copies of these (ten or more is recommended).",
        """\
select game, id, name, colour, level, cost, set_id
from cards
where game = 'berserk-tcg' and mercenary = 1
order by level, cost, position""",
    ),
    "openable_cards": CannedQuery(
        "Berserk TCG cards openable at a Level, paying with one colour",
        "Cards of Level at most :level whose cost needs no card of another colour than :colour "
        "(colourless cost can be paid with any card); an empty field means any. Cities are left out.",
        """\
select c.game, c.id, c.name, c.colour, c.level, c.kind, c.cost,
       t.cost_white, t.cost_green, t.cost_black, t.cost_red, t.cost_colourless
from cards c join tcg_cards t on t.id = c.id
where c.game = 'berserk-tcg' and c.kind != 'city'
  and (:level = '' or c.level <= cast(:level as integer))
  and (:colour = '' or (
       (t.cost_white = 0 or lower(:colour) = 'white')
   and (t.cost_green = 0 or lower(:colour) = 'green')
   and (t.cost_black = 0 or lower(:colour) = 'black')
   and (t.cost_red = 0 or lower(:colour) = 'red')))
order by c.level, c.cost, c.position""",
        choices={"level": ("0", "1", "2", "3", "4", "5"), "colour": ("white", "green", "black", "red")},
    ),
    "elite_cards": CannedQuery(
        "Elite cards by element and cost",
        "Elite cards (CCG and Online) of :element (steppe, forest, mountains, swamps, darkness, "
        "or neutral; empty for all) costing at most :max_cost crystals (empty for any).",
        """\
select game, id, name, latin, elements, cost, kind, rarity
from cards
where elite = 1
  and (:element = ''
       or (lower(:element) = 'neutral' and elements = '')
       or (',' || elements || ',') like '%,' || lower(:element) || ',%')
  and (:max_cost = '' or cost <= cast(:max_cost as integer))
order by cost desc, game, position""",
        choices={"element": ("steppe", "forest", "mountains", "swamps", "darkness", "neutral")},
    ),
    "berserker_deck": CannedQuery(
        "Berserker: the standard deck",
        "The shared deck of the fleet game, card by card, with how many copies and who may play each; "
        "the last row is the total.",
        """\
select * from (
  select name, type, count, value, damage, negates,
         json_extract(restriction, '$.text') as restriction
  from berserker_cards
  union all
  select 'Total', null, sum(count), null, null, null, null from berserker_cards
)
order by type is null, type, name""",
    ),
    "berserker_fleet": CannedQuery(
        "Berserker: the fleets",
        "Each side's ships with their numbers: how many, hits, speed, range and attacks per turn.",
        """\
select side, name, count, hits, speed, range, attacks_per_turn, fires_through_ships
from berserker_ships
order by side, hits desc, name""",
    ),
    "cost_curve": CannedQuery(
        "Cost curve of a game",
        f"How many cards of :game ({', '.join(_COSTED)}; empty for all three) cost each amount, "
        "with the share of the game's cards and a bar to read the shape at a glance.",
        """\
select cost, count(*) as cards,
       round(100.0 * count(*) / sum(count(*)) over (), 1) as percent,
       printf('%.*c', cast(round(40.0 * count(*) / max(count(*)) over ()) as integer), '#') as bar
from cards
where (:game = '' or game = :game) and cost is not null
group by cost
order by cost""",
        choices={"game": _COSTED},
    ),
}
