"""Deck checks (`/-/deck`, `/-/deck.json`) in worker processes, only so many at once.

A check runs in a worker process, never on the event loop nor in a thread holding the server's GIL
(`off_the_loop`), and only so many at once (`deck_check_slot`): a 1 MiB paste can't stop the server
answering other pages, a flood of them is told to come back (503), and a worker that dies fails its
one check (503), not the server. A check's place is taken only once its body has arrived
(`read_body`): a body declared over the limit is refused from its header (413), one that doesn't
arrive within `BODY_SECONDS` is refused (408), so connections that send a header and then nothing
hold no place; at most `BODIES_AT_ONCE` bodies are kept in memory while they arrive.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeVar

from datasette.utils.asgi import Base400

T = TypeVar("T")

# A deck check is pure Python, seconds for a 1 MiB paste: in a thread of the server it holds the GIL
# and every page read waits its turn (a median of 15 s under a flood). So checks run in worker
# processes, started when the first deck is posted; on two cores one worker leaves the other core to
# the pages. `CARDKIT_DECK_CHECK_PROCESSES=0` runs them in threads instead, as before.
DECK_CHECKS_AT_ONCE = max(1, min(2, (os.cpu_count() or 2) - 1))
DECK_CHECKS_WAITING = 8
# A 2 MiB form arrives in well under a second on any link that can use the page; a body still
# arriving after this long is a connection holding memory, not a visitor.
BODY_SECONDS = 15.0
# Bodies being received at once (each at most a form's 2 MiB): past this a post is read and dropped.
BODIES_AT_ONCE = 32
_bodies = 0
_LOCK = threading.Lock()
_in_flight = 0
_pool: Executor | None = None


class ServerBusy(Base400):
    """Too many deck checks at once: this one is refused before its body is read."""

    status = 503


class CheckStopped(Base400):
    """The worker process checking a deck ended before it answered (killed, out of memory)."""

    status = 503


class BodyTooLarge(Base400):
    """A post whose declared length is over the form's limit: refused from its header, before any of it is read."""

    status = 413


class BodyTooSlow(Base400):
    """A post whose body did not arrive within `BODY_SECONDS`."""

    status = 408


async def _receive_body(request: Any, limit: int, keep: bool) -> bytes | None:
    """The body (None once it runs past `limit`, or when not `keep`ing it); `BodyTooSlow` past the deadline."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BODY_SECONDS
    body = bytearray()
    over = False
    while True:
        try:
            message = await asyncio.wait_for(request.receive(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            raise BodyTooSlow(f"The deck did not arrive within {BODY_SECONDS:.0f} seconds; send it again.") from None
        if message.get("type") != "http.request":
            return None
        if keep and not over:
            body += message.get("body", b"")
            over = len(body) > limit
            if over:
                body.clear()
        if not message.get("more_body", False):
            return None if over or not keep else bytes(body)


async def read_body(request: Any, limit: int) -> bytes | None:
    """A deck post's body, or None when it runs past `limit` bytes.

    `BodyTooLarge` (413) for a declared length over `limit`, from the header alone; `BodyTooSlow` (408)
    for a body not arrived within `BODY_SECONDS`; `ServerBusy` (503) once `BODIES_AT_ONCE` are arriving,
    after reading and dropping this one's body, so its sender reads the answer instead of a reset."""
    global _bodies
    declared = request.headers.get("content-length", "")
    if declared.strip().isdigit() and int(declared) > limit:
        raise BodyTooLarge(f"The post declares {int(declared):,} bytes; a deck check takes at most {limit:,}.")
    with _LOCK:
        keep = _bodies < BODIES_AT_ONCE
        if keep:
            _bodies += 1
    try:
        body = await _receive_body(request, limit, keep)
    finally:
        if keep:
            with _LOCK:
                _bodies -= 1
    if not keep:
        raise ServerBusy("The server is receiving many decks already; send yours again in a moment.")
    return body


@contextmanager
def deck_check_slot() -> Iterator[None]:
    """A place among the deck checks in flight (waiting or running); `ServerBusy` when there is none."""
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
                                            initializer=_start_worker, initargs=(os.getpid(),))
            else:
                _pool = ThreadPoolExecutor(DECK_CHECKS_AT_ONCE, thread_name_prefix="cardkit-deck-check")
        return _pool


# How much lower a deck-check worker's scheduling priority is than the server's: on a busy machine the
# kernel gives page reads the CPU first, and a check takes what is left (it still runs on an idle core).
DECK_CHECK_NICENESS = 10


def _start_worker(parent: int) -> None:
    """Each worker process ignores Ctrl-C (the server finishes the checks under way, then stops), ends
    with the server however it stops, and lowers its own priority (where the system has `nice`)."""
    from cardkit.parallel import worker_start

    worker_start(parent)
    if hasattr(os, "nice"):
        try:
            os.nice(DECK_CHECK_NICENESS)
        except OSError:
            pass


def stop_workers() -> None:
    """End the deck-check workers (the server is stopping); the next check would start fresh ones."""
    global _pool
    with _LOCK:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


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
