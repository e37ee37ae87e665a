"""Run every benchmark in one go and gather the ratios each prints against its floor.

    python benchmarks/run_all.py [--skip serve] [--only build,engines] [--rounds 3]

Each `bench_*.py` runs in turn, as its own process, and its output is shown as it comes. At the
end the `RATIO` lines of all of them are listed together, headed by the conditions of the run (the
machine's cores and load average before and after), since absolute times move with the load of a
shared machine while ratios measured in the same run move much less. With `--rounds N` every
benchmark runs N times, round after round, and each ratio is listed as the median of its rounds
(the lowest and highest beside it), its goal judged on the median: on a virtual machine a ratio
can move by a tenth or more from one round to the next. Exits 1 if a benchmark failed.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import RATIO_PREFIX  # noqa: E402

HERE = Path(__file__).resolve().parent


def load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


RATIO_TEXT = re.compile(r"(?P<what>.*?): (?P<ratio>[0-9.]+)x (?P<floor>.*?)"
                        r"(?:, goal (?P<op><=|>=) (?P<goal>[0-9.]+)x: (?:met|NOT met))?(?:;.*)?")


def medians(ratios: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """One line per ratio, in first-seen order: the median of its rounds, the lowest and highest, and its goal
    judged on the median."""
    rounds: dict[tuple[str, str], list[float]] = {}
    first: dict[tuple[str, str], re.Match[str]] = {}
    for name, text in ratios:
        found = RATIO_TEXT.fullmatch(text)
        if found is None:
            continue
        key = (name, found["what"])
        first.setdefault(key, found)
        rounds.setdefault(key, []).append(float(found["ratio"]))
    lines = []
    for key, values in rounds.items():
        found, median = first[key], statistics.median(values)
        verdict = ""
        if found["goal"] is not None:
            goal = float(found["goal"])
            met = median <= goal if found["op"] == "<=" else median >= goal
            verdict = f", goal {found['op']} {found['goal']}x: {'met' if met else 'NOT met'}"
        lines.append((key[0], f"{found['what']}: {median:.2f}x {found['floor']}{verdict}"
                              f" (median of {len(values)}; {min(values):.2f} to {max(values):.2f})"))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip", default="", help="comma list of benchmark names to leave out (serve, build, ...)")
    parser.add_argument("--only", default="", help="comma list of the only benchmarks to run")
    parser.add_argument("--rounds", type=int, default=1, help="times to run every benchmark; ratios are "
                                                              "then the median of the rounds (default 1)")
    args = parser.parse_args()
    if not 1 <= args.rounds <= 20:
        parser.error(f"--rounds must be between 1 and 20; got {args.rounds}")
    known = [p.stem[len("bench_"):] for p in sorted(HERE.glob("bench_*.py"))]

    def names(text: str, option: str) -> set[str]:
        # NAME, bench_NAME and bench_NAME.py all name one benchmark; a name that is none of them is refused.
        given = {n.strip().removesuffix(".py").removeprefix("bench_") for n in text.split(",") if n.strip()}
        unknown = sorted(given - set(known))
        if unknown:
            parser.error(f"{option}: no benchmark named {', '.join(unknown)}; the benchmarks are {', '.join(known)}")
        return given

    skip, only = names(args.skip, "--skip"), names(args.only, "--only")
    scripts = [HERE / f"bench_{name}.py" for name in known if name not in skip and (not only or name in only)]
    if not scripts:
        parser.error("--only and --skip leave no benchmark to run")
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    before = load()
    ratios: list[tuple[str, str]] = []
    failed: list[str] = []
    began = time.perf_counter()
    for script in [script for _ in range(args.rounds) for script in scripts]:
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
    rounds = f" in {args.rounds} rounds" if args.rounds > 1 else ""
    print(f"{len(scripts)} benchmarks{rounds}, started {started}, {time.perf_counter() - began:.0f} s; "
          f"{os.cpu_count()} cores; load average (1, 5, 15 min) {before} before, {load()} after")
    for name, text in (ratios if args.rounds == 1 else medians(ratios)):
        print(f"  {name:28} {text}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
