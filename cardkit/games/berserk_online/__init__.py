"""Berserk Online: importer, squads."""
