"""Every HTML page says its language (`<html lang="en">`) and has one `<main>` landmark for its content.

Screen readers read a page in the language it declares and jump to its main landmark. Datasette's
base template writes a bare `<html>` and holds the content in `<section class="content">`, and has
no block for either, so the page is marked as it leaves the server (an `asgi_wrapper`). Russian
names carry `lang="ru"` where they stand (`cardkit.web.plugin`).
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from datasette import hookimpl

from cardkit.web.asgi import App, Message, Receive, Scope, Send

CONTENT_OPEN = b'<section class="content">'


def marked(page: bytes) -> bytes:
    """`page` with its language said and its content section as the `<main>` landmark (once each)."""
    page = page.replace(b"<html>", b'<html lang="en">', 1)
    start = page.find(CONTENT_OPEN)
    footer = page.find(b'<footer class="ft">', start)
    end = page.rfind(b"</section>", start, footer) if start >= 0 and footer >= 0 else -1
    if end < 0:
        return page
    return (page[:start] + b'<main class="content">' + page[start + len(CONTENT_OPEN):end] + b"</main>"
            + page[end + len(b"</section>"):])


def landmarks(app: App) -> App:
    """`app` with every HTML page marked: its body gathered (Datasette sends a page in one piece) and rewritten."""

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return
        start: Message | None = None
        body = bytearray()

        async def rewrite(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                kind = next((v for k, v in message.get("headers", []) if k.lower() == b"content-type"), b"")
                if kind.startswith(b"text/html"):
                    start = message
                    return
            elif message["type"] == "http.response.body" and start is not None:
                body.extend(message.get("body", b""))
                if message.get("more_body", False):
                    return
                if not body:  # a reply to HEAD, or an empty page: nothing to mark, its length stays as it was
                    await send(start)
                    await send(message)
                    return
                page = marked(bytes(body))
                headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                await send({**start, "headers": [*headers, (b"content-length", str(len(page)).encode("ascii"))]})
                message = {**message, "body": page}
            await send(message)

        await app(scope, receive, rewrite)

    return wrapped


@hookimpl
def asgi_wrapper(datasette: Any) -> Callable[[App], App]:
    return landmarks
