"""Squads for Berserk Online and the tabletop CCG: budgets, legality, best squads, deals, placement.

A player is dealt 15 cards and recruits a squad from them with gold and
silver crystals; the numbers live in each format's `squad` object.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardkit.games.squad_games.squads.budget import Budget, SquadRules, budget_for, squad_rules
    from cardkit.games.squad_games.squads.cards import SquadCard, squad_card

__all__ = ["Budget", "SquadCard", "SquadRules", "budget_for", "squad_card", "squad_rules"]


def __getattr__(name: str) -> Any:
    # Loaded when first named: a battle reads its cards through cardkit.games.squad_games.squads.cards, and importing the
    # package must not also load the budget rules (and the text folding they use).
    if name in ("Budget", "SquadRules", "budget_for", "squad_rules"):
        from cardkit.games.squad_games.squads import budget

        return getattr(budget, name)
    if name in ("SquadCard", "squad_card"):
        from cardkit.games.squad_games.squads import cards

        return getattr(cards, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
