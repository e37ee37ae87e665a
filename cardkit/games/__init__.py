"""One package per game: its importer and its rules engine.

Adding a game means adding a package here and naming it in `GAME_PACKAGES`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from cardkit.errors import UnknownGame

GAME_PACKAGES: dict[str, str] = {
    "berserk-tcg": "cardkit.games.berserk_tcg",
    "berserk-ccg": "cardkit.games.berserk_ccg",
    "berserk-online": "cardkit.games.berserk_online",
    "berserker": "cardkit.games.berserker",
}


def game_module(game: str, module: str) -> ModuleType:
    """The `module` submodule of `game`'s package, imported on first use."""
    try:
        package = GAME_PACKAGES[game]
    except KeyError:
        raise UnknownGame(game) from None
    return importlib.import_module(f"{package}.{module}")
