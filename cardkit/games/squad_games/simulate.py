"""`cardkit simulate` for the squad games (Online and the CCG): deals of 15 and their best squads (see squads.deal_sim)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardkit.simulation import Progress, SimulationOptions

if TYPE_CHECKING:
    from cardkit.decks.model import Deck
    from cardkit.games.squad_games.squads.deal_sim import SquadSimulation

ACCEPTS = frozenset({"gold", "silver"})


def simulate(deck: Deck, options: SimulationOptions, progress: Progress | None = None) -> SquadSimulation:
    """N deals from the shuffled deck, the best squad of each, and what they leave unspent."""
    from cardkit.games.squad_games.squads.deal_sim import simulate_squad_deck

    return simulate_squad_deck(deck, options, progress)
