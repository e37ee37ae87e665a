"""`cardkit cards search|show`: finding cards by name and field filters, and one card by id or name.

Search runs on the SQLite database rather than on the JSON in memory,
measured (benchmarks/bench_build.py): a search, staleness check included,
takes about 5 ms, while a fresh process needs about 14 ms just to load the
catalogue's JSON and about 70 ms to flatten and fold every card the way the
build does. The common `cards` table also flattens each game's cost, kind
and elements into shared columns, so a filter is one SQL condition, and the
same table serves Datasette.
"""

from __future__ import annotations

import difflib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardkit.catalogue.store import Card, CardId
from cardkit.db.build import build_database, ensure_database, read_meta
from cardkit.db.query import AllOf, FieldKind, Filter, Node, Not, Query, Word, parse_query
from cardkit.errors import AmbiguousCard, BadArgument, CardNotFound, CatalogueError, UnknownGame
from cardkit.games.registry import GAMES, game_module
from cardkit.textfold import fold, fold_latin, folded_words, loose_latin
from cardkit.visible import quoted

_CHECKED_VALUES = ("set", "kind", "colour", "element", "rarity")


@dataclass(frozen=True)
class Hit:
    """A matching card: the shared columns for display, and the full card."""

    game: str
    id: CardId
    name: str
    latin: str
    kind: str | None
    cost: int | None
    colour: str | None
    elements: str | None
    level: int | None
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, **self.card}


@dataclass(frozen=True)
class SearchResult:
    query: Query
    hits: list[Hit]
    total: int
    # Close names when nothing matched and the query had words: the "did you mean" of a typo.
    suggestions: tuple[str, ...] = ()
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        """`cards search --json`: `total` counts every match, `cards` holds those shown (fewer under a limit)."""
        return {"query": self.text, "total": self.total, "shown": len(self.hits),
                "cards": [h.to_dict() for h in self.hits], "suggestions": list(self.suggestions)}


def _id_values(value: str) -> list[str]:
    """The id as typed plus each game's normal form of it (`BK1-9` -> `BK1-009`)."""
    values = {value}
    for game in GAMES:
        normalise = getattr(game_module(game, "importer"), "normalise_id", None)
        if normalise and (normal := normalise(value)):
            values.add(normal)
    return sorted(values)


def _condition(f: Filter) -> tuple[str, list[Any]]:
    col, op = f.field.column, f.op
    if f.field.kind is FieldKind.ELEMENT:
        value = str(f.value).lower()
        if value == "neutral":
            return (f"{col} = ''" if op == "=" else f"{col} != ''"), []
        has = f"instr(',' || {col} || ',', ',' || ? || ',')"
        return (f"{has} > 0" if op == "=" else f"{col} IS NOT NULL AND {has} = 0"), [value]
    if f.field.name == "id":
        values = _id_values(str(f.value))
        marks = ", ".join("?" * len(values))
        return f"{col} COLLATE NOCASE {'IN' if op == '=' else 'NOT IN'} ({marks})", values
    if f.field.kind is FieldKind.TEXT:
        return f"{col} {op} ? COLLATE NOCASE", [f.value]
    return f"{col} {op} ?", [int(f.value)]


def _known_values(conn: sqlite3.Connection, f: Filter, known: dict[str, set[str]] | None = None) -> set[str]:
    if known is not None and f.field.name in known:
        return known[f.field.name]
    found = {str(v).casefold() for (v,) in conn.execute(f"SELECT DISTINCT {f.field.column} FROM cards") if v is not None}
    if f.field.kind is FieldKind.ELEMENT:
        found = {e for v in found for e in v.split(",") if e} | {"neutral"}
    if known is not None:
        known[f.field.name] = found
    return found


def _check_values(conn: sqlite3.Connection, query: Query, known: dict[str, set[str]] | None = None) -> None:
    """A value no card has is a typo more often than a real question: say which values exist."""
    for f in query.filters:
        if f.field.name == "game" and f.value not in GAMES:
            raise UnknownGame(str(f.value))
        if f.field.name in _CHECKED_VALUES:
            values = _known_values(conn, f, known)
            if str(f.value).casefold() not in values:
                raise BadArgument(f"no card has {f.field.name} {quoted(f.value)}; known values: {', '.join(sorted(values))}")


# Merging letters can shrink a word to one or two letters (`zzzz` -> `z`) that occur in hundreds of
# names; below this length only the exact spellings are searched.
MIN_LOOSE_LENGTH = 3


def _word_keys(word: str) -> list[str]:
    """The keys a query word is looked up under in `search_key`: as typed, transliterated and, if long enough, loose."""
    keys = [" ".join(folded_words(word, key)) for key in (fold, fold_latin)]
    loose = " ".join(folded_words(word, loose_latin))
    if len(loose.replace(" ", "")) >= MIN_LOOSE_LENGTH:
        # The loose key is a fallback, not a replacement: merging letters can split a word's match.
        keys.append(loose)
    return list(dict.fromkeys(k for k in keys if k))


def _word_condition(word: str) -> tuple[str, list[Any]]:
    """A word matches where one of its keys begins a word of the name, transliteration or id (never mid-word)."""
    keys = _word_keys(word)
    if not keys:
        return "1", []
    return "(" + " OR ".join("instr(search_key, ?) > 0" for _ in keys) + ")", [" " + k for k in keys]


def _node(node: Node) -> tuple[str, list[Any]]:
    if isinstance(node, Word):
        return _word_condition(node.text)
    if isinstance(node, Filter):
        return _condition(node)
    if isinstance(node, Not):
        sql, params = _node(node.term)
        # A field a card's game lacks never matches, negated or not: NOT over NULL stays out.
        return f"coalesce(NOT ({sql}), 0)", params
    parts = [_node(t) for t in node.terms]
    joiner = " AND " if isinstance(node, AllOf) else " OR "
    return "(" + joiner.join(sql for sql, _ in parts) + ")", [p for _, params in parts for p in params]


def _where(query: Query, game: str | None) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if game is not None:
        if game not in GAMES:
            raise UnknownGame(game)
        clauses.append("game = ?")
        params.append(game)
    if query.tree is not None:
        sql, values = _node(query.tree)
        clauses.append(sql)
        params += values
    else:
        for word in query.words:
            if not fold(word):
                continue
            sql, values = _word_condition(word)
            clauses.append(sql)
            params += values
        for f in query.filters:
            sql, values = _condition(f)
            clauses.append(sql)
            params += values
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def where_clause(text: str, game: str | None = None) -> tuple[str, list[Any]]:
    """The SQL condition on `cards` for a query, with its parameters ("1" for an empty query), for other front ends."""
    where, params = _where(parse_query(text), game)
    return (where.removeprefix(" WHERE ") or "1"), params


def _order_by(query: Query) -> tuple[str, list[Any]]:
    """`order:` fields first, then exact names, then names that begin with the words, then catalogue order."""
    parts: list[str] = []
    params: list[Any] = []
    for o in query.order:
        # A card without the value (another game's field) sorts last either way.
        parts.append(f"{o.column} IS NULL, {o.column} {'DESC' if o.descending else 'ASC'}")
    words = " ".join(query.ranked_words)
    if fold(words):
        name, latin, loose = fold(words), fold_latin(words), loose_latin(words)
        parts.append("CASE WHEN name_key = ? OR latin_key = ? OR loose_key = ? THEN 0 "
                     "WHEN substr(name_key, 1, ?) = ? OR substr(latin_key, 1, ?) = ? THEN 1 ELSE 2 END")
        params += [name, latin, loose, len(name), name, len(latin), latin]
    parts.append("position")
    return " ORDER BY " + ", ".join(parts), params


# How alike a name must be to a query (difflib's ratio) to be offered when nothing matched.
SUGGEST_RATIO = 0.75
SUGGESTIONS = 5


def _suggestions(conn: sqlite3.Connection, query: Query, game: str | None) -> tuple[str, ...]:
    """Names close to the query's words, best first, for a query that matched nothing."""
    words = fold_latin(" ".join(query.ranked_words))
    if not words:
        return ()
    sql = "SELECT DISTINCT name, latin FROM cards" + (" WHERE game = ?" if game else "")
    scored: dict[str, float] = {}
    for name, latin in conn.execute(sql, [game] if game else []):
        candidates = {fold_latin(name), fold_latin(latin), *folded_words(name, fold_latin), *folded_words(latin, fold_latin)}
        # The length bound (`real_quick_ratio`) first: a 3,000-letter query is compared with no name at all.
        best = max((m.ratio() for c in candidates if c
                    if (m := difflib.SequenceMatcher(None, words, c)).real_quick_ratio() >= SUGGEST_RATIO),
                   default=0.0)
        if best >= SUGGEST_RATIO:
            scored[name] = max(best, scored.get(name, 0.0))
    return tuple(sorted(scored, key=lambda n: (-scored[n], n))[:SUGGESTIONS])


def check_query(conn: sqlite3.Connection, text: str, known: dict[str, set[str]] | None = None) -> Query:
    """`text` parsed, its filter values checked against the cards: the reason a search would show no rows.

    Raises `BadArgument` (an unknown field names the known ones, a value no card has the known
    values) or `UnknownGame`, as `search_connection` does, for a front end that runs its own SQL.
    `known` keeps each field's values between calls, for a database that never changes (a server's).
    """
    query = parse_query(text)
    _check_values(conn, query, known)
    return query


def close_names(conn: sqlite3.Connection, text: str, game: str | None = None) -> tuple[str, ...]:
    """Names close to a query's words ("did you mean"), for a front end holding its own connection."""
    return _suggestions(conn, parse_query(text), game)


def search_connection(conn: sqlite3.Connection, text: str, game: str | None = None,
                      limit: int | None = None) -> SearchResult:
    """`search_cards` on an open connection to a built database (a server's own, say)."""
    query = parse_query(text)
    if limit is not None and limit < 1:
        raise BadArgument("must be at least 1", "limit")
    _check_values(conn, query)
    where, params = _where(query, game)
    order, order_params = _order_by(query)
    rows = conn.execute(
        "SELECT game, id, name, latin, kind, cost, colour, elements, level, data FROM cards"
        f"{where}{order}",
        params + order_params,
    ).fetchall()
    suggestions = _suggestions(conn, query, game) if not rows else ()
    hits = [_hit(*row) for row in rows]
    return SearchResult(query=query, hits=hits[:limit] if limit else hits, total=len(hits), suggestions=suggestions,
                        text=text)


def search_cards(text: str, game: str | None = None, limit: int | None = None, db: Path | None = None) -> SearchResult:
    """Cards matching `text` (see `cardkit.db.query`): by `order:`, then exact and prefix name matches, then catalogue order."""
    parse_query(text)  # a bad query is reported before any database is built
    if limit is not None and limit < 1:
        raise BadArgument("must be at least 1", "limit")
    path = ensure_database(db)
    try:
        return _search_file(path, text, game, limit)
    except sqlite3.DatabaseError as exc:
        if not _damaged(exc) or read_meta(path) is None:
            raise CatalogueError(f"the database {path} can't be read: {exc}") from None
        # Our own database, damaged on disk: rebuild it, as a stale one is, and ask again.
        build_database(path)
        return _search_file(path, text, game, limit)


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text or "corrupt" in text


def _search_file(path: Path, text: str, game: str | None, limit: int | None) -> SearchResult:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return search_connection(conn, text, game, limit)
    finally:
        conn.close()


def _hit(game: str, card_id: CardId, name: str, latin: str, kind: str | None, cost: int | None, colour: str | None,
         elements: str | None, level: int | None, data: str) -> Hit:
    """A row of the SELECT above as a Hit."""
    return Hit(game, card_id, name, latin, kind, cost, colour, elements, level, json.loads(data))


@dataclass(frozen=True)
class FoundCard:
    game: str
    card: Card

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, **self.card}


def find_card(text: str, game: str | None = None) -> FoundCard:
    """The one card `text` names (id, `NAME (ID)`, name in any case or script).

    Raises `AmbiguousCard` listing the candidates, or `CardNotFound` with suggestions.
    """
    from cardkit.catalogue.lookup import card_index

    if game is not None and game not in GAMES:
        raise UnknownGame(game)
    games = (game,) if game else GAMES
    matches: list[tuple[str, CardId]] = []
    suggestions: list[str] = []
    for g in games:
        found = card_index(g).find(text)
        matches += [(g, cid) for cid in found.ids]
        suggestions += found.suggestions
    if len(matches) == 1:
        g, cid = matches[0]
        return FoundCard(g, card_index(g).catalogue.cards[cid])
    if matches:
        several_games = len({g for g, _ in matches}) > 1
        raise AmbiguousCard(text, [
            f"{card_index(g).catalogue.cards[cid]['name']} ({cid})" + (f" in {g}" if several_games else "")
            for g, cid in matches
        ])
    key = fold_latin(text)
    ranked = sorted(suggestions, key=lambda s: -difflib.SequenceMatcher(None, key, fold_latin(s)).ratio())
    raise CardNotFound(text, ranked[:5])
