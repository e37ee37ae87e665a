"""cardkit: card catalogue and deck-legality toolkit for the Berserk card games."""

__version__ = "0.1.0"
