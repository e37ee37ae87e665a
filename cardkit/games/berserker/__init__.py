"""Berserker fleet game: importer, the ships and cards (model), who may play which card (usage), hands (simulate);
the game on the board is `game/`."""
