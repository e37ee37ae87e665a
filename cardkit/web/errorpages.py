"""What the server does with an address it can't answer: a page in words, and a quiet terminal.

An address the server can't answer is a page in words with a 400 or 404 (`/cardkit/cards/x`,
a `_sort` by no column, a filter SQLite can't read), not a 500, and the terminal stays quiet:
the page already tells its visitor what went wrong (`handle_exception`, `quiet_stderr`).
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

import io
import sqlite3
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from datasette import hookimpl
from datasette.utils.asgi import Base400

ROW_ADDRESS = "a row's address is its key values separated by commas (a card: /cardkit/cards/GAME,ID)"


def describe_failure(exception: BaseException) -> tuple[int, str, str]:
    """(HTTP status, title, message) for what stopped a page: the visitor's address is at fault (400, 404)
    unless the failure is the server's own (500)."""
    from datasette.views.base import DatasetteError

    if isinstance(exception, Base400):
        status = int(exception.status)
        title = {404: "Not found", 408: "Too slow", 413: "Too large", 503: "Busy"}.get(status, f"Error {status}")
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
    `RuntimeWarning` of several lines, with file paths, for each), and so do the tracebacks of SQL functions
    that refuse a value (`cardkit.web.querylimits`: the query's page says `string or blob too big`)."""
    saved = sys.stderr
    # Datasette turns these on when imported; they are put back on as it left them.
    sqlite3.enable_callback_tracebacks(False)
    sys.stderr = _QuietStderr(saved)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        sys.stderr = saved
        sqlite3.enable_callback_tracebacks(True)
