"""Berserk tabletop CCG (Russian): its importer; squads and battles are `cardkit.games.squad_games`'."""

# The order of the element bits in the source card list.
ELEMENTS: tuple[str, ...] = ("steppe", "mountains", "forest", "swamps", "darkness")
