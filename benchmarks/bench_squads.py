"""Deals per second of the squad simulation (`cardkit simulate` for Berserk Online and the CCG).

Run: python benchmarks/bench_squads.py [--deals N]

Prints, per bundled deck, the simulation's deals/s (one process, building its table of every
deal's best squad in each run; median of interleaved runs) beside its floor, numpy dealing
the same deals (`deal_positions`), and two baselines measured in the same run: the same optimiser
called once per deal without the simulation's memo (fewer deals), and brute force over all 2^15
subsets of each deal (a handful of deals). The ratio to the floor is printed for each Online deck.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy  # noqa: E402,F401  (imported before the timings: the floor needs it as much as the simulation)
from _timing import interleaved_medians, ratio_line  # noqa: E402

from cardkit.decks import read_deck  # noqa: E402
from cardkit.games.squad_games.squads.budget import squad_rules  # noqa: E402
from cardkit.games.squad_games.squads.cards import squad_cards  # noqa: E402
from cardkit.games.squad_games.squads.deal_sim import deal_positions, simulate_deals  # noqa: E402
from cardkit.games.squad_games.squads.deal_table import deal_table  # noqa: E402
from cardkit.games.squad_games.squads.optimise import best_squad, brute_force_key  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DECKS = ["decks/berserk-online/steppe-mountains.deck", "decks/berserk-online/swamp-poison.deck.json",
         "decks/berserk-ccg/steppe-orcs.deck", "decks/berserk-ccg/mountain-gnomes.deck.json"]


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000, help="deals per deck for the simulation (default 10000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of simulation and floor, median (default 5)")
    parser.add_argument("--plain", type=int, default=1_000, help="deals for the un-memoised baseline (default 1000)")
    parser.add_argument("--brute", type=int, default=3, help="deals for the brute-force baseline (default 3)")
    args = parser.parse_args()
    print(f"{'deck':45} {'simulate':>12} {'floor':>12} {'no memo':>12} {'brute force':>12}   (deals/s)")
    ratios = []
    for rel in DECKS:
        deck = read_deck(ROOT / rel)
        rules = squad_rules(deck.format)
        table = squad_cards(deck.game)
        cards = [table[cid] for cid, n in deck.main.items() for _ in range(n)]

        def simulate(cards=cards, rules=rules) -> None:
            deal_table.cache_clear()  # every run builds its table of best squads, as one `cardkit simulate` does
            simulate_deals(cards, rules, args.deals, seed=1, jobs=1)

        def floor(cards=cards, rules=rules) -> None:
            for _ in deal_positions(len(cards), rules.deal_size, args.deals, 1):
                pass

        cpu: dict[str, float] = {}
        medians = interleaved_medians({"simulate": simulate, "floor": floor}, args.repeat, cpu=cpu)
        sim_seconds, floor_seconds = medians["simulate"], medians["floor"]
        sim = rate(args.deals, sim_seconds)
        if deck.game == "berserk-online":
            ratios.append(ratio_line(f"simulate Online {Path(rel).name}, {args.deals:,} deals, one process", sim_seconds,
                                     floor_seconds, "numpy dealing the same deals", goal=2))
            ratios.append(ratio_line(f"simulate Online {Path(rel).name}, {args.deals:,} deals, one process, CPU time",
                                     cpu["simulate"], cpu["floor"], "numpy dealing the same deals", goal=2))

        rng = random.Random(1)
        deals = [[cards[p] for p in rng.sample(range(len(cards)), rules.deal_size)] for _ in range(args.plain)]
        t0 = time.perf_counter()
        for deal in deals:
            best_squad(deal, rules, probe=rules.redeal_gold)
        plain = rate(len(deals), time.perf_counter() - t0)

        t0 = time.perf_counter()
        for deal in deals[: args.brute]:
            brute_force_key(deal, rules)
            brute_force_key(deal, rules, redeals=1)
        brute = rate(args.brute, time.perf_counter() - t0)
        print(f"{rel:45} {sim:12,.0f} {rate(args.deals, floor_seconds):12,.0f} {plain:12,.0f} {brute:12,.2f}")
    for line in ratios:
        print(line)


if __name__ == "__main__":
    main()
