"""The engines' commands (`battle|tcg|fleet moves` and `apply`) against the floor of their state file.

    python benchmarks/bench_engines.py [--repeat N]

Each command runs as a user runs it, a new process from start to exit. Its floor is a new process
of the same Python that does the least such a command must: `json.load` the state file and
`json.dump` it again (`python -c`). The states are the ones the docs' sessions start from (a
Berserk Online battle of two placements, a seeded TCG game of two bundled decks, a fleet game in
sandbox mode), the actions those sessions apply. Medians of N interleaved runs, of the wall time
and of the CPU time (user + system) of each new process, which moves less with the load of a shared
machine. The budget: every command within 5x its floor (benchmarks/bench_startup.py checks it too).

Both ways Python may start, in one run: as this environment has it (a machine that sets
PYTHONDONTWRITEBYTECODE compiles cardkit's modules in every process), and with bytecode kept, as an
install from a wheel leaves it: cardkit and the floor alike given a fresh PYTHONPYCACHEPREFIX
directory, each job run once untimed to fill it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _engine_inputs import ACTIONS, CARDKIT, JSON_FLOOR, SETUP  # noqa: E402
from _timing import interleaved_medians, process_cost, ratio_line  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent



CPU: dict[str, list[float]] = {}


def run(args: list[str], job: str = "", env: dict[str, str] | None = None) -> None:
    """Run `args` to the end; with `job`, note the CPU seconds (user + system) the process took under that name."""
    cost = process_cost(args, ROOT, env)
    if job:
        CPU.setdefault(job, []).append(cost.cpu)


def environments(cache: Path) -> dict[str, dict[str, str]]:
    """The two ways a process starts: this environment as it is, and with bytecode kept in `cache`."""
    kept = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    kept["PYTHONPYCACHEPREFIX"] = str(cache)
    written = "not written" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "as this environment keeps it"
    return {f"bytecode {written}": dict(os.environ), "bytecode kept": kept}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        jobs = {}
        ways = environments(folder / "pycache")
        for engine, setup in SETUP.items():
            state, after = folder / f"{engine}.json", folder / f"{engine}-after.json"
            run(CARDKIT + setup + ["--out", str(state)])
            for way, env in ways.items():
                moves = CARDKIT + [engine, "moves", str(state)]
                apply = CARDKIT + [engine, "apply", str(state), *ACTIONS[engine], "--out", str(after)]
                floor = JSON_FLOOR + [str(state), str(folder / "floor.json")]
                for name, args in (("moves", moves), ("apply", apply), ("floor", floor)):
                    job = f"{engine} {name}, {way}"
                    run(args, env=env)  # filling the bytecode cache, where it is kept
                    jobs[job] = lambda a=args, j=job, e=env: run(a, j, e)
        medians = interleaved_medians(jobs, repeat)
        cpu = {job: statistics.median(seconds) for job, seconds in CPU.items()}
        for way in ways:
            print(f"engine commands, each a new process, {way} (median of {repeat}):")
            for engine in SETUP:
                print(f"  {engine:7} moves {medians[f'{engine} moves, {way}'] * 1000:7.0f} ms   "
                      f"apply ({len(ACTIONS[engine])} actions) {medians[f'{engine} apply, {way}'] * 1000:7.0f} ms   "
                      f"floor: load + dump of the state {medians[f'{engine} floor, {way}'] * 1000:5.0f} ms")
            print(f"the same, CPU time (user + system) of each process (median of {repeat}):")
            for engine in SETUP:
                print(f"  {engine:7} moves {cpu[f'{engine} moves, {way}'] * 1000:7.0f} ms   "
                      f"apply ({len(ACTIONS[engine])} actions) {cpu[f'{engine} apply, {way}'] * 1000:7.0f} ms   "
                      f"floor: load + dump of the state {cpu[f'{engine} floor, {way}'] * 1000:5.0f} ms")
        for way in ways:
            for engine in SETUP:
                floor = f"{engine} floor, {way}"
                for command in ("moves", "apply"):
                    job = f"{engine} {command}, {way}"
                    print(ratio_line(job, medians[job], medians[floor],
                                     "json load + dump of its state (new process each)", goal=5))
                    print(ratio_line(f"{job}, CPU time", cpu[job], cpu[floor], "the floor's CPU time", goal=5))


if __name__ == "__main__":
    main()
