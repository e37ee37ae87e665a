"""Making a listed action applicable: its dice rolled and its X placeholders given numbers, from a seeded generator.

`legal_actions` lists strikes without dice and ability actions with `X` in place of
the card's number; random play and simulations fill them here, one way for all.
"""

from __future__ import annotations

import random
from dataclasses import replace

from cardkit.games.squad_games.battle.legal import dice_needed
from cardkit.games.squad_games.battle.notation import Action, Attack, Deathblow, Shoot
from cardkit.games.squad_games.battle.state import BattleState

MAX_X = 3
"""The largest number given to an X placeholder: the catalogue has none, and most printed values are small."""


def rolled(state: BattleState, action: Action, rng: random.Random) -> Action:
    """`action` with its dice and every X filled in; other actions unchanged."""
    if isinstance(action, Attack):
        mods = tuple((name, rng.randint(1, MAX_X) if v is None else v) for name, v in action.mods)
        surprise = action.surprise
        if surprise is not None and surprise.damage is None:
            surprise = replace(surprise, damage=rng.randint(0, MAX_X))
        dice = tuple(rng.randint(1, 6) for _ in range(dice_needed(state, action)))
        return replace(action, mods=mods, surprise=surprise, dice=action.dice or dice)
    if isinstance(action, Shoot) and not action.damage:
        if rng.random() < 0.5:
            return replace(action, damage=(1, 2, 3), die=rng.randint(1, 6))
        return replace(action, damage=(rng.randint(0, MAX_X),))
    if isinstance(action, Deathblow) and action.x is None:
        return replace(action, x=rng.randint(1, MAX_X))
    return action


def needs_dice(action: Action) -> bool:
    """Whether `action` is written without the dice `dice_rolled` would roll for it."""
    if isinstance(action, Attack):
        return action.dice is None and all(v is not None for _, v in action.mods)
    return isinstance(action, Shoot) and len(action.damage) == 3 and action.die is None


def dice_rolled(state: BattleState, action: Action, rng: random.Random) -> Action:
    """`action` with the dice a person left out rolled: a strike's, or a shot's die when it names X-Y-Z.

    Only chance is filled: an X stays X, since it is the card's printed number, which a person knows and a
    roll would only guess.
    """
    if not needs_dice(action):
        return action
    if isinstance(action, Attack):
        return replace(action, dice=tuple(rng.randint(1, 6) for _ in range(dice_needed(state, action))))
    if isinstance(action, Shoot):
        return replace(action, die=rng.randint(1, 6))
    return action
