"""Start-up time of short cardkit commands beside a bare `python -c pass`, in the same run.

    python benchmarks/bench_startup.py [--repeat N]

Each case is a fresh process of this interpreter (cardkit through its console
script beside it, else `python -m cardkit`), run N times; the rounds are
interleaved (every case once, then again) so the machine's load falls on all
cases alike. Figures are median wall times and their ratio to `python -c pass`.
One warm-up round first writes the bytecode caches, as installing a package
does, even where PYTHONDONTWRITEBYTECODE is set. The goals: `validate` within
4x of a bare interpreter start, `--help` within 5x.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECK = "decks/berserk-tcg/white-hawks.deck"
BASELINE = "python -c pass"
# The console script beside this interpreter, as a user runs it; `python -m cardkit` where there is none.
SCRIPT = Path(sys.executable).with_name("cardkit")
CARDKIT = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "cardkit"]
CASES: dict[str, list[str]] = {
    BASELINE: [sys.executable, "-c", "pass"],
    "library: validate_files([DECK])": [sys.executable, "-c", f"from cardkit.decks.report import validate_files; validate_files([{DECK!r}])"],
    "cardkit validate DECK": [*CARDKIT, "validate", DECK],
    "cardkit --help": [*CARDKIT, "--help"],
    "cardkit --version": [*CARDKIT, "--version"],
    "cardkit deck hash DECK": [*CARDKIT, "deck", "hash", DECK],
    "cardkit squad check SQUAD": [*CARDKIT, "squad", "check", "squads/online-deal.json"],
}
GOALS = {"cardkit validate DECK": 4.0, "cardkit --help": 5.0}


def run(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, timeout=120)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(args)} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    repeat = parser.parse_args().repeat
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for name, args in CASES.items():
        run(args, env)
    for _ in range(repeat):
        for name, args in CASES.items():
            times[name].append(run(args, env))
    base = statistics.median(times[BASELINE])
    print(f"start-up, median wall time of {repeat} interleaved runs each ({' '.join(CARDKIT)}):")
    for name, ts in times.items():
        median = statistics.median(ts)
        goal = GOALS.get(name)
        verdict = f"  (goal {goal:.0f}x: {'met' if median / base <= goal else 'NOT met'})" if goal else ""
        print(f"  {name:34} {median * 1000:7.1f} ms  {median / base:4.1f}x{verdict}")


if __name__ == "__main__":
    main()
