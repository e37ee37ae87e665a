"""Games per second of the fleet game's hand simulator, beside its numpy-shuffle floor and two baselines.

The floor is what any simulation of these games must do: numpy shuffling the standard deck for
the same games (`block_orders`, as the simulator draws them). The vectorised simulator plays whole
blocks of games as arrays; `simulate_reference` plays one game at a time with Python lists (the
simulator before it was vectorised); the naive baseline plays the same policy but asks `can_use`
about every card and ship at every decision, as one would write it first.
Run: python benchmarks/bench_berserker_hands.py [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import interleaved_medians, ratio_line  # noqa: E402

from cardkit.games.berserker.model import load_rules  # noqa: E402
from cardkit.games.berserker.simulate import DRAW, HAND_LIMIT, block_orders, simulate, simulate_reference  # noqa: E402
from cardkit.games.berserker.usage import can_use  # noqa: E402
from cardkit.simulation import SimulationOptions  # noqa: E402

GAMES = 20_000
TURNS = 6


def naive(deck: dict[str, int], games: int, turns: int, seed: int) -> dict[tuple[str, int, str, str], int]:
    """Same rules and policy, deciding with `can_use` calls on card objects every time."""
    rules = load_rules()
    sides = ("human", "berserker")
    fleets = {s: rules.ships_of(s) for s in sides}
    rng = random.Random(seed)
    seen: dict[tuple[str, int, str, str], int] = {}

    def uses(card, side):
        return {(ship.id, card.type) for ship in fleets[side] if can_use(card, ship, rules).allowed}

    for _ in range(games):
        library = [rules.cards[c] for c in deck for _ in range(deck[c])]
        rng.shuffle(library)
        discard, hands = [], {s: [] for s in sides}
        for turn in range(1, turns + 1):
            for side in sides:
                other = sides[1 - sides.index(side)]
                hand = hands[side]
                for _ in range(DRAW):
                    if not library:
                        library, discard = discard, []
                        rng.shuffle(library)
                    hand.append(library.pop())
                kept, covered = [], set()
                while len(hand) > 0 and len(kept) < HAND_LIMIT:
                    best = max(hand, key=lambda c: (len(uses(c, side) - covered), len(uses(c, side)), c.value or 0))
                    hand.remove(best)
                    kept.append(best)
                    covered |= uses(best, side)
                discard.extend(hand)
                hand = kept
                for ship_id, need in covered:
                    key = (side, turn, ship_id, need)
                    seen[key] = seen.get(key, 0) + 1
                # one Move card per ship that can use it, matched by augmenting paths
                moves = sorted((c for c in hand if c.type == "move" and uses(c, side)),
                               key=lambda c: (len(uses(c, side)), -(c.value or 0)))
                ships = [ship for ship in fleets[side] for _ in range(ship.count)]
                owner: dict[int, int] = {}

                def place(i, seen, ships=ships, moves=moves, owner=owner):
                    for n, ship in enumerate(ships):
                        if n not in seen and can_use(moves[i], ship, rules).allowed:
                            seen.add(n)
                            if n not in owner or place(owner[n], seen):
                                owner[n] = i
                                return True
                    return False

                for i in range(len(moves)):
                    place(i, set())
                for i in sorted(owner.values()):
                    hand.remove(moves[i])
                    discard.append(moves[i])
                capacity = sum(s.count * s.attacks_per_turn for s in fleets[side])
                attacks = sorted((c for c in hand if c.type == "attack" and uses(c, side)),
                                 key=lambda c: (len(uses(c, side)), -(c.value or 0)))[:capacity]
                for a in attacks:
                    hand.remove(a)
                    discard.append(a)
                    for d in hands[other]:
                        if d.type == "defense" and uses(d, other) and (
                                d.restriction.against is None or a.id in d.restriction.against):
                            hands[other].remove(d)
                            discard.append(d)
                            break
                hands[side] = hand
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    deck = {cid: card.count for cid, card in load_rules().cards.items()}
    size = sum(deck.values())
    simulate(deck, SimulationOptions(games=100, turns=TURNS, seed=1, jobs=1))  # warm the catalogue and imports

    def floor() -> None:
        for _ in block_orders(1, GAMES, size):
            pass

    cpu: dict[str, float] = {}
    medians = interleaved_medians({
        "one": lambda: simulate(deck, SimulationOptions(games=GAMES, turns=TURNS, seed=1, jobs=1)),
        "every": lambda: simulate(deck, SimulationOptions(games=GAMES, turns=TURNS, seed=1)),
        "floor": floor,
    }, repeat, cpu=cpu)
    base_games = GAMES // 10
    t0 = time.perf_counter()
    simulate_reference(deck, SimulationOptions(games=base_games, turns=TURNS, seed=1))
    reference = base_games / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    naive(deck, base_games, TURNS, 1)
    slow = base_games / (time.perf_counter() - t0)
    print(f"fleet hands, {TURNS} rounds, both players, standard {size}-card deck, {GAMES:,} games (median of {repeat})")
    print(f"  simulate(), one process:   {GAMES / medians['one']:10,.0f} games/s  ({medians['one'] * 1000:.0f} ms, "
          f"{cpu['one'] * 1000:.0f} ms CPU)")
    print(f"  simulate(), every core:    {GAMES / medians['every']:10,.0f} games/s  ({medians['every'] * 1000:.0f} ms)")
    print(f"  floor: numpy shuffles      {medians['floor'] * 1000:10.0f} ms  ({cpu['floor'] * 1000:.0f} ms CPU)")
    print(f"  reference, one game a time:{reference:10,.0f} games/s ({base_games:,} games)")
    print(f"  naive baseline:            {slow:10,.0f} games/s ({base_games:,} games)")
    print(ratio_line(f"simulate Berserker, {GAMES:,} games, one process", medians["one"], medians["floor"],
                     "numpy shuffles of the same games", goal=2))
    print(ratio_line(f"simulate Berserker, {GAMES:,} games, one process, CPU time", cpu["one"], cpu["floor"],
                     "numpy shuffles of the same games", goal=2))
    print(ratio_line(f"simulate Berserker, {GAMES:,} games, every core", medians["every"], medians["floor"],
                     "numpy shuffles of the same games", goal=2))


if __name__ == "__main__":
    main()
