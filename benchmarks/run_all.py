"""Run every benchmark in one go and gather the ratios each prints against its floor.

    python benchmarks/run_all.py [--skip serve] [--only build,engines]

Each `bench_*.py` runs in turn, as its own process, and its output is shown as it comes. At the
end the `RATIO` lines of all of them are listed together, headed by the conditions of the run (the
machine's cores and load average before and after), since absolute times move with the load of a
shared machine while ratios measured in the same run move much less. Exits 1 if a benchmark failed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import RATIO_PREFIX  # noqa: E402

HERE = Path(__file__).resolve().parent


def load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip", default="", help="comma list of benchmark names to leave out (serve, build, ...)")
    parser.add_argument("--only", default="", help="comma list of the only benchmarks to run")
    args = parser.parse_args()
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    scripts = [p for p in sorted(HERE.glob("bench_*.py"))
               if p.stem[len("bench_"):] not in skip and (not only or p.stem[len("bench_"):] in only)]
    started = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    before = load()
    ratios: list[tuple[str, str]] = []
    failed: list[str] = []
    began = time.perf_counter()
    for script in scripts:
        print(f"== {script.name}", flush=True)
        proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=HERE.parent)
        assert proc.stdout is not None
        for line in proc.stdout:
            print(line, end="", flush=True)
            if line.startswith(RATIO_PREFIX):
                ratios.append((script.name, line[len(RATIO_PREFIX):].strip()))
        if proc.wait() != 0:
            failed.append(script.name)
    print()
    print(f"{len(scripts)} benchmarks, started {started}, {time.perf_counter() - began:.0f} s; "
          f"{os.cpu_count()} cores; load average (1, 5, 15 min) {before} before, {load()} after")
    for name, text in ratios:
        print(f"  {name:28} {text}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
