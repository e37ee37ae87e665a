"""The battle engine of Berserk Online and the tabletop CCG: board, state, actions, rules and exact odds.

Modelled on a chess library: a frozen `BattleState`, actions that print and
parse as text (`Action.parse(str(a)) == a`), `legal_actions(state)`, and
`apply(state, action) -> (state, events)` that never changes its input.
"""
