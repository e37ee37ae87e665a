"""What the server does with a bad address and with CSV: error pages in words, formula-safe CSV.

* An address the server can't answer is a page in words with a 400 or 404 (`/cardkit/cards/x`,
  a `_sort` by no column, a filter SQLite can't read), not a 500, and the terminal stays quiet:
  the page already tells its visitor what went wrong (`handle_exception`, `quiet_stderr`).
* No value a query makes or reads is over `MAX_VALUE_BYTES` (`prepare_connection`): the SQL
  page can't have SQLite build a 1 GB `randomblob` or `printf` string that the time limit never
  interrupts (one step of SQLite) and that holds the server's memory and threads for minutes.
* Every CSV the server sends passes each cell through `cardkit.visible.csv_cell`, the sanitiser
  `tournament check --report x.csv` uses: a cell a spreadsheet would run as a formula (`=`, `+`,
  `-`, `@`, and their full-width forms) is kept text (`csv_guard`).
* A deck check (`/-/deck`, `/-/deck.json`) runs in a worker process, never on the event loop nor in
  a thread holding the server's GIL, and only so many at once (`deck_check_slot`, `off_the_loop`):
  a 1 MiB paste can't stop the server answering other pages, a flood of them is told to come back
  (503) before its bodies are read, and a worker that dies fails its one check (503), not the server.
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

import asyncio
import codecs
import csv
import functools
import io
import multiprocessing
import os
import sqlite3
import sys
import threading
import time
import warnings
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, Awaitable, Callable, Iterator, TextIO, TypeVar

from datasette import hookimpl
from datasette.utils.asgi import Base400

from cardkit.errors import CardkitError
from cardkit.visible import csv_cell

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

T = TypeVar("T")

GUARDS_PLUGIN = "cardkit-guards"


# Far above any value cardkit writes (a card's data, a player's name from a deck file of at most 1 MiB,
# escaped): a longer value is only ever one a visitor's SQL built.
MAX_VALUE_BYTES = 8 * 1024 * 1024


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    """Every connection the server opens refuses a string or blob over `MAX_VALUE_BYTES`: the query
    stops with SQLite's `string or blob too big`, a 400 page, instead of allocating it."""
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)


@hookimpl
def permission_allowed(datasette: Any, actor: Any, action: str, resource: Any) -> bool | None:
    """Only the databases `make_datasette` lists as downloadable can be downloaded whole (`/NAME.db`)."""
    if action != "view-database-download":
        return None
    return None if resource in downloadable(datasette) else False


def downloadable(datasette: Any) -> list[str]:
    from cardkit.web.memo import remembered

    def read() -> list[str]:
        config = datasette.plugin_config(GUARDS_PLUGIN) or {}
        names = config.get("downloadable", [])
        return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []

    return remembered(datasette, GUARDS_PLUGIN, "downloadable", read)


@hookimpl
def extra_template_vars(datasette: Any) -> dict[str, Any]:
    # The database page offers its file for download only where the permission above allows it.
    return {"cardkit_downloadable": downloadable(datasette)}

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


ROW_ADDRESS = "a row's address is its key values separated by commas (a card: /cardkit/cards/GAME,ID)"


def describe_failure(exception: BaseException) -> tuple[int, str, str]:
    """(HTTP status, title, message) for what stopped a page: the visitor's address is at fault (400, 404)
    unless the failure is the server's own (500)."""
    from datasette.views.base import DatasetteError

    if isinstance(exception, Base400):
        status = int(exception.status)
        title = {404: "Not found", 503: "Busy"}.get(status, f"Error {status}")
        return status, title, str(exception.args[0] if exception.args else "")
    if isinstance(exception, DatasetteError):
        # Datasette raises these for what the address asks (a `_sort` by no column, a facet, SQL): the address's fault.
        status = int(exception.status) if int(exception.status) < 500 else 400
        return status, exception.title or "This address can't be answered", str(exception.message)
    if isinstance(exception, sqlite3.ProgrammingError):
        # The row view binds one value per key column: an address with too few is no row at all.
        return 404, "No such row", f"This address names no row: {ROW_ADDRESS}."
    if isinstance(exception, sqlite3.Error):
        return 400, "This address can't be answered", f"The database can't answer it: {exception}."
    return 500, "The page failed", f"The page failed ({type(exception).__name__}); nothing was changed."


@hookimpl(tryfirst=True)
def handle_exception(datasette: Any, request: Any, exception: BaseException) -> Any:
    from datasette.utils.asgi import Response

    status, title, message = describe_failure(exception)

    async def inner() -> Any:
        info = {"ok": False, "error": message, "status": status, "title": title}
        if request.path.split("?")[0].endswith(".json"):
            return Response.json(info, status=status)
        html = await datasette.render_template(["error.html"], info, request=request)
        return Response.html(html, status=status)

    return inner


NOT_DOWNLOADABLE = ("This database is browsed here, not downloaded whole: an attached file holds players' names "
                    "and decks. Whoever runs the server can offer it with `cardkit serve --allow-download`.")


@hookimpl(tryfirst=True)
def forbidden(datasette: Any, request: Any, message: str) -> Any:
    """A refused download says why in words; any other refusal as Datasette words it."""
    from datasette.utils.asgi import Response

    title, text = ("Not offered for download", NOT_DOWNLOADABLE) if message == "view-database-download" else (
        "Forbidden", message)

    async def inner() -> Any:
        html = await datasette.render_template(["error.html"], {"title": title, "error": text, "status": 403},
                                               request=request)
        return Response.html(html, status=403)

    return inner


class _QuietStderr(io.TextIOBase):
    """Standard error without the lines Datasette prints for a failed query (`ERROR: conn=..., sql = ...`)
    and a failed CSV stream: each error page says what went wrong to its visitor, the terminal says nothing."""

    DROPPED = ("ERROR: conn=", "Caught this error: ")

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        if not text.startswith(self.DROPPED):
            self.stream.write(text)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def fileno(self) -> int:
        return self.stream.fileno()

    def isatty(self) -> bool:
        return self.stream.isatty()


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """While the server runs, Datasette's own error lines stay off the terminal, and so do the warnings
    a failed page leaves behind (an unknown `_facet` drops coroutines Datasette never awaits: a
    `RuntimeWarning` of several lines, with file paths, for each)."""
    saved = sys.stderr
    sys.stderr = _QuietStderr(saved)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        sys.stderr = saved


class CsvRewriter:
    """CSV text in, the same CSV with every cell through `csv_cell` out, one whole record at a time.

    A record ends at a line end outside quotes; CSV doubles a quote inside a quoted cell, so a
    line end is outside quotes exactly when the quotes seen so far are even in number.
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = ""
        self._quotes = 0

    def feed(self, data: bytes, final: bool = False) -> bytes:
        text = self._decoder.decode(data, final)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        start = 0
        while True:
            end = text.find("\n", start)
            if end < 0:
                break
            piece = text[start:end + 1]
            self._quotes += piece.count('"')
            self._pending += piece
            start = end + 1
            if self._quotes % 2 == 0:
                self._write(writer, self._pending)
                self._pending, self._quotes = "", 0
        rest = text[start:]
        self._quotes += rest.count('"')
        self._pending += rest
        if final and self._pending:
            self._write(writer, self._pending)
            self._pending, self._quotes = "", 0
        return out.getvalue().encode("utf-8")

    @staticmethod
    def _write(writer: Any, record: str) -> None:
        for row in csv.reader(io.StringIO(record, newline="")):
            writer.writerow([csv_cell(cell) for cell in row])


def _is_csv(scope: Scope) -> bool:
    path = str(scope.get("path", ""))
    return scope.get("type") == "http" and (path.endswith(".csv") or b"_format=csv" in scope.get("query_string", b""))


def csv_guard(app: App) -> App:
    """`app` with every CSV response's cells passed through `csv_cell` as they stream out."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if not _is_csv(scope):
            await app(scope, receive, send)
            return
        rewriter: CsvRewriter | None = None

        async def rewrite(message: Message) -> None:
            nonlocal rewriter
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"content-length"]
                kind = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                # `_trace=1` wraps the CSV in an HTML page: that is no spreadsheet's input.
                if kind.startswith((b"text/csv", b"text/plain")):
                    rewriter = CsvRewriter()
                    message = {**message, "headers": headers}
            elif message["type"] == "http.response.body" and rewriter is not None:
                more = bool(message.get("more_body", False))
                message = {**message, "body": rewriter.feed(message.get("body", b""), final=not more)}
            await send(message)

        await app(scope, receive, rewrite)

    return guarded


@hookimpl
def asgi_wrapper(datasette: Any) -> Callable[[App], App]:
    return csv_guard
