"""Berserk TCG (Konami): importer and opening engine.

cards (what the rules need of a card, policy orders), payment (exact cost
solver), state (a player's side, `can_open`), actions (text actions, legal
actions, `apply`), opening (turn rules, reference simulator), exact
(hypergeometric odds), simulate (vectorised simulator), result (report).
"""

COLOURS: tuple[str, ...] = ("white", "green", "black", "red")
COLOUR_LETTERS: dict[str, str] = {"W": "white", "G": "green", "B": "black", "R": "red"}
