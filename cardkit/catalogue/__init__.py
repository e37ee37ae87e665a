"""The card catalogue: JSON files under `data/cards/<game>/`, one card list per file."""

from cardkit.catalogue.store import Card, CardId, GameCatalogue, catalogue_hash, load_game

__all__ = ["Card", "CardId", "GameCatalogue", "catalogue_hash", "load_game"]
