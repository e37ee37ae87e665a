"""Berserk TCG (Konami): importer, opening engine."""

COLOURS: tuple[str, ...] = ("white", "green", "black", "red")
COLOUR_LETTERS: dict[str, str] = {"W": "white", "G": "green", "B": "black", "R": "red"}
