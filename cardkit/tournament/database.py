"""An event check as SQLite tables (events, decks, verdicts, problems) that Datasette can serve beside the catalogue."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from contextlib import closing
from datetime import UTC, datetime
from operator import itemgetter
from pathlib import Path
from typing import Any

from cardkit import __version__
from cardkit.outputs import Kind, Output
from cardkit.problems import Severity
from cardkit.tournament.check import EventCheck, Verdict

SCHEMA: tuple[str, ...] = (
    "CREATE TABLE events (id INTEGER PRIMARY KEY, name TEXT NOT NULL, format TEXT, registrations TEXT, ok INTEGER NOT NULL, "
    "rows INTEGER NOT NULL, legal INTEGER NOT NULL, illegal INTEGER NOT NULL, unreadable INTEGER NOT NULL, "
    "missing INTEGER NOT NULL, warnings INTEGER NOT NULL)",
    "CREATE TABLE decks (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id), path TEXT NOT NULL, "
    "player TEXT, name TEXT, game TEXT, format TEXT, hash TEXT, main INTEGER, side INTEGER, mix TEXT)",
    "CREATE TABLE deck_cards (id INTEGER PRIMARY KEY, deck_id INTEGER NOT NULL REFERENCES decks(id), "
    "section TEXT NOT NULL, game TEXT NOT NULL, card TEXT NOT NULL, count INTEGER NOT NULL, line INTEGER)",
    "CREATE TABLE cards (game TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, kind TEXT, colours TEXT, "
    "PRIMARY KEY (game, id))",
    "CREATE TABLE verdicts (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id), "
    "deck_id INTEGER REFERENCES decks(id), player TEXT, verdict TEXT NOT NULL, legal INTEGER NOT NULL, "
    "errors INTEGER NOT NULL, warnings INTEGER NOT NULL, first_problem TEXT)",
    "CREATE TABLE problems (id INTEGER PRIMARY KEY, verdict_id INTEGER NOT NULL REFERENCES verdicts(id), "
    "event_id INTEGER REFERENCES events(id), code TEXT NOT NULL, severity TEXT NOT NULL, message TEXT NOT NULL, "
    "card TEXT, line INTEGER, lim TEXT, actual TEXT)",
    "CREATE TABLE event_problems (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id), "
    "code TEXT NOT NULL, severity TEXT NOT NULL, message TEXT NOT NULL, line INTEGER, file TEXT)",
    # The field's statistics, from the one table of deck cards `tournament publish` uses (cardkit.tournament.metagame).
    "CREATE TABLE metagame_mixes (event_id INTEGER NOT NULL REFERENCES events(id), game TEXT NOT NULL, mix TEXT NOT NULL, "
    "decks INTEGER NOT NULL, percent REAL NOT NULL)",
    "CREATE TABLE metagame_cards (event_id INTEGER NOT NULL REFERENCES events(id), game TEXT NOT NULL, card TEXT NOT NULL, "
    "name TEXT NOT NULL, kind TEXT, decks INTEGER NOT NULL, percent REAL NOT NULL, copies INTEGER NOT NULL, "
    "average REAL NOT NULL, fewest INTEGER NOT NULL, most INTEGER NOT NULL)",
    "CREATE TABLE metagame_sizes (event_id INTEGER NOT NULL REFERENCES events(id), game TEXT NOT NULL, "
    "main INTEGER NOT NULL, decks INTEGER NOT NULL)",
    # Not `meta`: a file with a `meta` table passes for a catalogue build, which `cardkit serve --db` may rebuild.
    "CREATE TABLE tournament_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE INDEX decks_hash ON decks(hash)",
    "CREATE INDEX verdicts_verdict ON verdicts(verdict)",
    "CREATE INDEX problems_code ON problems(code)",
    "CREATE INDEX deck_cards_card ON deck_cards(game, card)",
    "CREATE INDEX deck_cards_deck ON deck_cards(deck_id)",
)
"""`verdicts` has one row per submission and per missing player (then `deck_id` is NULL);
`problems.lim`/`actual` hold JSON; `event_problems` are the registration list's own problems;
`tournament_meta` marks the file as a tournament database (`kind`) and says what wrote it.
`deck_cards` holds each readable deck's resolved list, one row per card and section; `cards`
the catalogue's name, kind and colours (or elements) of every card those lists name, so the
lists can be read and grouped without the catalogue database beside them. `metagame_mixes`,
`metagame_cards` and `metagame_sizes` are the legal decks' statistics as the published page shows
them (the same rows make both), one set per event."""

DATA_TABLES: tuple[str, ...] = ("events", "decks", "deck_cards", "cards", "verdicts", "problems", "event_problems",
                                "metagame_mixes", "metagame_cards", "metagame_sizes")
METAGAME_TABLES: tuple[str, ...] = ("mixes", "cards", "sizes")
"""The metagame tables (`cardkit.tournament.metagame`) kept as `metagame_NAME`."""
# A file written before the decklists were kept (layout 1) lacks these; it is still a tournament database.
_LAYOUT_1_TABLES: tuple[str, ...] = ("events", "decks", "verdicts", "problems", "event_problems")
MARKER_TABLE = "tournament_meta"
KIND = "cardkit-tournament"
# Bump when tables or columns change, so a reader can tell which layout a file has.
LAYOUT_VERSION = "3"


def is_tournament_database(path: str | os.PathLike[str]) -> bool:
    """True for a SQLite file `write_database` wrote: its marker says so, or (older files) it has every data table."""
    try:
        with closing(sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True)) as conn:
            tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if MARKER_TABLE not in tables:
                return set(_LAYOUT_1_TABLES) <= tables
            row = conn.execute(f"SELECT value FROM {MARKER_TABLE} WHERE key = 'kind'").fetchone()
            return row is not None and row[0] == KIND
    except sqlite3.Error:
        return False


TOURNAMENT_DATABASE = Kind("tournament database", is_tournament_database, forceable=False)


# Enum members' `.value` is a property lookup; a big event asks it 25,000 times.
_VERDICT: dict[Verdict, str] = {v: v.value for v in Verdict}
_SEVERITY: dict[Severity, str] = {s: s.value for s in Severity}


def _json(value: Any) -> str | None:
    if value is None:
        return None
    # Most limits and counts are plain integers, whose JSON text is their decimal digits (bool is not int here).
    if type(value) is int:
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def write_database(results: list[EventCheck], out: str | os.PathLike[str],
                   inputs: Iterable[str | os.PathLike[str]] = ()) -> dict[str, int]:
    """Write `results` to a fresh SQLite file at `out`, atomically; the row count per data table.

    Through the guarded writer: never over an input (the events' decks and registration lists
    are added here), a special file, or a file that is not a tournament database cardkit wrote.
    """
    from cardkit.tournament.batch import collector_paused
    from cardkit.tournament.reports import new_inputs, result_inputs

    target = Path(out)
    given = tuple(inputs)
    output = Output(target, TOURNAMENT_DATABASE, given).with_inputs(
        new_inputs(given, [p for r in results for p in result_inputs(r)]))
    with collector_paused(), output.database() as conn:
        # Indexes after the rows: building each once is cheaper than keeping it up to date row by row.
        indexes = [statement for statement in SCHEMA if statement.startswith("CREATE INDEX")]
        for statement in SCHEMA:
            if statement not in indexes:
                conn.execute(statement)
        conn.executemany(f"INSERT INTO {MARKER_TABLE} (key, value) VALUES (?, ?)", [
            ("kind", KIND), ("layout", LAYOUT_VERSION), ("version", __version__),
            ("written_at", datetime.now(UTC).isoformat(timespec="seconds"))])
        played: dict[str, set[str]] = {}
        for result in results:
            _insert(conn, result, played)
        _insert_cards(conn, played)
        for statement in indexes:
            conn.execute(statement)
        counts = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in DATA_TABLES}
    return counts


def _insert_cards(conn: Any, played: dict[str, set[str]]) -> None:
    from cardkit.catalogue.store import load_game
    from cardkit.tournament.metagame import card_colours, card_kind

    for game in sorted(played):
        cards = load_game(game).cards
        conn.executemany("INSERT INTO cards (game, id, name, kind, colours) VALUES (?,?,?,?,?)",
                         [(game, cid, cards[cid]["name"], card_kind(cards[cid]), ",".join(card_colours(game, cards[cid])))
                          for cid in cards if cid in played[game]])


def _next_id(conn: Any, table: str) -> int:
    return int(conn.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}").fetchone()[0])


def _insert(conn: Any, result: EventCheck, played: dict[str, set[str]]) -> None:
    """One event's rows. Ids are given here rather than read back row by row, so each table takes one
    `executemany`: a statement per deck was most of the time `db` spent beyond the check."""
    from cardkit.tournament.metagame import COLUMNS, deck_cards, group_field, mix

    s = result.summary()
    event_id = conn.execute(
        "INSERT INTO events (name, format, registrations, ok, rows, legal, illegal, unreadable, missing, warnings) "
        "VALUES (?,?,?,?,?,?,?,?,?,?)",
        (result.event, result.format, result.registrations, int(result.ok), s["rows"], s["legal"], s["illegal"],
         s["unreadable"], s["missing"], s["warnings"])).lastrowid
    conn.executemany("INSERT INTO event_problems (event_id, code, severity, message, line, file) VALUES (?,?,?,?,?,?)",
                     [(event_id, p.code, _SEVERITY[p.severity], p.message, p.line, p.file) for p in result.problems])
    field_cards, field_decks, _ = deck_cards(result)
    # The legal decks' mixes, worked out for the field: not worked out again.
    mixes: dict[str, str] = {row[3]: row[5] for row in field_decks}
    deck_id, verdict_id = _next_id(conn, "decks"), _next_id(conn, "verdicts")
    decks: list[tuple[Any, ...]] = []
    cards: list[tuple[Any, ...]] = []
    verdicts: list[tuple[Any, ...]] = []
    problems: list[tuple[Any, ...]] = []
    card_id = itemgetter(1)
    for sub in result.submissions:
        this_deck = None
        if not sub.missing:
            r = sub.report
            readable = r.failure is None
            this_deck, deck_id = deck_id, deck_id + 1
            deck_mix = mixes.get(sub.path) or (mix(r.game, [c.card for c in sub.cards if c.section == "main"])
                                               if readable else None)
            decks.append((this_deck, event_id, sub.path, sub.player, sub.name, r.game, r.format, sub.hash,
                          r.counts["main"] if readable else None, r.counts["side"] if readable else None, deck_mix))
            if r.game is not None and sub.cards:
                # A listed card is (section, card, copies, line): the row is the deck and game before it.
                head = (this_deck, r.game)
                cards += [head + c for c in sub.cards]
                played.setdefault(r.game, set()).update(map(card_id, sub.cards))
        # `errors` and `warnings` would each work over the problems again: counted once.
        found = sub.problems
        errors = sum(p.is_error for p in found)
        first = sub.first_problem
        verdict = _VERDICT[sub.verdict]
        verdicts.append((verdict_id, event_id, this_deck, sub.player, verdict, int(verdict == "legal"), errors,
                         len(found) - errors, first.code if first else None))
        problems += [(verdict_id, event_id, p.code, _SEVERITY[p.severity], p.message, p.card, p.line, _json(p.limit),
                      _json(p.actual)) for p in found]
        verdict_id += 1
    conn.executemany("INSERT INTO decks (id, event_id, path, player, name, game, format, hash, main, side, mix) "
                     "VALUES (?,?,?,?,?,?,?,?,?,?,?)", decks)
    conn.executemany("INSERT INTO deck_cards (deck_id, game, section, card, count, line) VALUES (?,?,?,?,?,?)", cards)
    conn.executemany("INSERT INTO verdicts (id, event_id, deck_id, player, verdict, legal, errors, warnings, "
                     "first_problem) VALUES (?,?,?,?,?,?,?,?,?)", verdicts)
    conn.executemany("INSERT INTO problems (verdict_id, event_id, code, severity, message, card, line, lim, actual) "
                     "VALUES (?,?,?,?,?,?,?,?,?)", problems)
    tables = group_field(field_cards, field_decks)
    for name in METAGAME_TABLES:
        columns = ", ".join(["event_id", *COLUMNS[name]])
        marks = ", ".join("?" * (len(COLUMNS[name]) + 1))
        conn.executemany(f"INSERT INTO metagame_{name} ({columns}) VALUES ({marks})",
                         [(event_id, *row) for row in tables[name]])
