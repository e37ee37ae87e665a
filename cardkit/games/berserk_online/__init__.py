"""Berserk Online: its importer; squads and battles are `cardkit.games.squad_games`'."""
