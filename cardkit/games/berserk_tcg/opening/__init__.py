"""The TCG's one-player opening engine: how soon a deck opens its cards, played and counted.

cards (what the rules need of a card, policy orders), payment (exact cost
solver), state (a player's side, `can_open`), actions (text actions, legal
actions, `apply`), play (turn rules, reference simulator), exact
(hypergeometric odds), simulate (vectorised simulator), result (report).
The two-player game (`berserk_tcg.game`) opens cards through `state.can_open` too.
"""
