"""`cardkit serve`: browse the catalogue, and any SQLite file attached beside it, in Datasette."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._errors import guarded


@guarded
def serve_command(
    port: Annotated[int, typer.Option("--port", "-p", min=0, max=65535, help="Port to listen on (0 picks a free one).")] = 8001,
    host: Annotated[str, typer.Option("--host", help="Address to bind; the default serves this machine only.")] = "127.0.0.1",
    db: Annotated[Path | None, typer.Option("--db", help="Database file (default: $CARDKIT_DB, else build/cardkit.db, or the cache folder when installed); built first if missing or stale.", dir_okay=False)] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the catalogue in a web browser once the server is up.")] = False,
    attach: Annotated[list[Path] | None, typer.Option(
        "--attach", "-a", metavar="PATH", show_default=False,
        help="Also serve this SQLite file, read-only, at /<its file stem>; repeatable. A tournament database "
             "(`cardkit tournament db`) gets descriptions, facets and organizers' canned queries.")] = None,
    allow_download: Annotated[bool, typer.Option(
        "--allow-download", help="Let visitors download attached files whole (/NAME.db); the catalogue always can be.")] = False,
) -> None:
    """Build the database if needed, then browse it read-only in Datasette at /cardkit (Ctrl-C stops).

    Each --attach file is served beside it, read-only too.

    Exit 2 before the server starts for an attached file that is missing, not
    SQLite, or the catalogue itself, and for a port that is taken.
    """
    from cardkit import paths
    from cardkit.cli._progress import announce_first_build
    from cardkit.db.build import ensure_database
    from cardkit.web.databases import served_databases
    from cardkit.web.metadata import CATALOGUE_DB
    from cardkit.web.server import serve

    # Attached files are checked first: a typo should not wait for a catalogue build.
    databases = served_databases(Path(db) if db else paths.default_db_path(), attach or [])
    announce_first_build(db)
    path = databases[CATALOGUE_DB] = ensure_database(db, inputs=tuple(attach or ()))

    def ready(url: str) -> None:
        typer.echo(f"Serving {path.name} at {url}  (Ctrl-C to stop)", err=True)
        base = url.rsplit("/", 1)[0]
        for name, extra in databases.items():
            if name != CATALOGUE_DB:
                typer.echo(f"  and {extra.name} at {base}/{name}", err=True)

    serve(databases, host=host, port=port, open_browser=open_browser, on_ready=ready, allow_download=allow_download)
    typer.echo("stopped", err=True)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
