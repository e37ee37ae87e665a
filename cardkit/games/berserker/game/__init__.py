"""The Berserker fleet game on the board, split as every engine is: state, notation, legal, apply, setup, engine.

Straight-line geometry is `geometry`; the rules' open readings are data in
`data/rules/berserker.json`.
"""
