"""The games cardkit knows, each named once: everything that works game by game reads this list.

A `GameSpec` holds module names, not modules: a command imports the one game it runs, and
reading the list costs no game's engine. tests/test_game_registry.py checks that every
registered game provides each part it names.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Literal

from cardkit.errors import UnknownGame

BATTLE_ENGINE = "cardkit.games.squad_games.battle.engine"
SQUAD_RULES = "cardkit.games.squad_games.squads"
SQUAD_SIMULATOR = "cardkit.games.squad_games.simulate"

Part = Literal["importer", "engine", "squads", "simulator"]


@dataclass(frozen=True)
class GameSpec:
    """One game: its id, its names, and where each of its parts lives."""

    id: str
    """The id in catalogue files, decks, formats and the database: `berserk-tcg`."""
    name: str
    """The game's name on pages: `Berserk TCG`."""
    short: str
    """The game in a set's label, where every game's sets are listed together: `TCG`."""
    importer: str
    """The module whose `import_files(source)` turns the published card list into catalogue files."""
    table: str
    """The database table of its cards, with every field (`cardkit.db.rows`, `cardkit.web.tables`)."""
    formats: tuple[str, ...]
    """Its format files in data/formats/ (by name, without `.json`)."""
    engine: str | None = None
    """The module whose `ENGINE` (a `cardkit.games.engine.Engine`) plays it; None when cardkit plays no game of it."""
    squads: str | None = None
    """The package of its squad rules, the numbers of which are each format's `squad` object; None without squads."""
    simulator: str | None = None
    """The module whose `simulate(deck, options, progress)` and `ACCEPTS` serve `cardkit simulate`; None without one."""
    colours: tuple[str, ...] = ()
    """Its colours (or elements), in the order a deck's mix is written; () for a game without."""
    no_colour: str | None = None
    """What a deck without a coloured (or elemental) card is called; None for a game without colours."""
    costs: bool = True
    """Whether its cards have a cost."""

    def module(self, part: Part) -> ModuleType:
        """The module of one of its parts, imported on first use; ModuleNotFoundError for a part it lacks."""
        name = getattr(self, part)
        if name is None:
            raise ModuleNotFoundError(f"{self.id} has no {part}", name=f"{self.id}.{part}")
        return importlib.import_module(name)


ELEMENTS_ORDER = ("steppe", "forest", "mountains", "swamps", "darkness")

BERSERK_TCG = GameSpec(
    "berserk-tcg", "Berserk TCG", "TCG", "cardkit.games.berserk_tcg.importer", "tcg_cards",
    formats=("berserk-tcg", "berserk-tcg-casual"),
    engine="cardkit.games.berserk_tcg.game.engine",
    simulator="cardkit.games.berserk_tcg.opening.simulate",
    colours=("white", "green", "black", "red"), no_colour="colourless",
)
BERSERK_CCG = GameSpec(
    "berserk-ccg", "Berserk CCG", "CCG", "cardkit.games.berserk_ccg.importer", "ccg_cards",
    formats=("berserk-ccg",), engine=BATTLE_ENGINE, squads=SQUAD_RULES, simulator=SQUAD_SIMULATOR,
    colours=ELEMENTS_ORDER, no_colour="neutral",
)
BERSERK_ONLINE = GameSpec(
    "berserk-online", "Berserk Online", "Online", "cardkit.games.berserk_online.importer", "online_cards",
    formats=("berserk-online",), engine=BATTLE_ENGINE, squads=SQUAD_RULES, simulator=SQUAD_SIMULATOR,
    colours=ELEMENTS_ORDER, no_colour="neutral",
)
BERSERKER = GameSpec(
    "berserker", "Berserker (fleet game)", "Berserker", "cardkit.games.berserker.importer", "berserker_cards",
    formats=("berserker",), engine="cardkit.games.berserker.game.engine",
    simulator="cardkit.games.berserker.simulate", costs=False,
)

GAME_SPECS: tuple[GameSpec, ...] = (BERSERK_TCG, BERSERK_CCG, BERSERK_ONLINE, BERSERKER)
"""Every game, in the catalogue's order (the order of lists, messages and the database's rows)."""
GAMES: tuple[str, ...] = tuple(g.id for g in GAME_SPECS)
SPECS: dict[str, GameSpec] = {g.id: g for g in GAME_SPECS}

BATTLE_GAMES: tuple[str, ...] = tuple(g.id for g in (BERSERK_ONLINE, BERSERK_CCG))
"""The games the battle engine plays; Online first, where a card name of both games is looked up first."""
SQUAD_GAMES: tuple[str, ...] = tuple(g.id for g in GAME_SPECS if g.squads)


def game_spec(game: str) -> GameSpec:
    """The spec of `game`; UnknownGame when there is no such game."""
    try:
        return SPECS[game]
    except KeyError:
        raise UnknownGame(game) from None


def game_module(game: str, part: Part) -> ModuleType:
    """The module of `part` of `game`, imported on first use."""
    return game_spec(game).module(part)


def in_words(games: tuple[str, ...], last: str = "or") -> str:
    """`berserk-tcg, berserk-ccg, berserk-online or berserker`: games as a help text lists them."""
    return games[0] if len(games) == 1 else f"{', '.join(games[:-1])} {last} {games[-1]}"
