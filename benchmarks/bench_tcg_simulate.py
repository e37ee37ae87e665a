"""Berserk TCG simulated openings: the vectorised simulator against its numpy-shuffle floor, the
one-game-at-a-time reference, and one core against every core.

    python benchmarks/bench_tcg_simulate.py [--repeat N] [--million-games N]

Runs 100,000 games x 6 turns of a 45-card deck, taking a city (2 cards drawn) on turns 2 and 4.
The floor is what any simulation of those games must do: numpy shuffling the same deck for the
same games (`opening.shuffles`, one block at a time as the simulator draws them). The reference
plays fewer games with the engine's own state, action and policy objects, and the two are
checked to agree within their intervals. Last, 1,000,000 games with `--jobs 1` and with every
core: the goal is at most 0.6 times the one-core time on two cores. As a shared machine may have
no idle core to give, the CPU seconds each process spends playing blocks are printed too: the
busiest worker's share of the one-core CPU time is what two idle cores would show.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from math import sqrt
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import interleaved_medians, ratio_line  # noqa: E402

import cardkit.games.berserk_tcg.opening.simulate as tcg_simulate  # noqa: E402
from cardkit.decks import read_deck  # noqa: E402
from cardkit.games.berserk_tcg.opening.cards import load_cards  # noqa: E402
from cardkit.games.berserk_tcg.opening.simulate import block_orders, simulate, simulate_reference  # noqa: E402
from cardkit.parallel import available_cores  # noqa: E402
from cardkit.simulation import SimulationOptions, run_blocks  # noqa: E402

DECK = Path(__file__).resolve().parent.parent / "tests" / "data" / "tcg" / "white-red.deck"  # 45 cards, 16 kinds
GAMES, REFERENCE_GAMES, TURNS = 100_000, 2_000, 6
TAKES = (2, 4)


WORKER_CPU: dict[int, float] = {}
"""CPU seconds each process spent playing blocks in the last run, by process id (filled by `_timed_blocks`)."""


def _timed(play: Callable[[Any], Any], block: Any) -> Any:
    start = time.process_time()
    result = play(block)
    result.cpu = (os.getpid(), time.process_time() - start)  # travels back with the block's tally
    return result


def _timed_blocks(play: Callable[[Any], Any], *args: Any, **kwargs: Any) -> list[Any]:
    """`run_blocks`, noting how much CPU time each process (the workers, or this one alone) spent on the blocks."""
    results = run_blocks(partial(_timed, play), *args, **kwargs)
    for r in results:
        pid, seconds = r.cpu
        WORKER_CPU[pid] = WORKER_CPU.get(pid, 0.0) + seconds
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--million-games", type=int, default=1_000_000, help="games of the one-core/every-core run")
    args = parser.parse_args()
    tcg_simulate.run_blocks = _timed_blocks  # type: ignore[assignment]  # the same blocks, their CPU time noted
    deck = read_deck(DECK)
    cards = load_cards()
    size = sum(n for cid, n in deck.main.items() if not cards[cid].is_city)
    print(f"deck {DECK.name}: {sum(deck.main.values())} cards, {len(deck.main)} kinds; {TURNS} turns; "
          f"cities taken on turns {', '.join(map(str, TAKES))}; {available_cores()} cores")

    def run(games: int, jobs: int | None, seed: int = 1) -> dict:
        return simulate(deck, SimulationOptions(games=games, turns=TURNS, seed=seed, takes=TAKES, jobs=jobs),
                        cards=cards).to_dict()

    def floor() -> None:
        for _ in block_orders(1, GAMES, size):
            pass

    run(1_000, 1)  # imports and the card table, outside the timings
    cpu: dict[str, float] = {}
    medians = interleaved_medians({"one core": lambda: run(GAMES, 1), "every core": lambda: run(GAMES, None),
                                   "floor": floor}, args.repeat, cpu=cpu)
    start = time.perf_counter()
    slow = simulate_reference(deck, SimulationOptions(games=REFERENCE_GAMES, turns=TURNS, seed=2, takes=TAKES),
                              cards=cards).to_dict()
    slow_rate = REFERENCE_GAMES / (time.perf_counter() - start)
    fast = run(GAMES, None)

    print(f"{GAMES:,} games (median of {args.repeat}):")
    print(f"  vectorised, one process    {medians['one core'] * 1000:8.0f} ms  {GAMES / medians['one core']:>10,.0f} games/s"
          f"  ({cpu['one core'] * 1000:.0f} ms CPU)")
    print(f"  vectorised, every core     {medians['every core'] * 1000:8.0f} ms  {GAMES / medians['every core']:>10,.0f} games/s")
    print(f"  floor: numpy shuffles      {medians['floor'] * 1000:8.0f} ms  ({cpu['floor'] * 1000:.0f} ms CPU)")
    print(f"  reference (per game)       {REFERENCE_GAMES:>7,} games  {slow_rate:>10,.0f} games/s")

    worst = 0.0
    for f, s in zip(fast["turns"], slow["turns"]):
        p = (f["p_any_open"] * GAMES + s["p_any_open"] * REFERENCE_GAMES) / (GAMES + REFERENCE_GAMES)
        sigma = sqrt(max(p * (1 - p), 1e-6) * (1 / GAMES + 1 / REFERENCE_GAMES))
        worst = max(worst, abs(f["p_any_open"] - s["p_any_open"]) / sigma)
    agree = worst <= 3.29  # 99.9% two-sample bound over six turns
    print(f"  agreement with the reference: {'OK' if agree else 'MISMATCH'} (largest z {worst:.2f}, bound 3.29)")

    million = args.million_games
    worker_cpu: dict[str, list[dict[int, float]]] = {"1": [], "all": []}

    def timed_run(jobs: int | None, key: str) -> None:
        WORKER_CPU.clear()
        run(million, jobs)
        worker_cpu[key].append(dict(WORKER_CPU))

    before = os.getloadavg()
    cores = interleaved_medians({"1": lambda: timed_run(1, "1"), "all": lambda: timed_run(None, "all")}, 3)
    print(f"{million:,} games (median of 3): --jobs 1 {cores['1']:.2f} s, every core ({available_cores()}) {cores['all']:.2f} s; "
          f"load average {before[0]:.1f} before, {os.getloadavg()[0]:.1f} after")
    one_cpu = statistics.median(sum(r.values()) for r in worker_cpu["1"])
    split = [sorted(r.values(), reverse=True) for r in worker_cpu["all"]]
    print(f"  CPU seconds playing blocks: --jobs 1 {one_cpu:.2f} s; every core, per process (median run): "
          + ", ".join(f"{s:.2f} s" for s in split[len(split) // 2])
          + f"; busiest process {statistics.median(s[0] for s in split) / one_cpu:.2f}x the one-core CPU "
          "(the wall-time ratio two idle cores would give, start-up and collection aside)")
    print(ratio_line("simulate TCG, 100,000 games, one process", medians["one core"], medians["floor"],
                     "numpy shuffles of the same games", goal=2))
    print(ratio_line("simulate TCG, 100,000 games, one process, CPU time", cpu["one core"], cpu["floor"],
                     "numpy shuffles of the same games", goal=2))
    print(ratio_line("simulate TCG, 100,000 games, every core", medians["every core"], medians["floor"],
                     "numpy shuffles of the same games", goal=2))
    print(ratio_line(f"simulate TCG, {million:,} games, every core", cores["all"], cores["1"], "--jobs 1", goal=0.6))
    print(ratio_line(f"simulate TCG, {million:,} games, busiest worker's CPU", statistics.median(s[0] for s in split),
                     one_cpu, "CPU of --jobs 1", goal=0.6))
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
