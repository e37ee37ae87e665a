"""The served files' places on disk stay the server's own: no page or query shows them.

Datasette's `/-/databases.json` lists each database's absolute path, and a query of
`pragma_database_list` reads it too: where an organizer keeps the event's files (a home folder,
a user name) is no visitor's business. The list is answered here without `path` (a route of the
plugin's, which Datasette matches before its own), and the pragma's `file` column reads as NULL
(an authorizer on every connection the server opens). A database's name, size and hash stay.
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from datasette import hookimpl


def _hide_file_column(action: int, table: str | None, column: str | None, _db: str | None, _view: str | None) -> int:
    if action == sqlite3.SQLITE_READ and table == "pragma_database_list" and column == "file":
        return sqlite3.SQLITE_IGNORE
    return sqlite3.SQLITE_OK


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    conn.set_authorizer(_hide_file_column)


def served_databases(datasette: Any) -> list[dict[str, Any]]:
    """What `/-/databases.json` says of each database: all Datasette says but its path."""
    return [{"name": db.name, "route": db.route, "size": db.size, "is_mutable": db.is_mutable,
             "is_memory": db.is_memory, "hash": db.hash}
            for name, db in datasette.databases.items() if name != "_internal"]


async def databases_page(datasette: Any, request: Any) -> Any:
    from datasette.utils.asgi import Response

    data = served_databases(datasette)
    if request.path.endswith(".json"):
        return Response.json(data)
    html = await datasette.render_template(["show_json.html"], {"filename": "databases.json",
                                                                "data_json": json.dumps(data, indent=4)},
                                           request=request)
    return Response.html(html)


@hookimpl
def register_routes() -> list[tuple[str, Any]]:
    return [(r"^/-/databases(\.json)?$", databases_page)]
