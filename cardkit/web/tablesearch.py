"""A search box on every table: the query language on tables of cards, words in chosen columns on the others.

`?_search=` on `cards` and on each game's table runs `cardkit.db.search`'s query language (the same
as `cardkit cards search`), checked as the CLI checks it, so an unknown field or a value no card has
is said rather than shown as an empty table; a search's `order:` becomes the table's sort where the
table has the column. On the other tables (sets, formats, ships, an attached tournament database's
tables) it finds the rows where every word appears in one of the table's searched columns, folded as
names are. Which tables take which search is metadata (`plugins.cardkit.search_game`, `order_columns`
or `search_columns`, written by `cardkit.web.metadata`). The Datasette hooks are in `cardkit.web.plugin`.
"""

from __future__ import annotations

import re
from typing import Any

from datasette.filters import FilterArguments

from cardkit.errors import BadArgument, CardkitError

PLUGIN = "cardkit"
# The game a table's rows belong to, or "*" for the shared `cards` table.
ALL_GAMES = "*"


def plugin_config(datasette: Any, database: str, table: str | None = None) -> dict[str, Any]:
    """The plugin's configuration of a database (or of one of its tables), from the metadata."""
    config = datasette.plugin_config(PLUGIN, database=database, table=table, fallback=False)
    return config if isinstance(config, dict) else {}


def search_game(datasette: Any, database: str, table: str) -> str | None:
    """The game whose cards `table` lists ("*" for all), or None for a table the query language does not search."""
    config = plugin_config(datasette, database, table)
    game = config.get("search_game")
    return game if isinstance(game, str) else None


def _named(sql: str, values: list[Any]) -> tuple[str, dict[str, Any]]:
    """`?` placeholders as Datasette's named ones (`:cardkit_0`, ...)."""
    names = iter(range(len(values)))
    named = re.sub(r"\?", lambda _: f":cardkit_{next(names)}", sql)
    return named, {f"cardkit_{i}": v for i, v in enumerate(values)}


# A search is repeated in the page's row count and title; a long one is cut there (the box holds it whole).
SHOWN_SEARCH = 60


def _shown_search(text: str) -> str:
    return repr(text if len(text) <= SHOWN_SEARCH else text[:SHOWN_SEARCH - 1] + "…")


def search_filter(text: str, game: str, problem: str | None = None) -> FilterArguments:
    """The WHERE clause, parameters and description for a search of a table of `game` ("*" for `cards`).

    A query that cannot be read, or that names a field or value no card has (`problem`, from
    `check_query`), finds no rows; why is page context (`search_error`) for the body, never the heading.
    """
    from cardkit.db.search import where_clause

    try:
        if problem is not None:
            raise BadArgument(problem)
        sql, values = where_clause(text)
    except CardkitError as exc:
        # JSON readers get why in the description; the HTML page says it in its body instead (table.html).
        return FilterArguments(["0"], {}, [f"search {_shown_search(text)} is not understood: {exc.message}"],
                               {"supports_search": True, "search": text, "search_error": exc.message})
    named, params = _named(sql, values)
    if game != ALL_GAMES:
        params["cardkit_game"] = game
        named = f"id in (select id from cards where game = :cardkit_game and ({named}))"
    return FilterArguments([named], params, [f"search {_shown_search(text)}"], {"supports_search": True, "search": text})


_KNOWN_VALUES: dict[str, dict[str, set[str]]] = {}


async def checked_search_filter(datasette: Any, database: str, text: str, game: str) -> FilterArguments:
    """`search_filter` after checking the query's fields and values against the served cards, as the CLI does."""
    from cardkit.db.search import check_query
    from cardkit.web.querylimits import time_limited

    db = datasette.get_database(database)
    # Served files are immutable: each field's values are read once per file, not on every search.
    known = _KNOWN_VALUES.setdefault(str(db.path), {})
    try:
        await db.execute_fn(time_limited(datasette, lambda conn: check_query(conn, text, known)))
    except CardkitError as exc:
        return search_filter(text, game, exc.message)
    return search_filter(text, game)


def search_columns(datasette: Any, database: str, table: str) -> list[str]:
    """The columns a table's word search looks in; empty for a table without one."""
    config = plugin_config(datasette, database, table)
    columns = config.get("search_columns")
    return [c for c in columns if isinstance(c, str)] if isinstance(columns, list) else []


FOLD_FUNCTION = "cardkit_fold"
# A quoted phrase is one term; anything else splits at spaces.
_TERMS = re.compile(r'"([^"]*)"|(\S+)')


def fold_cell(value: Any) -> str | None:
    from cardkit.textfold import fold_latin

    return None if value is None else fold_latin(str(value))


def search_terms(text: str) -> list[str]:
    """The search's terms, each folded as `cardkit_fold` folds a cell; terms that fold to nothing are dropped."""
    from cardkit.textfold import fold_latin

    return [key for quoted, word in _TERMS.findall(text) if (key := fold_latin(quoted or word))]


def column_search_filter(text: str, columns: list[str]) -> FilterArguments:
    """Rows where every term of `text` appears in one of `columns` (a table that holds no cards)."""
    from cardkit.db.query import MAX_TERMS

    terms = search_terms(text)
    context = {"supports_search": True, "search": text, "cardkit_search_columns": columns}
    if not terms:
        return FilterArguments([], {}, [], context)
    if len(terms) > MAX_TERMS:
        # As the query language does: SQLite refuses an expression nested much deeper than this.
        problem = f"it has {len(terms)} words; at most {MAX_TERMS} are read"
        return FilterArguments(["0"], {}, [f"search {_shown_search(text)} is not understood: {problem}"],
                               {**context, "search_error": problem})
    wheres = []
    for i, _ in enumerate(terms):
        wheres.append("(" + " or ".join(
            f'instr({FOLD_FUNCTION}("{c.replace(chr(34), chr(34) * 2)}"), :cardkit_term_{i}) > 0' for c in columns) + ")")
    params = {f"cardkit_term_{i}": t for i, t in enumerate(terms)}
    return FilterArguments([" and ".join(wheres)], params, [f"search {_shown_search(text)} in {', '.join(columns)}"], context)


def searched_table(datasette: Any, path: str) -> tuple[str, str] | None:
    """(database, table) for a table page (HTML, JSON or CSV) that the query language searches, else None."""
    parts = path.strip("/").split("/")
    if len(parts) != 2:
        return None
    database, table = parts[0], parts[1].rsplit(".", 1)[0] if parts[1].endswith((".json", ".csv")) else parts[1]
    if database in datasette.databases and search_game(datasette, database, table) is not None:
        return database, table
    return None


def order_columns(datasette: Any, database: str, table: str) -> dict[str, str]:
    """The query language's `order:` fields that sort this table, each with the column it sorts by."""
    config = plugin_config(datasette, database, table)
    columns = config.get("order_columns")
    return {f: c for f, c in columns.items() if isinstance(c, str)} if isinstance(columns, dict) else {}


def order_sort(text: str, columns: dict[str, str]) -> tuple[str, str] | None:
    """(`_sort` or `_sort_desc`, column) for a search's first `order:` field when it sorts this table."""
    from cardkit.db.query import parse_query

    try:
        order = parse_query(text).order
    except CardkitError:
        return None
    if not order or order[0].field not in columns:
        return None
    return ("_sort_desc" if order[0].descending else "_sort"), columns[order[0].field]


def order_note(text: str, columns: dict[str, str]) -> str | None:
    """What the table page cannot do of a search's `order:` (the ranked page and the CLI can), or None."""
    from cardkit.db.query import parse_query

    try:
        order = parse_query(text).order
    except CardkitError:
        return None
    if not order:
        return None
    if order[0].field not in columns:
        return f"order:{order[0].field} does not sort this table (it has no such column to sort by)"
    if len(order) > 1:
        return f"this table sorts by order:{order[0].field} only"
    return None


def query_text(query: bytes) -> str:
    """The `_search` text of a raw query string, decoded as Datasette decodes it."""
    from urllib.parse import parse_qs

    values = parse_qs(query.decode("latin-1"), keep_blank_values=True, errors="replace").get("_search", [""])
    return values[0].strip()
