"""cardkit's Datasette plugin: the query language as the search box of every card table.

`?_search=` on `cards` and on each game's table runs `cardkit.db.search`'s query language
(the same as `cardkit cards search`), not SQLite full-text search. Which tables take it is
metadata (`plugins.cardkit.search_game` on a table, written by `cardkit.web.metadata`).
Registered by `cardkit.web.server`, not through an entry point.
"""

from __future__ import annotations

import re
from typing import Any

from datasette import hookimpl
from datasette.filters import FilterArguments

from cardkit.errors import CardkitError

PLUGIN = "cardkit"
# The game a table's rows belong to, or "*" for the shared `cards` table.
ALL_GAMES = "*"


def search_game(datasette: Any, database: str, table: str) -> str | None:
    """The game whose cards `table` lists ("*" for all), or None for a table the query language does not search."""
    config = datasette.plugin_config(PLUGIN, database=database, table=table, fallback=False) or {}
    game = config.get("search_game")
    return game if isinstance(game, str) else None


def _named(sql: str, values: list[Any]) -> tuple[str, dict[str, Any]]:
    """`?` placeholders as Datasette's named ones (`:cardkit_0`, ...)."""
    names = iter(range(len(values)))
    named = re.sub(r"\?", lambda _: f":cardkit_{next(names)}", sql)
    return named, {f"cardkit_{i}": v for i, v in enumerate(values)}


def search_filter(text: str, game: str) -> FilterArguments:
    """The WHERE clause, parameters and description for a search of a table of `game` ("*" for `cards`)."""
    from cardkit.db.search import where_clause

    described = f"search {text!r}"
    try:
        sql, values = where_clause(text)
    except CardkitError as exc:
        return FilterArguments(["0"], {}, [f"{described} is not understood: {exc.message}"],
                               {"supports_search": True, "search": text, "search_error": exc.message})
    named, params = _named(sql, values)
    if game != ALL_GAMES:
        params["cardkit_game"] = game
        named = f"id in (select id from cards where game = :cardkit_game and ({named}))"
    return FilterArguments([named], params, [described], {"supports_search": True, "search": text})


# Last, so its `supports_search` wins over Datasette's own search filter, which finds no FTS table.
@hookimpl(trylast=True)
def filters_from_request(request: Any, database: str, table: str, datasette: Any) -> FilterArguments | None:
    game = search_game(datasette, database, table)
    if game is None:
        return None
    text = request.args.get("_search", "").strip()
    if not text:
        return FilterArguments([], {}, [], {"supports_search": True, "search": ""})
    return search_filter(text, game)
