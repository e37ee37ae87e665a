"""Berserk TCG simulated openings: the vectorised simulator against the one-game-at-a-time reference.

Runs 100,000 games x 6 turns of a 45-card deck, taking a city (2 cards drawn)
on turns 2 and 4, and prints games/s beside the
reference (the engine's own state, action and policy objects, on fewer games),
then checks the two agree within their intervals. Run: python benchmarks/bench_tcg_simulate.py
"""

from __future__ import annotations

import sys
import time
from math import sqrt
from pathlib import Path

from cardkit.decks import read_deck
from cardkit.games.berserk_tcg.cards import load_cards
from cardkit.games.berserk_tcg.simulate import simulate, simulate_reference
from cardkit.simulation import SimulationOptions

DECK = Path(__file__).resolve().parent.parent / "tests" / "data" / "tcg" / "white-red.deck"  # 45 cards, 16 kinds
GAMES, REFERENCE_GAMES, TURNS = 100_000, 2_000, 6
TAKES = (2, 4)


def main() -> int:
    deck = read_deck(DECK)
    cards = load_cards()
    print(f"deck {DECK.name}: {sum(deck.main.values())} cards, {len(deck.main)} kinds; {TURNS} turns; "
          f"cities taken on turns {', '.join(map(str, TAKES))}")

    start = time.perf_counter()
    fast = simulate(deck, SimulationOptions(games=GAMES, turns=TURNS, seed=1, takes=TAKES), cards=cards).to_dict()
    fast_rate = GAMES / (time.perf_counter() - start)

    start = time.perf_counter()
    slow = simulate_reference(deck, SimulationOptions(games=REFERENCE_GAMES, turns=TURNS, seed=2, takes=TAKES), cards=cards).to_dict()
    slow_rate = REFERENCE_GAMES / (time.perf_counter() - start)

    print(f"vectorised (numpy)     {GAMES:>7,} games  {fast_rate:>10,.0f} games/s")
    print(f"reference (per game)   {REFERENCE_GAMES:>7,} games  {slow_rate:>10,.0f} games/s")
    print(f"speed-up               {fast_rate / slow_rate:>10,.1f}x")

    worst = 0.0
    for f, s in zip(fast["turns"], slow["turns"]):
        p = (f["p_any_open"] * GAMES + s["p_any_open"] * REFERENCE_GAMES) / (GAMES + REFERENCE_GAMES)
        sigma = sqrt(max(p * (1 - p), 1e-6) * (1 / GAMES + 1 / REFERENCE_GAMES))
        z = abs(f["p_any_open"] - s["p_any_open"]) / sigma
        worst = max(worst, z)
        print(f"  turn {f['turn']}: vectorised {f['p_any_open']:.4f}  reference {s['p_any_open']:.4f}  z {z:.2f}")
    agree = worst <= 3.29  # 99.9% two-sample bound over six turns
    print(f"agreement: {'OK' if agree else 'MISMATCH'} (largest z {worst:.2f}, bound 3.29)")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
