"""The `/-/syntax` page: every filter of the query language, each with an example that runs.

Plain data beside `cardkit.db.query`, which defines the language: one example per field there,
then the words, operators and ordering. A test runs every example and expects cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardkit.db.query import ALIASES, FIELDS, ORDER_FIELDS


@dataclass(frozen=True)
class Example:
    """One line of the syntax page: what is written, what it means, and a query that shows it."""

    syntax: str
    meaning: str
    example: str


# One example per field of the query language (`cardkit.db.query.FIELDS`), in that order.
FIELD_EXAMPLES: dict[str, str] = {
    "game": "g:berserk-ccg Koch",
    "id": "id:BK1-9",
    "name": "name:Guts",
    "set": "s:BK2 c:red",
    "kind": "t:city",
    "colour": "c:black lv<=1",
    "element": "e:forest elite:yes",
    "rarity": "r:ultra-rare",
    "level": "lv>=4",
    "cost": "cost>=9",
    "elite": "elite:yes e:darkness",
    "unique": "unique:yes g:berserk-tcg",
    "mercenary": "mercenary:yes",
}

WORDS: tuple[Example, ...] = (
    Example("a word", "cards whose name, transliteration or id has a word beginning with it, in Cyrillic or "
                      "Latin letters, any common spelling", "Koch"),
    Example("a word in Cyrillic", "the same, typed in Russian", "Кочев"),
    Example('"a phrase"', "the words together, in that order", '"Zodd\'s Entrance"'),
)

COMBINING: tuple[Example, ...] = (
    Example("terms side by side", "every term must hold", "Guts lv:2"),
    Example("-TERM", "the term must not hold", "c:red -t:character"),
    Example("A or B", "either holds (or binds looser than terms side by side)", "c:white or c:green lv:0"),
    Example("( )", "brackets group alternatives", "(c:red or c:black) -t:city lv<=1"),
    Example("FIELD!=VALUE", "any value but that one", "g:berserk-tcg c!=red lv:0"),
    Example("<, <=, >, >=", "compare numbers (level, cost)", "cost<2 g:berserk-online"),
)

ORDERING: tuple[Example, ...] = (
    Example("order:FIELD", f"sort by one of {', '.join(ORDER_FIELDS)} (a card without it comes last)",
            "c:red order:cost"),
    Example("order:-FIELD", "sort that field from the highest down", "g:berserk-ccg order:-cost"),
    Example("direction:desc", "turn every order: around", "mercenary:yes order:level direction:desc"),
)


def field_examples() -> list[tuple[str, list[str], str, Example]]:
    """(field, its short aliases, what values it takes, its example) for every field of the language."""
    aliases: dict[str, list[str]] = {}
    for alias, name in ALIASES.items():
        aliases.setdefault(name, []).append(alias)
    return [(name, aliases.get(name, []), f"{field.kind.value}: {field.help}",
             Example(f"{name}:VALUE" if field.kind.value != "number" else f"{name}<=N", field.help, FIELD_EXAMPLES[name]))
            for name, field in FIELDS.items()]


def all_examples() -> list[str]:
    """Every example query the page shows, in page order."""
    return ([e.example for e in WORDS] + [e.example for *_, e in field_examples()]
            + [e.example for e in COMBINING] + [e.example for e in ORDERING])
