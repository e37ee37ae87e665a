"""An event check as SQLite tables (events, decks, verdicts, problems) that Datasette can serve beside the catalogue."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from cardkit.errors import BadArgument
from cardkit.jsonio import atomic_target
from cardkit.tournament.check import EventCheck

SCHEMA: tuple[str, ...] = (
    "CREATE TABLE events (id INTEGER PRIMARY KEY, name TEXT NOT NULL, format TEXT, registrations TEXT, ok INTEGER NOT NULL, "
    "rows INTEGER NOT NULL, legal INTEGER NOT NULL, illegal INTEGER NOT NULL, unreadable INTEGER NOT NULL, "
    "missing INTEGER NOT NULL, warnings INTEGER NOT NULL)",
    "CREATE TABLE decks (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id), path TEXT NOT NULL, "
    "player TEXT, name TEXT, game TEXT, format TEXT, hash TEXT, main INTEGER, side INTEGER)",
    "CREATE TABLE verdicts (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id), "
    "deck_id INTEGER REFERENCES decks(id), player TEXT, verdict TEXT NOT NULL, legal INTEGER NOT NULL, "
    "errors INTEGER NOT NULL, warnings INTEGER NOT NULL, first_problem TEXT)",
    "CREATE TABLE problems (id INTEGER PRIMARY KEY, verdict_id INTEGER NOT NULL REFERENCES verdicts(id), "
    "event_id INTEGER REFERENCES events(id), code TEXT NOT NULL, severity TEXT NOT NULL, message TEXT NOT NULL, "
    "card TEXT, line INTEGER, lim TEXT, actual TEXT)",
    "CREATE TABLE event_problems (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES events(id), "
    "code TEXT NOT NULL, severity TEXT NOT NULL, message TEXT NOT NULL, line INTEGER, file TEXT)",
    "CREATE INDEX decks_hash ON decks(hash)",
    "CREATE INDEX verdicts_verdict ON verdicts(verdict)",
    "CREATE INDEX problems_code ON problems(code)",
)
"""`verdicts` has one row per submission and per missing player (then `deck_id` is NULL);
`problems.lim`/`actual` hold JSON; `event_problems` are the registration list's own problems."""


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def write_database(results: list[EventCheck], out: str | os.PathLike[str]) -> dict[str, int]:
    """Write `results` to a fresh SQLite file at `out`, atomically; the row count per table."""
    import sqlite3

    target = Path(out)
    try:
        with atomic_target(target) as tmp:
            with sqlite3.connect(tmp) as conn:
                for statement in SCHEMA:
                    conn.execute(statement)
                for result in results:
                    _insert(conn, result)
                counts = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                          for t in ("events", "decks", "verdicts", "problems", "event_problems")}
            conn.close()
    except OSError as exc:
        raise BadArgument(f"can't write {target}: {exc.strerror or exc}") from None
    return counts


def _insert(conn: Any, result: EventCheck) -> None:
    s = result.summary()
    event_id = conn.execute(
        "INSERT INTO events (name, format, registrations, ok, rows, legal, illegal, unreadable, missing, warnings) "
        "VALUES (?,?,?,?,?,?,?,?,?,?)",
        (result.event, result.format, result.registrations, int(result.ok), s["rows"], s["legal"], s["illegal"],
         s["unreadable"], s["missing"], s["warnings"])).lastrowid
    for p in result.problems:
        conn.execute("INSERT INTO event_problems (event_id, code, severity, message, line, file) VALUES (?,?,?,?,?,?)",
                     (event_id, p.code, p.severity.value, p.message, p.line, p.file))
    for sub in result.submissions:
        deck_id = None
        if not sub.missing:
            r = sub.report
            deck_id = conn.execute(
                "INSERT INTO decks (event_id, path, player, name, game, format, hash, main, side) VALUES (?,?,?,?,?,?,?,?,?)",
                (event_id, sub.path, sub.player, sub.name, r.game, r.format, sub.hash,
                 r.counts["main"] if r.failure is None else None, r.counts["side"] if r.failure is None else None)).lastrowid
        problems = sub.problems
        verdict_id = conn.execute(
            "INSERT INTO verdicts (event_id, deck_id, player, verdict, legal, errors, warnings, first_problem) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (event_id, deck_id, sub.player, sub.verdict.value, int(sub.verdict.value == "legal"), sub.errors, sub.warnings,
             sub.first_problem.code if sub.first_problem else None)).lastrowid
        conn.executemany(
            "INSERT INTO problems (verdict_id, event_id, code, severity, message, card, line, lim, actual) "
            "VALUES (?,?,?,?,?,?,?,?,?)",
            [(verdict_id, event_id, p.code, p.severity.value, p.message, p.card, p.line, _json(p.limit), _json(p.actual))
             for p in problems])
