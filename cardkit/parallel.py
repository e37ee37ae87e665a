"""One function applied to many independent items over the machine's cores, results in the items' order.

Used by `tournament check` (a deck per item) and `simulate` (a block of games per item). Workers
are forked, so they start with whatever this process has loaded. One core, a one-item batch and
systems without `fork` run here, with the same results; so does the rest of a batch whose worker
was killed from outside. And a `Helper`: one process that loads a library while this one works,
then does a piece of work beside it (`tournament db` and `publish` group the field there).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import signal
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar, cast

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

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


def _quiet_worker() -> None:
    # Ctrl-C reaches the whole process group; the parent says `interrupted`, workers must not print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk(work: Callable[[T], R], chunk: Sequence[T]) -> list[R]:
    return [work(item) for item in chunk]


def ordered_map(work: Callable[[T], R], items: Sequence[T], progress: Progress | None = None,
                jobs: int | None = None, *, parallel_from: int = 2, warm_up: int = 0, chunk: int = 1,
                here_too: bool = False, meanwhile: Callable[[], object] | None = None) -> list[R]:
    """`[work(item) for item in items]`, over `jobs` processes (default: every core) from `parallel_from` items on.

    The first `warm_up` items are done here before forking (workers inherit what they loaded);
    workers take `chunk` items per task. With `here_too`, `jobs` counts this process: it starts
    `jobs - 1` workers and, rather than only wait, does the tasks no worker has taken yet, from the
    last one back (each result a worker sends back is pickled and unpickled, and each worker starts
    with cold caches: a worker fewer spares both for the share done here). `progress` is told after
    the warm-up and after each task, with the items done so far. `work` must be picklable (a module-level function
    or a `functools.partial` of one); an exception it raises in a worker is raised here.
    `meanwhile` is called once here, after the warm-up: while the workers take their first tasks
    when there are workers (what a caller needs after the work, such as a library to import, then
    shares the cores with the work instead of following it on one), else before the work.
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
        if meanwhile is not None:
            meanwhile()
        return serial()
    serial(min(warm_up, total))
    try:
        pool = ProcessPoolExecutor(max_workers=jobs - 1 if here_too else jobs, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_quiet_worker)
    except (OSError, ValueError):
        if meanwhile is not None:
            meanwhile()
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
        # The workers are forked by now (a fork context starts them all at the first task), so what
        # `meanwhile` loads stays in this process.
        if meanwhile is not None:
            meanwhile()
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


class Helper:
    """A second process that loads what later work needs (`prepare`: a library to import) while this one does
    other work, then does that work beside it. `submit(work, *args)` hands the work over and returns a
    callable that gives its result when it is wanted; meanwhile this process goes on with its own share.

    Started by forking, before this process holds much, so the fork is cheap and `prepare` runs while this
    process is busy with its own start. Where there is no `fork` or only one core, where the helper can't
    be started or has died, and for work that fails there, the work is done here when its result is wanted,
    after `prepare`: the same result, and the same error, as without a helper. `work` and its arguments must
    be picklable (a module-level function), and so must its result. Close it (or use it as a context
    manager) when done: the process then ends, even in the middle of a job, so a command refused or
    interrupted while the helper is still importing doesn't wait for it.
    """

    def __init__(self, prepare: Callable[[], object]) -> None:
        self._prepare = prepare
        self._conn: Connection | None = None
        self._process: BaseProcess | None = None
        self._sender: threading.Thread | None = None
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        if available_cores() < 2 or "fork" not in multiprocessing.get_all_start_methods():
            return
        context = multiprocessing.get_context("fork")
        try:
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(prepare, theirs, ours), daemon=True, name="cardkit-helper")
            process.start()
        except OSError:
            return
        theirs.close()
        self._conn, self._process = ours, process

    @property
    def running(self) -> bool:
        """True while a helper process is there to take work."""
        return self._conn is not None

    @property
    def pid(self) -> int | None:
        """The helper process's id while it runs; None without one."""
        return self._process.pid if self._process is not None else None

    def submit(self, work: Callable[..., R], *args: object) -> Callable[[], R]:
        """Hand `work(*args)` to the helper; call what is returned for its result (once). The helper does its work
        in the order given, and sends each result back before it reads the next piece: ask for results in order.

        Returns at once: the work is pickled here, and written to the helper from a thread of this
        process, since a helper still busy with `prepare` reads nothing until it is done."""
        conn = self._conn
        if conn is not None:
            try:
                job = pickle.dumps((work, args), protocol=pickle.HIGHEST_PROTOCOL)
            except (pickle.PicklingError, TypeError, AttributeError):
                return partial(self._here, work, args)
            if self._sender is None:
                self._sender = threading.Thread(target=_send_all, args=(conn, self._outbox), daemon=True,
                                                name="cardkit-helper-sender")
                self._sender.start()
            self._outbox.put(job)
            return partial(self._result, conn, work, args)
        return partial(self._here, work, args)

    def _result(self, conn: Connection, work: Callable[..., R], args: tuple[object, ...]) -> R:
        try:
            done, value = conn.recv()
        except (EOFError, OSError):
            done, value = False, None
        if not done:
            # The helper died or the work failed there: done again here, so a failure is raised as this process's own.
            self.close()
            return self._here(work, args)
        return cast(R, value)

    def _here(self, work: Callable[..., R], args: tuple[object, ...]) -> R:
        self._prepare()
        return work(*args)

    def close(self) -> None:
        """End the helper process at once, idle or not (it writes nothing, so nothing is left half done); harmless twice."""
        conn, process, sender = self._conn, self._process, self._sender
        self._conn = self._process = self._sender = None
        if process is not None:
            process.kill()  # a write to it still under way then fails, and its thread ends
            process.join()
        if sender is not None:
            self._outbox.put(None)
            sender.join()
        if conn is not None:
            conn.close()

    def __enter__(self) -> Helper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _send_all(conn: Connection, outbox: queue.SimpleQueue[bytes | None]) -> None:
    """Write each pickled job to the helper in turn, until told to stop (None) or the helper is gone."""
    while (job := outbox.get()) is not None:
        try:
            conn.send_bytes(job)
        except (OSError, ValueError):
            return  # the helper died: its result is asked for in vain, and the work is done here then


def _serve(prepare: Callable[[], object], conn: Connection, callers_end: Connection) -> None:
    """The helper process: `prepare`, then each piece of work sent, until the pipe closes.
    A result is (True, value); (False, None) says the work failed here, for the caller to do it itself."""
    _quiet_worker()
    callers_end.close()  # else this process holds its own pipe open and never sees the caller close it
    try:
        prepare()
    except Exception:  # the work will fail too, and the caller then does it itself, raising the error there
        pass
    parent = os.getppid()
    while True:
        try:
            # Processes forked after this one (the check's workers) hold the caller's end of the pipe too, so a
            # caller killed outright is seen by its going away, not only by the pipe closing.
            while not conn.poll(0.5):
                if os.getppid() != parent:
                    return
            work, args = conn.recv()
        except Exception:  # the caller gone, or work that can't be read here: the caller does it itself
            return
        try:
            reply: tuple[bool, object] = (True, work(*args))
        except Exception:
            reply = (False, None)
        try:
            conn.send(reply)
        except (OSError, ValueError, TypeError, AttributeError, pickle.PicklingError):
            # A result that can't be sent back: the caller does the work itself.
            try:
                conn.send((False, None))
            except OSError:
                return


def later(helper: Helper | None, work: Callable[..., R], *args: object) -> Callable[[], R]:
    """`work(*args)` handed to `helper` to do beside this process; without one, done here when its result is wanted."""
    if helper is None:
        return partial(work, *args)
    return helper.submit(work, *args)
