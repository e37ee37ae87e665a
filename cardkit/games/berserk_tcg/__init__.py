"""Berserk TCG (Konami): its importer, the two-player game (`game/`) and the one-player opening engine (`opening/`).

The colours are the game's own; the registry (`cardkit.games.registry`) names the rest.
"""

COLOURS: tuple[str, ...] = ("white", "green", "black", "red")
COLOUR_LETTERS: dict[str, str] = {"W": "white", "G": "green", "B": "black", "R": "red"}
