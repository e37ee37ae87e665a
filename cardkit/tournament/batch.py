"""Checking many independent submissions over the machine's cores, in order, with progress.

Each deck is read and judged on its own, so a big event is split into chunks that
worker processes check from the front while this one checks them from the back, then
puts the results in the input's order: `jobs` processes, this one among them. Workers
are forked after the first decks are checked here, so they start with the catalogue,
name index and format already loaded. Small batches, machines with one
core, and systems without `fork` are checked in this process, with the
same results.

The default is every core, not the cores a load average leaves idle: the load average
lags by a minute and counts cardkit's own work, so an organizer's second run straight
after a first would have been checked on one core. On a busy machine a worker costs a
little more CPU in all (taking a result back costs about a sixth of checking the deck,
and its caches start cold) and saves no time; on a free one the processes share out the
decks. Checking here too, rather than only waiting, leaves a worker fewer to pay for.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from cardkit.parallel import Progress, available_cores, ordered_map

T = TypeVar("T")
R = TypeVar("R")

PARALLEL_FROM = 400
"""Below this many submissions, starting workers costs more than it saves."""
WARM_UP = 24
"""Submissions checked here before forking, so every worker inherits the loaded catalogue."""
CHUNK = 96
"""Submissions per task: big enough that sending results back is a small part, small enough for a live bar."""


def check_all(check: Callable[[T], R], items: Sequence[T], progress: Progress | None = None,
              jobs: int | None = None) -> list[R]:
    """`[check(item) for item in items]`, over `jobs` processes, this one included (default: every core), when the batch is big.

    `check` must be picklable (a module-level function or a `functools.partial` of one)
    and must not raise for a bad item: it turns a bad file into a result.
    """
    with collector_paused():
        return ordered_map(check, items, progress, available_cores() if jobs is None else jobs,
                           parallel_from=PARALLEL_FROM, warm_up=WARM_UP, chunk=CHUNK,
                           here_too=True)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the block (forked workers inherit it off); nesting is harmless.

    Checking a deck makes no reference cycles (a 5,000-deck event leaves a few hundred objects
    to collect), yet each full collection walked the whole catalogue and every result so far, and
    in a forked worker it also copied the pages it touched: a fifth of a big event's time, and
    more than half the cost of taking the workers' results back. The same holds for the steps
    after the check (the checks across decks, the metagame tables, the page, the database rows,
    the registry): about a third of writing a big event's page went to collections finding nothing.
    Memory is freed by reference counting as before; anything cyclic is collected when the
    collector is back on.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
