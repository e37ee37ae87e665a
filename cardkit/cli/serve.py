"""`cardkit serve`: browse the catalogue in Datasette."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cardkit.cli._errors import guarded


@guarded
def serve_command(
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="Port to listen on (0 picks a free one).")] = 8001,
    host: Annotated[str, typer.Option("--host", help="Address to bind; the default serves this machine only.")] = "127.0.0.1",
    db: Annotated[Optional[Path], typer.Option("--db", help="Database file (default: $CARDKIT_DB, else build/cardkit.db); built first if missing or stale.", dir_okay=False)] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the catalogue in a web browser once the server is up.")] = False,
) -> None:
    """Build the database if needed, then browse it read-only in Datasette at /cardkit (Ctrl-C stops)."""
    from cardkit.db.build import ensure_database
    from cardkit.web.metadata import CATALOGUE_DB
    from cardkit.web.server import serve

    path = ensure_database(db)
    serve({CATALOGUE_DB: path}, host=host, port=port, open_browser=open_browser,
          on_ready=lambda url: typer.echo(f"Serving {path.name} at {url}  (Ctrl-C to stop)", err=True))
    typer.echo("stopped", err=True)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
