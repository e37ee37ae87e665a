"""The two-player Berserk TCG game, split as every engine is: state, notation, legal, apply, setup, engine.

Battles are `battle`, the five cities `cities`. The rules' open readings are data in `data/rules/berserk-tcg.json`; the one-player
opening engine (`berserk_tcg.opening.state.can_open`) decides every open, in both engines.
"""
