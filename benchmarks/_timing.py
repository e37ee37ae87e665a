"""Shared by the benchmarks: a process's cost, interleaved medians, and one line per ratio that `run_all.py` collects.

The machine a benchmark runs on may be shared, so absolute times move with its load; every figure is
therefore printed beside a floor timed in the same run, the two interleaved (ours, floor, ours, floor,
...) so that a burst of load falls on both, and each taken as the median of several runs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

RATIO_PREFIX = "RATIO"


class ProcessCost(NamedTuple):
    wall: float
    """Seconds from start to exit."""
    cpu: float
    """CPU seconds, user and system, of the process itself."""
    peak_kib: int
    """Its peak resident memory, in KiB."""


def process_cost(args: list[str], cwd: Path, env: dict[str, str] | None = None, check: bool = True) -> ProcessCost:
    """Run `args` to the end and say what it cost; with `check`, a failed run stops the benchmark with its stderr."""
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        if check and code != 0:
            err.seek(0)
            raise SystemExit(f"error: {' '.join(args)} exited {code}: {err.read().decode(errors='replace')}")
    return ProcessCost(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


def interleaved_medians(jobs: dict[str, Callable[[], object]], repeat: int,
                        clock: Callable[[], float] = time.perf_counter,
                        cpu: dict[str, float] | None = None) -> dict[str, float]:
    """Median seconds of each job over `repeat` rounds, every round running each job once in turn.

    `clock` may be `time.process_time` for jobs that run in this one process: on a shared machine the
    CPU time they take moves less with the load than the time they wait. Given a dict as `cpu`, it
    is filled with each job's median CPU seconds of this process as well (worker processes not
    included), beside the `clock` medians returned.
    """
    times: dict[str, list[float]] = {name: [] for name in jobs}
    cpus: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(repeat):
        for name, job in jobs.items():
            start, start_cpu = clock(), time.process_time()
            job()
            times[name].append(clock() - start)
            cpus[name].append(time.process_time() - start_cpu)
    if cpu is not None:
        cpu.update({name: statistics.median(ts) for name, ts in cpus.items()})
    return {name: statistics.median(ts) for name, ts in times.items()}


def ratio_line(what: str, ours: float, floor: float, floor_name: str, goal: float | None = None,
               higher_is_better: bool = False) -> str:
    """`RATIO what: 1.84x the floor (floor name), goal <= 3x: met`; `run_all.py` gathers these lines.

    `ours` and `floor` are seconds (or, with `higher_is_better`, rates such as requests per second).
    """
    ratio = ours / floor
    if goal is None:
        verdict = ""
    elif higher_is_better:
        verdict = f", goal >= {goal:g}x: {'met' if ratio >= goal else 'NOT met'}"
    else:
        verdict = f", goal <= {goal:g}x: {'met' if ratio <= goal else 'NOT met'}"
    return f"{RATIO_PREFIX} {what}: {ratio:.2f}x {floor_name}{verdict}"
