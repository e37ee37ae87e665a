"""Limits on the server's queries: what one step of SQLite may cost, every query stopped at the time limit.

SQLite checks its time limit (Datasette's progress handler, `sqlite3_interrupt`) only between the
steps of a query, and one step (a function call) can run for minutes: `printf('%.*c', 2147483647,
'x')` counts to two billion, `instr`, `replace`, `like` and `glob` compare every place in one
string with the whole of another. So:
* No value a query makes or reads is over `MAX_VALUE_BYTES` (`prepare_connection`): the SQL
  page can't have SQLite build a 1 GB `randomblob` or `printf` string that holds the server's
  memory and threads for minutes.
* `printf` (and its other name `format`) refuses a width or precision over `MAX_VALUE_BYTES` as
  `string or blob too big`; `instr` and `replace` of long values search with Python's string search,
  whose time grows with the lengths, not their product (`bounded_functions`); a LIKE or GLOB pattern
  is at most `MAX_PATTERN_BYTES`.
* Every query is interrupted at the server's `sql_time_limit_ms` by a watchdog (`interrupt_at_limit`),
  which SQLite sees at its next step, not after a thousand as a progress handler does.
* cardkit's own searches run under the server's `sql_time_limit_ms`, as Datasette's queries do
  (`time_limited`).
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

import heapq
import itertools
import re
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from datasette import hookimpl

from cardkit.errors import CardkitError

T = TypeVar("T")

# Far above any value cardkit writes (a card's data, a player's name from a deck file of at most 1 MiB,
# escaped): a longer value is only ever one a visitor's SQL built.
MAX_VALUE_BYTES = 8 * 1024 * 1024
# A pattern's cost is its length times the text's (an 8 MiB text against 100 bytes is about a second);
# the server's own patterns and a `__contains` filter's words are far shorter.
MAX_PATTERN_BYTES = 100
# Below this product of the lengths SQLite's own `instr` and `replace` take well under a millisecond.
SMALL_SEARCH = 1 << 20


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    """Every connection the server opens refuses a string or blob over `MAX_VALUE_BYTES` (SQLite's
    `string or blob too big`, a 400 page, instead of allocating it) and has the bounded functions."""
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, MAX_PATTERN_BYTES)
    for name, arity, function in bounded_functions():
        conn.create_function(name, arity, function, deterministic=True)


_builtin = threading.local()


def _sqlite_builtin(name: str, *args: Any) -> Any:
    """SQLite's own function `name` on `args`, from a connection of this thread that keeps the built-in ones."""
    conn = getattr(_builtin, "conn", None)
    if conn is None:
        conn = _builtin.conn = sqlite3.connect(":memory:", check_same_thread=True)
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    marks = ",".join("?" * len(args))
    return conn.execute(f"select {name}({marks})", args).fetchone()[0]


# A conversion of SQLite's printf: flags, then a width and a precision, each digits or `*` (an argument).
_CONVERSION = re.compile(r"%([-+ 0#!,]*)(\*|\d*)(?:\.(\*|\d*))?(l{0,2})(.)", re.DOTALL)


_LEADING_INTEGER = re.compile(rb"\s*[+-]?\d+")


def _as_integer(value: Any) -> str:
    """The digits SQLite reads as an integer from a `*` argument: a number, or a text's leading digits."""
    if isinstance(value, (int, float)):
        return str(int(max(-1e18, min(1e18, value)))) if value == value else "0"
    if isinstance(value, str):
        value = value.encode("utf-8", "replace")
    found = _LEADING_INTEGER.match(value) if isinstance(value, bytes) else None
    return found.group().decode().strip() if found else "0"


def _printf(*args: Any) -> Any:
    """SQLite's printf, refusing (as `string or blob too big`) a width or precision over `MAX_VALUE_BYTES`."""
    if args and isinstance(args[0], str) and "%" in args[0]:
        taken = 1
        for match in _CONVERSION.finditer(args[0]):
            if match.group(5) == "%" and not any(match.group(i) for i in (1, 2, 3, 4)):
                continue
            for size in (match.group(2), match.group(3)):
                if size == "*":
                    size = _as_integer(args[taken] if taken < len(args) else 0)
                    taken += 1
                if size and abs(int(size)) > MAX_VALUE_BYTES:
                    # The sqlite3 module answers a function's OverflowError with SQLite's `string or blob too big`.
                    raise OverflowError("printf width or precision over the server's limit")
            taken += 1
    return _sqlite_builtin("printf", *args)


def _costly(text: Any, part: Any) -> bool:
    """Whether SQLite's own search of `part` in `text` could take long (its time is their lengths' product)."""
    return isinstance(text, (str, bytes)) and isinstance(part, (str, bytes)) and len(text) * len(part) > SMALL_SEARCH


def _instr(text: Any, part: Any) -> Any:
    if text.__class__ is str and part.__class__ is str:
        return text.find(part) + 1
    if isinstance(text, bytes) and isinstance(part, bytes) and _costly(text, part):
        return text.find(part) + 1
    if _costly(text, part):
        # A long blob searched in long text or the other way round: rare enough to refuse.
        raise OverflowError("instr of a long blob and long text")
    return _sqlite_builtin("instr", text, part)


def _replace(text: Any, old: Any, new: Any) -> Any:
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str) and old:
        replaced = text.replace(old, new)
        if len(replaced.encode("utf-8")) > MAX_VALUE_BYTES:
            raise OverflowError("replace result over the server's limit")
        return replaced
    if _costly(text, old):
        raise OverflowError("replace in a long blob")
    return _sqlite_builtin("replace", text, old, new)


def bounded_functions() -> list[tuple[str, int, Callable[..., Any]]]:
    """(name, arity, function) for each SQLite function whose one call could otherwise outlast the time limit."""
    return [("printf", -1, _printf), ("format", -1, _printf), ("instr", 2, _instr), ("replace", 3, _replace)]


class _Watchdog:
    """One thread that interrupts each watched connection whose deadline has passed."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._due: list[tuple[float, int, sqlite3.Connection]] = []
        self._live: set[int] = set()
        self._count = itertools.count()
        self._thread: threading.Thread | None = None

    def watch(self, conn: sqlite3.Connection, seconds: float) -> int:
        with self._lock:
            token = next(self._count)
            heapq.heappush(self._due, (time.monotonic() + seconds, token, conn))
            self._live.add(token)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="cardkit-query-watchdog", daemon=True)
                self._thread.start()
            self._lock.notify()
            return token

    def release(self, token: int) -> None:
        with self._lock:
            self._live.discard(token)

    def _run(self) -> None:
        with self._lock:
            while True:
                while self._due and self._due[0][1] not in self._live:
                    heapq.heappop(self._due)
                if not self._due:
                    self._lock.wait()
                    continue
                deadline, token, conn = self._due[0]
                if time.monotonic() < deadline:
                    self._lock.wait(deadline - time.monotonic())
                    continue
                heapq.heappop(self._due)
                self._live.discard(token)
                try:
                    conn.interrupt()
                except sqlite3.ProgrammingError:  # closed meanwhile: nothing left to stop
                    pass


_WATCHDOG = _Watchdog()


def interrupt_at_limit(datasette: Any, work: Callable[[sqlite3.Connection], T]) -> Callable[[sqlite3.Connection], T]:
    """`work` (given a connection, for `execute_fn`) interrupted once the server's `sql_time_limit_ms` has passed."""
    seconds = int(datasette.setting("sql_time_limit_ms")) / 1000

    def run(conn: sqlite3.Connection) -> T:
        token = _WATCHDOG.watch(conn, seconds)
        try:
            return work(conn)
        finally:
            _WATCHDOG.release(token)

    return run


class TooSlow(CardkitError):
    """A query of cardkit's own ran past the server's time limit and was stopped."""

    error_code = "BAD_ARGUMENT"


def time_limited(datasette: Any, work: Callable[[sqlite3.Connection], T]) -> Callable[[sqlite3.Connection], T]:
    """`work` (given a connection, for `execute_fn`) under the server's `sql_time_limit_ms`, as Datasette's own
    queries are: `execute_fn` sets no limit, so cardkit's searches would otherwise run as long as they take."""
    limit_ms = int(datasette.setting("sql_time_limit_ms"))

    def run(conn: sqlite3.Connection) -> T:
        deadline = time.perf_counter() + limit_ms / 1000
        # SQLite calls back every this many steps (about 0.1 ms of work each thousand), as Datasette does.
        steps = 1 if limit_ms <= 20 else 1000
        conn.set_progress_handler(lambda: 1 if time.perf_counter() >= deadline else 0, steps)
        try:
            return work(conn)
        except sqlite3.OperationalError as exc:
            if "interrupt" not in str(exc):
                raise
            raise TooSlow(f"the search took longer than the server's limit of {limit_ms:,} ms; "
                          "ask for fewer or simpler terms") from None
        finally:
            conn.set_progress_handler(None, steps)

    return run
