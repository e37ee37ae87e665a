"""Berserk tabletop CCG (Russian): importer, squads."""

ELEMENTS: tuple[str, ...] = ("steppe", "mountains", "forest", "swamps", "darkness")
