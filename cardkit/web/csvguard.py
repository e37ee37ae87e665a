"""Formula-safe CSV: every CSV the server sends passes each cell through `cardkit.visible.csv_cell`.

That is the sanitiser `tournament check --report x.csv` uses: a cell a spreadsheet would run as a
formula (`=`, `+`, `-`, `@`, and their full-width forms) is kept text, as the CSV streams out.
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Callable
from typing import Any

from datasette import hookimpl

from cardkit.visible import csv_cell
from cardkit.web.asgi import App, Message, Receive, Scope, Send


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
