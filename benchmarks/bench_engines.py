"""The engines' commands (`battle|tcg|fleet moves` and `apply`) against the floor of their state file.

    python benchmarks/bench_engines.py [--repeat N]

Each command runs as a user runs it, a new process from start to exit. Its floor is a new process
of the same Python that does the least such a command must: `json.load` the state file and
`json.dump` it again (`python -c`). The states are the ones the docs' sessions start from (a
Berserk Online battle of two placements, a seeded TCG game of two bundled decks, a fleet game in
sandbox mode), the actions those sessions apply. Medians of N interleaved runs, of the wall time
and of the CPU time (user + system) of each new process, which moves less with the load of a shared
machine. The issue's goal: every command within 3x its floor.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import interleaved_medians, ratio_line  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARDKIT = [sys.executable, "-c", "from cardkit.cli.main import main; main()"]
FLOOR = [sys.executable, "-c", "import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], 'w'))"]

SETUP = {
    "battle": ["battle", "new", "squads/online-battle-first.json", "squads/online-battle-second.json"],
    "tcg": ["tcg", "new", "decks/berserk-tcg/white-hawks.deck", "decks/berserk-tcg/red-apostles.deck", "--seed", "1"],
    "fleet": ["fleet", "new", "decks/berserker/fleets/human-ram-screen.fleet.json",
              "decks/berserker/fleets/berserker-centre.fleet.json", "--sandbox"],
}
ACTIONS = {
    "battle": ["attack c3 c4 dice 6 1", "shoot c1 c6 2", "counters b2 +3", "pay b2 2", "end"],
    "tcg": ["open BK1-001 pay BK1-007", "attack c3 with BK1-001", "end"],
    "fleet": ["move d2 d6 card very-fast", "end", "end", "move d6 d7 card tactical-speed",
              "fire d7 d8 card marines defend robot-security"],
}


CPU: dict[str, list[float]] = {}


def run(args: list[str], job: str = "") -> None:
    """Run `args` to the end; with `job`, note the CPU seconds (user + system) the process took under that name."""
    process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, args)
    if job:
        CPU.setdefault(job, []).append(usage.ru_utime + usage.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        jobs = {}
        for engine, setup in SETUP.items():
            state, after = folder / f"{engine}.json", folder / f"{engine}-after.json"
            run(CARDKIT + setup + ["--out", str(state)])
            jobs[f"{engine} moves"] = lambda s=state, e=engine: run(CARDKIT + [s.stem, "moves", str(s)], f"{e} moves")
            jobs[f"{engine} apply"] = lambda e=engine, s=state, a=after: run(
                CARDKIT + [e, "apply", str(s), *ACTIONS[e], "--out", str(a)], f"{e} apply")
            jobs[f"{engine} floor"] = lambda s=state, e=engine: run(FLOOR + [str(s), str(folder / "floor.json")], f"{e} floor")
        medians = interleaved_medians(jobs, repeat)
        print(f"engine commands, each a new process (median of {repeat}):")
        for engine in SETUP:
            floor = medians[f"{engine} floor"]
            print(f"  {engine:7} moves {medians[f'{engine} moves'] * 1000:7.0f} ms   "
                  f"apply ({len(ACTIONS[engine])} actions) {medians[f'{engine} apply'] * 1000:7.0f} ms   "
                  f"floor: load + dump of the state {floor * 1000:5.0f} ms")
        cpu = {job: statistics.median(seconds) for job, seconds in CPU.items()}
        print(f"the same, CPU time (user + system) of each process (median of {repeat}):")
        for engine in SETUP:
            print(f"  {engine:7} moves {cpu[f'{engine} moves'] * 1000:7.0f} ms   "
                  f"apply ({len(ACTIONS[engine])} actions) {cpu[f'{engine} apply'] * 1000:7.0f} ms   "
                  f"floor: load + dump of the state {cpu[f'{engine} floor'] * 1000:5.0f} ms")
        for engine in SETUP:
            for command in ("moves", "apply"):
                print(ratio_line(f"{engine} {command}", medians[f"{engine} {command}"], medians[f"{engine} floor"],
                                 "json load + dump of its state (new process each)", goal=3))
                print(ratio_line(f"{engine} {command}, CPU time", cpu[f"{engine} {command}"], cpu[f"{engine} floor"],
                                 "the floor's CPU time", goal=3))


if __name__ == "__main__":
    main()
