"""Games per second of the fleet game's hand simulator, beside a naive baseline.

The baseline plays the same policy but asks `can_use` about every card and
ship at every decision, as one would write it first; the simulator looks the
answers up in per-side bitmasks built once. Run: python benchmarks/bench_berserker_hands.py
"""

from __future__ import annotations

import random
import time

from cardkit.games.berserker.model import load_rules
from cardkit.games.berserker.simulate import DRAW, HAND_LIMIT, simulate
from cardkit.games.berserker.usage import can_use
from cardkit.simulation import SimulationOptions

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

                def place(i, seen):
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
    deck = {cid: card.count for cid, card in load_rules().cards.items()}
    options = SimulationOptions(games=GAMES, turns=TURNS, seed=1)
    simulate(deck, SimulationOptions(games=100, turns=TURNS, seed=1))  # warm the catalogue and imports
    t0 = time.perf_counter()
    simulate(deck, options)
    fast = GAMES / (time.perf_counter() - t0)
    base_games = GAMES // 10
    t0 = time.perf_counter()
    naive(deck, base_games, TURNS, 1)
    slow = base_games / (time.perf_counter() - t0)
    print(f"fleet hands, {TURNS} rounds, both players, standard 56-card deck")
    print(f"  simulate():        {fast:10,.0f} games/s ({GAMES:,} games)")
    print(f"  naive baseline:    {slow:10,.0f} games/s ({base_games:,} games)")
    print(f"  speed-up:          {fast / slow:10.1f}x")


if __name__ == "__main__":
    main()
