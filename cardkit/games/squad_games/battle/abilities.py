"""The ability codes as data: what the battle engine does with each code of the catalogue.

One file, `data/battle/abilities.json` (schema `schemas/battle-abilities.schema.json`),
read once; the engine, the Online glossary of the card pages and docs/battle.md all read it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardkit import paths
from cardkit.errors import CatalogueError
from cardkit.games.registry import BATTLE_GAMES
from cardkit.games.squad_games.battle.rules import checked_data


@dataclass(frozen=True)
class Ability:
    """One code of one game and what the engine does with it."""

    code: str
    game: str
    term: str | None
    kind: str
    applied: bool
    does: str
    follows: str | None = None
    action: str | None = None
    protects: frozenset[str] = frozenset()
    incorporeal: bool = False
    catalogue: bool = True


@lru_cache(maxsize=1)
def abilities_data() -> dict[str, Any]:
    """`data/battle/abilities.json`, schema-checked; CatalogueError when it is missing or broken."""
    data = checked_data("abilities")
    seen = [(a["game"], a["code"]) for a in data["abilities"]]
    if len(seen) != len(set(seen)):
        raise CatalogueError(f"{paths.DATA_DIR / 'battle' / 'abilities.json'}: a code is listed twice for one game")
    return data


@lru_cache(maxsize=4)
def game_abilities(game: str) -> dict[str, Ability]:
    """Code -> Ability for one game (`berserk-online` or `berserk-ccg`)."""
    return {a["code"]: Ability(a["code"], a["game"], a["term"], a["kind"], a["applied"], a["does"], a.get("follows"),
                               a.get("action"), frozenset(a.get("protects", ())), bool(a.get("incorporeal")),
                               a.get("catalogue", True))
            for a in abilities_data()["abilities"] if a["game"] == game}


def actions_of(game: str, codes: Iterable[str]) -> frozenset[str]:
    """The actions and strike modifiers that `codes` make legal (only applied codes count)."""
    table = game_abilities(game)
    return frozenset(a.action for c in codes if (a := table.get(c)) is not None and a.applied and a.action)


def protections_of(game: str, codes: Iterable[str]) -> dict[str, str]:
    """Attack kind -> the code that makes it harmless to a card with `codes`."""
    table = game_abilities(game)
    out: dict[str, str] = {}
    for c in sorted(codes):
        a = table.get(c)
        if a is not None and a.applied:
            for kind in sorted(a.protects):
                out.setdefault(kind, c)
    return out


def incorporeal_code(game: str, codes: Iterable[str]) -> str | None:
    """The code that makes a card with `codes` incorporeal, if any."""
    table = game_abilities(game)
    return next((c for c in sorted(codes) if (a := table.get(c)) is not None and a.applied and a.incorporeal), None)


def codes_with(game: str, action: str) -> list[str]:
    """The codes of `game` that make `action` legal, for messages."""
    return sorted(a.code for a in game_abilities(game).values() if a.applied and a.action == action)


def glossary_entries(game: str = "berserk-online") -> list[Ability]:
    """The codes the game's rules text names (a term), in the file's order: the card pages' glossary."""
    return [a for a in game_abilities(game).values() if a.term is not None and a.catalogue]


def applied_table() -> str:
    """The Markdown list of applied and shown codes that docs/battle.md carries (checked by a test)."""
    lines = ["| game | applied codes | shown only |", "|---|---|---|"]
    for game in BATTLE_GAMES:
        table = game_abilities(game).values()
        applied = ", ".join(f"`{a.code}`" for a in table if a.applied)
        shown = ", ".join(f"`{a.code}`" for a in table if not a.applied)
        lines.append(f"| {game} | {applied} | {shown} |")
    return "\n".join(lines)
