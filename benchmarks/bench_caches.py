"""What each cache of the cache folder saves on the commands users run often, cold, warm and switched off.

    python benchmarks/bench_caches.py [--repeat N]

cardkit keeps two caches in its cache folder: `checked/`, the content of each catalogue, format and
battle data file that passed its schema (`cardkit/checkcache.py`), and `compiled/`, fastjsonschema's
code for the state, squad and placement schemas (`cardkit/fastschema.py`) and the table statements
of the database (`cardkit/db/build.py`). A cache stays only if it saves at least a third of a
command users run often, so each command runs, each time as a new process:

- warm: with the cache folder a run before it filled;
- cold: with a new, empty cache folder (a first run: everything is checked, compiled and noted);
- with one cache switched off: a cache folder where that cache's folder is a plain file, which cardkit
  neither reads nor writes (`checkcache.notes_folder`), so every run does that cache's work.

The floors beside them: `python -c pass` (the budget of `validate`: at most 6x) and a Python start
that reads and writes an engine's state file as JSON (the budget of the engines' commands: at most
5x). Bytecode is kept (PYTHONPYCACHEPREFIX, filled by a first run), as an install leaves it. CPU time
(user + system) of each process, which moves less with a shared machine's load than wall time, and
wall time, medians of N interleaved runs.
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

from _engine_inputs import ACTIONS, CARDKIT, JSON_FLOOR, SETUP  # noqa: E402
from _timing import process_cost, ratio_line  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CACHES = {"checked": "schema-check notes", "compiled": "compiled schemas and table statements"}
# What each cache is kept for: its notes, and the commands that read them.
SERVES = [("checked", "schema-check notes", ("validate DECK", "build --out X", "squad check", "battle moves",
                                             "battle apply")),
          ("compiled", "table statements", ("build --out X",)),
          ("compiled", "compiled schemas", ("squad check", "battle moves", "battle apply", "tcg moves", "tcg apply",
                                            "fleet moves", "fleet apply"))]


def run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one process running `args` to the end."""
    cost = process_cost(args, ROOT, env)
    return cost.wall, cost.cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CARDKIT_DB")}
        base["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
        setup_env = {**base, "CARDKIT_CACHE_DIR": str(folder / "setup")}
        for engine, args in SETUP.items():
            subprocess.run([*CARDKIT, *args, "--out", str(folder / f"{engine}.json")], cwd=ROOT, env=setup_env,
                           check=True, capture_output=True)
        floors = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "json load + dump of a state": [*JSON_FLOOR, str(folder / "battle.json"), str(folder / "floor.json")],
        }
        commands = {"validate DECK": ["validate", "decks/berserk-tcg/white-hawks.deck"],
                    "build --out X": ["build", "--out", str(folder / "built.db")],
                    "squad check": ["squad", "check", "squads/online-deal.json"]}
        for engine in SETUP:
            state = str(folder / f"{engine}.json")
            commands[f"{engine} moves"] = [engine, "moves", state]
            after = str(folder / f"{engine}-after.json")
            commands[f"{engine} apply"] = [engine, "apply", state, *ACTIONS[engine], "--out", after]
        ways = ["warm", "cold", *(f"{cache} off" for cache in CACHES)]
        for cache in CACHES:
            (folder / f"{cache} off").mkdir()
            (folder / f"{cache} off" / cache).write_text("switched off\n", encoding="utf-8")
        fresh = iter(range(1_000_000))

        def env(way: str) -> dict[str, str]:
            cache = folder / f"cold-{next(fresh)}" if way == "cold" else folder / way
            return {**base, "CARDKIT_CACHE_DIR": str(cache)}

        jobs = [(name, "", args) for name, args in floors.items()]
        jobs += [(name, way, [*CARDKIT, *args]) for name, args in commands.items() for way in ways]
        for _name, way, args in jobs:
            run(args, env(way))  # bytecode, and the warm cache
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(repeat):
            for name, way, args in jobs:
                times.setdefault((name, way), []).append(run(args, env(way)))
        wall = {key: statistics.median(t[0] for t in values) for key, values in times.items()}
        cpu = {key: statistics.median(t[1] for t in values) for key, values in times.items()}

    print(f"each command a new process, CPU ms (wall ms), median of {repeat}:")
    print(f"  {'':22}" + "".join(f"{way:>20}" for way in ways))
    for name in floors:
        print(f"  {name:22}{cpu[(name, '')] * 1000:>12.0f} ({wall[(name, '')] * 1000:4.0f})")
    for name in commands:
        print(f"  {name:22}" + "".join(f"{cpu[(name, way)] * 1000:>12.0f} ({wall[(name, way)] * 1000:4.0f})"
                                       for way in ways))
    for cache, what in CACHES.items():
        saved = {name: 1 - cpu[(name, "warm")] / cpu[(name, f"{cache} off")] for name in commands}
        print(f"{cache}/ ({what}) saves, warm against switched off: "
              + ", ".join(f"{name} {share:.0%}" for name, share in saved.items()))
    for cache, what, served in SERVES:
        # The rule: a cache stays if it saves at least a third of one command users run often.
        best = min(served, key=lambda name: cpu[(name, "warm")] / cpu[(name, f"{cache} off")])
        print(ratio_line(f"{what} ({cache}/): {best}, warm", cpu[(best, "warm")], cpu[(best, f"{cache} off")],
                         f"the same with {cache}/ switched off (CPU time)", goal=0.67))
    print(ratio_line("validate DECK, warm", wall[("validate DECK", "warm")], wall[("python -c pass", "")],
                     "python -c pass (wall time)", goal=6))
    for engine in SETUP:
        for command in ("moves", "apply"):
            name = f"{engine} {command}"
            print(ratio_line(f"{name}, warm", wall[(name, "warm")], wall[("json load + dump of a state", "")],
                             "a Python start that loads and dumps the state as JSON (wall time)", goal=5))


if __name__ == "__main__":
    main()
