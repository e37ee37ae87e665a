"""Addresses refused before Datasette reads them: too long, too many parameters, or a parameter it can't read.

* An address over `MAX_ADDRESS_BYTES` is a 414 page, one with over `MAX_PARAMETERS` parameters a 400
  page: Datasette's work on each request grows with the square of the parameter count (3,000 took
  19 s and, holding the event loop, stopped every other page), so the count is bounded first.
* Datasette's own parameters whose value it parses as it goes (`_through`, `_timelimit`, `_facet...`)
  must have the shape it expects, or the page is a 400 that says which shape: read as they come,
  `_through=null`, `_timelimit=abc` or `_facet={"simple":1}` fail inside Datasette, a 500.
Registered by `cardkit.web.server`, not through an entry point; its wrapper is the outermost.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from datasette import hookimpl

from cardkit.web.asgi import App, Receive, Scope, Send

# Far above any address cardkit's pages make (a search of 3,000 comma-separated words is 6 KB) or a
# hand-written SQL query needs, and under what proxies commonly accept.
MAX_ADDRESS_BYTES = 16 * 1024
# A table page with every filter, facet and column choice its forms offer has a few dozen; 200 cost 0.1 s.
MAX_PARAMETERS = 200
THROUGH_SHAPE = '{"table": "...", "column": "...", "value": "..."}'


class BadAddress(Exception):
    """An address refused before Datasette sees it: its HTTP status and a sentence for its visitor."""

    def __init__(self, status: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status, self.title, self.message = status, title, message


def _json(name: str, value: str, shape: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        raise BadAddress(400, f"Bad {name}", f"{name} must be JSON of the form {shape}.") from None


def _check_through(value: str) -> None:
    through = _json("_through", value, THROUGH_SHAPE)
    if not (isinstance(through, dict) and all(isinstance(through.get(key), str) for key in ("table", "column"))
            and isinstance(through.get("value"), (str, int, float))):
        raise BadAddress(400, "Bad _through", f"_through must be JSON of the form {THROUGH_SHAPE}.")


def _check_facet(name: str, value: str) -> None:
    if not value.startswith("{"):
        return
    shape = '{"simple": "COLUMN"}'
    facet = _json(name, value, shape)
    columns = [facet.get(key) for key in ("simple", "column")] if isinstance(facet, dict) else []
    named = [column for column in columns if column is not None]
    if not named or not all(isinstance(column, str) and column for column in named):
        raise BadAddress(400, f"Bad {name}", f"{name} must be a column name or JSON of the form {shape}.")


def _check_timelimit(value: str) -> None:
    if not (value.isascii() and value.isdigit() and len(value) <= 9):
        raise BadAddress(400, "Bad _timelimit", "_timelimit must be a whole number of milliseconds, such as 500.")


def check_address(path: str, query: bytes) -> None:
    """Raise `BadAddress` for an address the server refuses before Datasette reads it."""
    if len(path.encode("utf-8", "surrogateescape")) + len(query) > MAX_ADDRESS_BYTES:
        raise BadAddress(414, "Address too long",
                         f"The address is over {MAX_ADDRESS_BYTES:,} bytes; search for less, or send the query in parts.")
    if query.count(b"&") + query.count(b";") >= MAX_PARAMETERS:
        pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
        if len(pairs) > MAX_PARAMETERS:
            raise BadAddress(400, "Too many parameters",
                             f"The address has {len(pairs):,} parameters; the limit is {MAX_PARAMETERS}.")
    if b"_through" not in query and b"_timelimit" not in query and b"_facet" not in query:
        return
    for key, value in parse_qsl(query.decode("utf-8", "replace"), keep_blank_values=True):
        if key == "_through":
            _check_through(value)
        elif key == "_timelimit" and value:
            _check_timelimit(value)
        elif key.startswith("_facet"):
            _check_facet(key, value)


async def _refuse(datasette: Any, scope: Scope, receive: Receive, send: Send, refused: BadAddress) -> None:
    from datasette.utils.asgi import Response

    info = {"ok": False, "error": refused.message, "status": refused.status, "title": refused.title}
    if scope.get("path", "").endswith(".json"):
        response = Response.json(info, status=refused.status)
    else:
        html = await datasette.render_template(["error.html"], info, request=None)
        response = Response.html(html, status=refused.status)
    await response.asgi_send(send)


# Last of the wrappers Datasette applies, so the outermost: nothing reads the address before this guard.
@hookimpl(trylast=True)
def asgi_wrapper(datasette: Any) -> Callable[[App], App]:
    def wrap(app: App) -> App:
        async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
            if scope.get("type") == "http":
                try:
                    check_address(scope.get("path", ""), scope.get("query_string", b""))
                except BadAddress as refused:
                    await _refuse(datasette, scope, receive, send, refused)
                    return
            await app(scope, receive, send)

        return guarded

    return wrap
