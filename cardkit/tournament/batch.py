"""Checking many independent submissions over the machine's cores, in order, with progress.

Each deck is read and judged on its own, so a big event is split into chunks that
worker processes check while this one collects the results in the input's order.
Workers are forked after the first decks are checked here, so they start with the
catalogue, name index and format already loaded. Small batches, machines with one
core and systems without `fork` are checked in this process, with the same results.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[int, int], None]
"""Called with (items done so far, items in all)."""

PARALLEL_FROM = 400
"""Below this many submissions, starting workers costs more than it saves."""
WARM_UP = 24
"""Submissions checked here before forking, so every worker inherits the loaded catalogue."""
CHUNK = 96
"""Submissions per task: big enough that sending results back is a small part, small enough for a live bar."""


def available_cores() -> int:
    """The cores this process may run on (fewer than the machine's under a CPU affinity mask)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _quiet_worker() -> None:
    # Ctrl-C reaches the whole process group; the parent says `interrupted`, workers must not print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk(check: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [check(item) for item in chunk]


def check_all(check: Callable[[T], R], items: Sequence[T], progress: Progress | None = None,
              jobs: int | None = None) -> list[R]:
    """`[check(item) for item in items]`, over `jobs` processes (default: every core) when the batch is big.

    `check` must be picklable (a module-level function or a `functools.partial` of one)
    and must not raise for a bad item: it turns a bad file into a result.
    """
    total = len(items)
    jobs = available_cores() if jobs is None else jobs
    results: list[R] = []

    def serial(stop: int = total) -> list[R]:
        """Check here, from the first item without a result up to `stop`."""
        for item in items[len(results):stop]:
            results.append(check(item))
            if progress is not None:
                progress(len(results), total)
        return results

    if jobs < 2 or total < PARALLEL_FROM or "fork" not in multiprocessing.get_all_start_methods():
        return serial()
    serial(min(WARM_UP, total))
    try:
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_quiet_worker)
    except (OSError, ValueError):
        return serial()
    try:
        futures: list[Future[list[R]]] = [pool.submit(_run_chunk, check, items[i:i + CHUNK])
                                          for i in range(len(results), total, CHUNK)]
        for future in futures:
            results.extend(future.result())
            if progress is not None:
                progress(len(results), total)
    except (BrokenProcessPool, OSError):
        # A worker killed from outside (out of memory, a signal): finish here rather than lose the batch.
        # Results arrive a whole chunk at a time, so those kept are complete and in order.
        pool.shutdown(wait=False, cancel_futures=True)
        return serial()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results
