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

from cardkit import GAMES
from cardkit.catalogue.store import Card, CardId
from cardkit.db.build import build_database, ensure_database, read_meta
from cardkit.db.query import FieldKind, Filter, Query, parse_query
from cardkit.errors import AmbiguousCard, BadArgument, CardNotFound, CatalogueError, UnknownGame
from cardkit.games import game_module
from cardkit.textfold import fold, fold_latin, loose_latin

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


def _known_values(conn: sqlite3.Connection, f: Filter) -> set[str]:
    found = {str(v).casefold() for (v,) in conn.execute(f"SELECT DISTINCT {f.field.column} FROM cards") if v is not None}
    if f.field.kind is FieldKind.ELEMENT:
        found = {e for v in found for e in v.split(",") if e} | {"neutral"}
    return found


def _check_values(conn: sqlite3.Connection, query: Query) -> None:
    """A value no card has is a typo more often than a real question: say which values exist."""
    for f in query.filters:
        if f.field.name == "game" and f.value not in GAMES:
            raise UnknownGame(str(f.value))
        if f.field.name in _CHECKED_VALUES:
            known = _known_values(conn, f)
            if str(f.value).casefold() not in known:
                raise BadArgument(f"no card has {f.field.name} {f.value!r}; known values: {', '.join(sorted(known))}")


# Merging letters can shrink a word to one or two letters (`zzzz` -> `z`) that occur in hundreds of
# names; below this length only the exact spellings are searched.
MIN_LOOSE_LENGTH = 3


def _where(query: Query, game: str | None) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if game is not None:
        if game not in GAMES:
            raise UnknownGame(game)
        clauses.append("game = ?")
        params.append(game)
    for word in query.words:
        key, latin = fold(word), fold_latin(word)
        if not key:
            continue
        loose = loose_latin(word)
        if len(loose) >= MIN_LOOSE_LENGTH:
            # The loose key is a fallback, not a replacement: merging letters can split a word's match.
            clauses.append("(instr(name_key, ?) > 0 OR instr(latin_key, ?) > 0 OR instr(loose_key, ?) > 0)")
            params += [key, latin, loose]
        else:
            clauses.append("(instr(name_key, ?) > 0 OR instr(latin_key, ?) > 0)")
            params += [key, latin]
    for f in query.filters:
        sql, values = _condition(f)
        clauses.append(sql)
        params += values
    return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def search_cards(text: str, game: str | None = None, limit: int | None = None, db: Path | None = None) -> SearchResult:
    """Cards matching `text` (see `cardkit.db.query`), in catalogue order; at most `limit` of them."""
    query = parse_query(text)
    if limit is not None and limit < 1:
        raise BadArgument("--limit must be at least 1")
    path = ensure_database(db)
    try:
        rows = _select(path, query, game)
    except sqlite3.DatabaseError as exc:
        if not _damaged(exc) or read_meta(path) is None:
            raise CatalogueError(f"the database {path} can't be read: {exc}") from None
        # Our own database, damaged on disk: rebuild it, as a stale one is, and ask again.
        build_database(path)
        rows = _select(path, query, game)
    hits = [_hit(*row) for row in rows]
    return SearchResult(query=query, hits=hits[:limit] if limit else hits, total=len(hits))


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text or "corrupt" in text


def _select(path: Path, query: Query, game: str | None) -> list[Any]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        _check_values(conn, query)
        where, params = _where(query, game)
        return conn.execute(
            "SELECT game, id, name, latin, kind, cost, colour, elements, level, data FROM cards"
            f"{where} ORDER BY position",
            params,
        ).fetchall()
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
