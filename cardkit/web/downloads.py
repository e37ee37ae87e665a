"""Which databases can be downloaded whole (`/NAME.db`), and a refused download said in words.

The catalogue can be (the same public card data as the pages); an attached tournament database,
holding players' names and decks, only when `cardkit serve --allow-download` lists it.
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

from typing import Any

from datasette import hookimpl

DOWNLOADS_PLUGIN = "cardkit-downloads"


@hookimpl
def permission_allowed(datasette: Any, actor: Any, action: str, resource: Any) -> bool | None:
    """Only the databases `make_datasette` lists as downloadable can be downloaded whole (`/NAME.db`)."""
    if action != "view-database-download":
        return None
    return None if resource in downloadable(datasette) else False


def downloadable(datasette: Any) -> list[str]:
    """The names of the databases that can be downloaded whole, from the plugin's configuration."""
    config = datasette.plugin_config(DOWNLOADS_PLUGIN) or {}
    names = config.get("downloadable", [])
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


@hookimpl
def extra_template_vars(view_name: str, database: str | None, datasette: Any) -> dict[str, Any] | None:
    # The database page offers its file for download only where the permission above allows it.
    if view_name != "database":
        return None
    return {"allow_download": bool(datasette.setting("allow_download")) and database in downloadable(datasette)}


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
