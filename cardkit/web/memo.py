"""What a read-only server works out once: the answers that are the same for every request.

`cardkit serve` serves immutable files under metadata generated once at start-up, so a file's
schema (its tables, their columns and keys) and whether a visitor may see a table cannot change
while it runs. Datasette works both out again on every request (a query in a worker thread for
each, and a deep copy of the whole metadata for each table a page lists); the answers are kept here
per Datasette instance (per database for the schema). Measured by benchmarks/bench_serve.py, the
home page costs about a seventh of the CPU it costs without them, the database page a quarter.

Each instance keeps at most `MAX_REMEMBERED` answers of each kind: the keys include table names
taken from the address, and a visitor asking for a million made-up tables must not grow the memory
(nor crowd out the answers for real ones).
"""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

from datasette.app import Datasette
from datasette.database import Database

T = TypeVar("T")

# Far above what the served files have (about 3,000 cards, a few dozen tables and queries).
MAX_REMEMBERED = 20_000

# Datasette instance -> kind of answer -> key -> answer.
_MEMOS: weakref.WeakKeyDictionary[Any, dict[str, dict[Hashable, Any]]] = weakref.WeakKeyDictionary()


def _memo(datasette: Any, kind: str) -> dict[Hashable, Any]:
    kinds = _MEMOS.get(datasette)
    if kinds is None:
        kinds = _MEMOS[datasette] = {}
    memo = kinds.get(kind)
    if memo is None:
        memo = kinds[kind] = {}
    return memo


def _keep(memo: dict[Hashable, Any], key: Hashable, value: T) -> T:
    if len(memo) < MAX_REMEMBERED:
        memo[key] = value
    return value


async def remembered_async(datasette: Any, kind: str, key: Hashable, work: Callable[[], Awaitable[T]]) -> T:
    """`await work()`, once per Datasette instance, kind and key (two requests at once may both work it out)."""
    memo = _memo(datasette, kind)
    try:
        return memo[key]
    except KeyError:
        return _keep(memo, key, await work())


class ReadOnlyDatasette(Datasette):
    """Datasette over immutable files and fixed metadata: each file's schema is read once, and each
    permission question answered once.

    Datasette asks every database for its schema version before every page, to notice a changed
    file; an immutable one cannot change. The answer to a permission question for an anonymous
    visitor (the only kind `cardkit serve` has: it has no log-in) comes from the metadata, the
    plugins' fixed configuration and the files' schema, none of which changes while the server
    runs. A visitor with an actor (a signed cookie) is asked about every time.
    """

    _schemas_read = False

    async def refresh_schemas(self) -> None:
        if not self._schemas_read:
            await super().refresh_schemas()
            self._schemas_read = True

    async def permission_allowed(self, actor: Any, action: str, resource: Any = None, default: Any = False) -> Any:
        ask = super().permission_allowed
        key = (action, resource, default)
        if actor is not None or not _hashable(key):
            return await ask(actor, action, resource=resource, default=default)
        return await remembered_async(self, "permission", key, lambda: ask(actor, action, resource=resource, default=default))


class ReadOnlyDatabase(Database):
    """A Datasette database over an immutable file, asking SQLite about its schema once per question.

    Each answer is handed out as a copy of its lists and dicts, as a fresh query would give it."""

    async def execute_fn(self, fn: Callable[[Any], T]) -> T:
        # Every query of the server, Datasette's and cardkit's, is interrupted at the time limit.
        from cardkit.web.querylimits import interrupt_at_limit

        return await super().execute_fn(interrupt_at_limit(self.ds, fn))

    async def _remembered(self, question: str, *args: Any) -> Any:
        ask = getattr(super(), question)
        if not _hashable(args):
            return await ask(*args)
        return _copied(await remembered_async(self, "schema", (question, *args), lambda: ask(*args)))

    async def table_exists(self, table: str) -> Any:
        return await self._remembered("table_exists", table)

    async def table_names(self) -> Any:
        return await self._remembered("table_names")

    async def view_names(self) -> Any:
        return await self._remembered("view_names")

    async def hidden_table_names(self) -> Any:
        return await self._remembered("hidden_table_names")

    async def table_columns(self, table: str) -> Any:
        return await self._remembered("table_columns", table)

    async def table_column_details(self, table: str) -> Any:
        return await self._remembered("table_column_details", table)

    async def primary_keys(self, table: str) -> Any:
        return await self._remembered("primary_keys", table)

    async def fts_table(self, table: str) -> Any:
        return await self._remembered("fts_table", table)

    async def label_column_for_table(self, table: str) -> Any:
        return await self._remembered("label_column_for_table", table)

    async def foreign_keys_for_table(self, table: str) -> Any:
        return await self._remembered("foreign_keys_for_table", table)

    async def get_all_foreign_keys(self) -> Any:
        return await self._remembered("get_all_foreign_keys")

    async def get_table_definition(self, table: str, type_: str = "table") -> Any:
        return await self._remembered("get_table_definition", table, type_)

    async def get_view_definition(self, view: str) -> Any:
        return await self._remembered("get_view_definition", view)


def _copied(value: Any) -> Any:
    """`value` with every list and dict in it copied (tuples and strings cannot change)."""
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    return value


def _hashable(key: Hashable) -> bool:
    try:
        hash(key)
    except TypeError:
        return False
    return True
