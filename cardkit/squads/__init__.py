"""Squads for Berserk Online and the tabletop CCG: budgets, legality, best squads, deals, placement.

A player is dealt 15 cards and recruits a squad from them with gold and
silver crystals; the numbers live in each format's `squad` object.
"""

from __future__ import annotations

from cardkit.squads.budget import Budget, SquadRules, budget_for, squad_rules
from cardkit.squads.cards import SquadCard, squad_card

__all__ = ["Budget", "SquadCard", "SquadRules", "budget_for", "squad_card", "squad_rules"]
