"""The Berserker fleet game on the board, split as every engine is: state, notation, legal, apply, setup, engine.

The board is `board` (an 8x8 `cardkit.games.board.Grid`); the rules' open readings are data in
`data/rules/berserker.json`.
"""
