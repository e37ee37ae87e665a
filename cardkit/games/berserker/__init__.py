"""Berserker fleet game: importer, fleet set-up, card use, hands."""
