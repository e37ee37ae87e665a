"""Run Datasette on the catalogue database (and any database served beside it), read-only.

Datasette and uvicorn are imported only here, inside the functions, so the
rest of cardkit never pays for them.
"""

from __future__ import annotations

import asyncio
import socket
import webbrowser
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardkit.errors import BadArgument, CatalogueError
from cardkit.visible import quoted
from cardkit.web.metadata import CATALOGUE_DB, instance_metadata

if TYPE_CHECKING:
    from datasette.app import Datasette

TEMPLATES = Path(__file__).resolve().parent / "templates"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8001
# The last is downloads.DOWNLOADS_PLUGIN, the name its configuration is found under.
PLUGIN_NAMES = ("cardkit-render", "cardkit", "cardkit-landmarks", "cardkit-query-limits", "cardkit-error-pages",
                "cardkit-csv-guard", "cardkit-address-guard", "cardkit-file-paths", "cardkit-downloads")
# Read-only and local: no write API, and facets/queries bounded so one slow page can't stall the server.
SETTINGS: dict[str, Any] = {
    "default_page_size": 50,
    "facet_time_limit_ms": 400,
    "sql_time_limit_ms": 2000,
    "default_facet_size": 12,
    # Suggesting facets costs a query per column on every page; the useful facets are set per table.
    "suggest_facets": False,
}


def _register_plugin() -> None:
    from datasette.plugins import pm

    from cardkit.web import (
        addressguard,
        csvguard,
        downloads,
        errorpages,
        filepaths,
        landmarks,
        plugin,
        querylimits,
        render,
    )

    modules = (render, plugin, landmarks, querylimits, errorpages, csvguard, addressguard, filepaths, downloads)
    for name, module in zip(PLUGIN_NAMES, modules):
        if pm.get_plugin(name) is None:
            pm.register(module, name=name)


# Datasette's own exception handler, which prints every error page's exception to the terminal with rich,
# locals included (paths, SQL, settings): cardkit's (`cardkit.web.errorpages.handle_exception`) answers every
# failure with a page that says what went wrong, so Datasette's is left out.
DATASETTE_ERROR_PRINTER = "datasette.handle_exception"


def quiet_error_pages() -> None:
    """Stop Datasette printing each error page's exception (a 404, an unknown `_sort`, `/../../etc/passwd`)."""
    from datasette.plugins import pm

    printer = pm.get_plugin(DATASETTE_ERROR_PRINTER)
    if printer is not None:
        pm.unregister(printer)


def make_datasette(databases: Mapping[str, Path], allow_download: bool = False) -> Datasette:
    """A Datasette instance serving each SQLite file immutably under its given name, with generated metadata.

    The catalogue can be downloaded whole (`/cardkit.db`: the same public card data as the pages);
    an attached file (a tournament database: players' names, their decks) only with `allow_download`."""
    from cardkit.web.memo import ReadOnlyDatabase, ReadOnlyDatasette

    for name, path in databases.items():
        if not Path(path).is_file():
            raise CatalogueError(f"database {quoted(name)}: no such file {path}")
    _register_plugin()
    quiet_error_pages()
    from cardkit.web.downloads import DOWNLOADS_PLUGIN

    metadata = instance_metadata(databases)
    downloadable = [name for name in databases if allow_download or name == CATALOGUE_DB]
    metadata.setdefault("plugins", {})[DOWNLOADS_PLUGIN] = {"downloadable": downloadable}
    ds = ReadOnlyDatasette(metadata=metadata, settings=SETTINGS, template_dir=str(TEMPLATES))
    # Datasette names a file after its stem; databases are added by hand so the URL is /<name> whatever the file is called.
    ds.remove_database("_memory")
    for name, path in databases.items():
        ds.add_database(ReadOnlyDatabase(ds, path=str(Path(path).resolve()), is_mutable=False), name=name)
    return ds


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0 picks a free one); BadArgument when that fails."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise BadArgument(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise BadArgument(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock


def url_for(sock: socket.socket, database: str = CATALOGUE_DB) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/{database}"


def serve(
    databases: Mapping[str, Path],
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    open_browser: bool = False,
    on_ready: Callable[[str], None] | None = None,
    allow_download: bool = False,
) -> None:
    """Serve `databases` (name -> file) until interrupted; `on_ready` gets the URL once the port is open.

    Ctrl-C stops the server and returns normally.
    """
    import uvicorn

    ds = make_datasette(databases, allow_download)
    asyncio.run(ds.invoke_startup())
    sock = bind(host, port)
    url = url_for(sock, next(iter(databases), CATALOGUE_DB))
    config = uvicorn.Config(ds.app(), log_level="warning", lifespan="on", access_log=False)
    server = uvicorn.Server(config)
    if on_ready:
        on_ready(url)
    if open_browser:
        webbrowser.open(url)
    from cardkit.web.errorpages import quiet_stderr

    try:
        with quiet_stderr():
            server.run(sockets=[sock])
    except KeyboardInterrupt:
        # uvicorn has already shut down; it re-raises the signal only so default handlers can run.
        pass
    finally:
        sock.close()
        from cardkit.web.deckworkers import stop_workers

        stop_workers()
