"""One function applied to many independent items over the machine's cores, results in the items' order.

Used by `tournament check` (a deck per item) and `simulate` (a block of games per item). Workers
are forked, so they start with whatever this process has loaded. One core, a one-item batch and
systems without `fork` run here, with the same results; so does the rest of a batch whose worker
was killed from outside. No worker outlives its parent (`watch_parent`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[int, int], None]
"""Called with (items done so far, items in all)."""


def available_cores() -> int:
    """The cores this process may run on (fewer than the machine's under a CPU affinity mask)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# How often a worker looks whether its parent is still there: the longest a worker outlives it.
PARENT_CHECK_SECONDS = 0.25


def watch_parent(parent: int) -> None:
    """End this (worker) process as soon as `parent` is no longer its parent.

    A parent killed outright (SIGKILL, or SIGTERM and SIGHUP with no handler) never tells its pool's
    workers; they would go on holding its stdout (`tournament check BIG | wc -c` never ends), a
    pipe's other end, and their memory. `parent` is the pid taken before the worker started, so a
    parent already gone when it starts is seen too. The check runs in a thread, so a worker in the
    middle of long work ends too."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="cardkit-parent-watch", daemon=True).start()


def worker_start(parent: int) -> None:
    """Each pool worker's initializer: it ignores Ctrl-C and ends with its parent."""
    # Ctrl-C reaches the whole process group; the parent says `interrupted` (or the server answers the
    # request and stops), so workers must not print tracebacks nor fail the work they hold.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch_parent(parent)


def _run_chunk(work: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [work(item) for item in chunk]


def ordered_map(work: Callable[[T], R], items: Sequence[T], progress: Progress | None = None,
                jobs: int | None = None, *, parallel_from: int = 2, warm_up: int = 0, chunk: int = 1,
                here_too: bool = False) -> list[R]:
    """`[work(item) for item in items]`, over `jobs` processes (default: every core) from `parallel_from` items on.

    The first `warm_up` items are done here before forking (workers inherit what they loaded);
    workers take `chunk` items per task. With `here_too`, `jobs` counts this process: it starts
    `jobs - 1` workers and, rather than only wait, does the tasks no worker has taken yet, from the
    last one back (each result a worker sends back is pickled and unpickled, and each worker starts
    with cold caches: a worker fewer spares both for the share done here). `progress` is told after
    the warm-up and after each task, with the items done so far. `work` must be picklable (a module-level function
    or a `functools.partial` of one); an exception it raises in a worker is raised here.
    """
    total = len(items)
    jobs = available_cores() if jobs is None else jobs
    results: list[R] = []

    def serial(stop: int = total) -> list[R]:
        """Work here, from the first item without a result up to `stop`."""
        for item in items[len(results):stop]:
            results.append(work(item))
            if progress is not None:
                progress(len(results), total)
        return results

    if jobs < 2 or total < max(2, parallel_from) or "fork" not in multiprocessing.get_all_start_methods():
        return serial()
    serial(min(warm_up, total))
    try:
        pool = ProcessPoolExecutor(max_workers=jobs - 1 if here_too else jobs, mp_context=multiprocessing.get_context("fork"),
                                   initializer=worker_start, initargs=(os.getpid(),))
    except (OSError, ValueError):
        return serial()
    starts = range(len(results), total, chunk)
    here: dict[int, list[R]] = {}  # chunk start -> its results, for the chunks done in this process
    done = len(results)

    def tell(count: int) -> None:
        nonlocal done
        done += count
        if progress is not None:
            progress(done, total)

    try:
        futures: list[Future[list[R]]] = [pool.submit(_run_chunk, work, items[i:i + chunk]) for i in starts]
        # Workers take tasks from the front; a task not yet handed to one can be taken back and done here.
        # Once one can't, every task before it is a worker's already.
        for start, future in zip(reversed(starts), reversed(futures)):
            if not here_too or not future.cancel():
                break
            here[start] = _run_chunk(work, items[start:start + chunk])
            tell(len(here[start]))
        for start, future in zip(starts, futures):
            if start in here:
                results.extend(here[start])
                continue
            results.extend(future.result())
            tell(len(results) - start)
    except (BrokenProcessPool, OSError):
        # A worker killed from outside (out of memory, a signal): finish here rather than lose the batch.
        # Results arrive a whole chunk at a time, so those kept are complete and in order.
        pool.shutdown(wait=False, cancel_futures=True)
        for start in starts:
            if start < len(results):
                continue
            if start in here:
                results.extend(here[start])
                continue
            for item in items[start:start + chunk]:
                results.append(work(item))
                tell(1)
        return results
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return results
