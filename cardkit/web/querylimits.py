"""Limits on the server's queries: no value over `MAX_VALUE_BYTES`, and cardkit's own queries under the time limit.

* No value a query makes or reads is over `MAX_VALUE_BYTES` (`prepare_connection`): the SQL
  page can't have SQLite build a 1 GB `randomblob` or `printf` string that the time limit never
  interrupts (one step of SQLite) and that holds the server's memory and threads for minutes.
* cardkit's own searches run under the server's `sql_time_limit_ms`, as Datasette's queries do
  (`time_limited`).
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any, Callable, TypeVar

from datasette import hookimpl

from cardkit.errors import CardkitError

T = TypeVar("T")

# Far above any value cardkit writes (a card's data, a player's name from a deck file of at most 1 MiB,
# escaped): a longer value is only ever one a visitor's SQL built.
MAX_VALUE_BYTES = 8 * 1024 * 1024


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    """Every connection the server opens refuses a string or blob over `MAX_VALUE_BYTES`: the query
    stops with SQLite's `string or blob too big`, a 400 page, instead of allocating it."""
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)


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
