"""Deck checks (`/-/deck`, `/-/deck.json`) in worker processes, only so many at once.

A check runs in a worker process, never on the event loop nor in a thread holding the server's GIL
(`off_the_loop`), and only so many at once (`deck_check_slot`): a 1 MiB paste can't stop the server
answering other pages, a flood of them is told to come back (503) before its bodies are read, and a
worker that dies fails its one check (503), not the server.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

from datasette.utils.asgi import Base400

T = TypeVar("T")

# A deck check is pure Python, seconds for a 1 MiB paste: in a thread of the server it holds the GIL
# and every page read waits its turn (a median of 15 s under a flood). So checks run in worker
# processes, started when the first deck is posted; on two cores one worker leaves the other core to
# the pages. `CARDKIT_DECK_CHECK_PROCESSES=0` runs them in threads instead, as before.
DECK_CHECKS_AT_ONCE = max(1, min(2, (os.cpu_count() or 2) - 1))
DECK_CHECKS_WAITING = 8
_LOCK = threading.Lock()
_in_flight = 0
_pool: Executor | None = None


class ServerBusy(Base400):
    """Too many deck checks at once: this one is refused before its body is read."""

    status = 503


class CheckStopped(Base400):
    """The worker process checking a deck ended before it answered (killed, out of memory)."""

    status = 503


@contextmanager
def deck_check_slot() -> Iterator[None]:
    """A place among the deck checks in flight (read, waiting or running); `ServerBusy` when there is none."""
    global _in_flight
    with _LOCK:
        if _in_flight >= DECK_CHECKS_AT_ONCE + DECK_CHECKS_WAITING:
            raise ServerBusy(f"The server is checking {_in_flight} decks already; send yours again in a moment.")
        _in_flight += 1
    try:
        yield
    finally:
        with _LOCK:
            _in_flight -= 1


def in_processes() -> bool:
    """Whether deck checks run in worker processes (the default) rather than threads of the server."""
    return os.environ.get("CARDKIT_DECK_CHECK_PROCESSES", "1").strip() != "0"


def _deck_pool() -> Executor:
    """The deck-check workers, started on first use (a server nobody posts a deck to starts none)."""
    global _pool
    with _LOCK:
        if _pool is None:
            if in_processes():
                # spawn, not fork: the server has threads (Datasette's), and a forked child may inherit a held lock.
                _pool = ProcessPoolExecutor(DECK_CHECKS_AT_ONCE, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_yield_to_pages)
            else:
                _pool = ThreadPoolExecutor(DECK_CHECKS_AT_ONCE, thread_name_prefix="cardkit-deck-check")
        return _pool


# How much lower a deck-check worker's scheduling priority is than the server's: on a busy machine the
# kernel gives page reads the CPU first, and a check takes what is left (it still runs on an idle core).
DECK_CHECK_NICENESS = 10


def _yield_to_pages() -> None:
    """Each worker process starts by lowering its own priority (where the system has `nice`)."""
    if hasattr(os, "nice"):
        try:
            os.nice(DECK_CHECK_NICENESS)
        except OSError:
            pass


def _retire(pool: Executor) -> None:
    """Drop a pool whose worker died; the next check starts a fresh one."""
    global _pool
    with _LOCK:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


async def off_the_loop(work: Callable[..., T], *args: Any) -> T:
    """`work(*args)` in a deck-check worker, so the event loop (and the GIL) goes on answering other pages.

    `work` and its arguments and result cross to a worker process, so they are a module's function and
    plain data. A worker that dies answers this check with `CheckStopped` (503), never stops the server.
    """
    pool = _deck_pool()
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, functools.partial(work, *args))
    except BrokenProcessPool:
        _retire(pool)
        raise CheckStopped("The check of this deck stopped before it finished; send it again.") from None
