"""`cardkit build` against its floor, and search against in-memory loading.

    python benchmarks/bench_build.py [--repeat N]

The floor does the least any build of the same database must do: `json.loads` every catalogue and
format file, then create the very tables and insert the very same rows and columns (read back from a
build, outside the timing) with `executemany` in one transaction, make the same indexes (every object
of the built file's schema; the catalogue database has no full-text table, its search key is a column
with the rest), commit. cardkit's build does that and also hashes the files (staleness), checks them
(each file's content is schema-checked once and then remembered, so a rebuild of a catalogue that
passed skips jsonschema), flattens the cards into rows (search keys included) and writes the file
atomically (a private file, synced, then renamed). Both run in this process after one warm-up build,
so imports are not timed. CPU time of this one process (both are one thread; on a shared machine CPU
time moves less with the load than wall time), medians of N interleaved runs. The issue's goal: the
build within 3x its floor.

A row-by-row ORM build (one `session.add` per row) is timed beside them, as the way a first
version would write it.

The command as a user runs it, `cardkit build --out X`, is then timed as a process (CPU time of the
child, its start and imports included, bytecode caches written by a first run as an install does), and
its floor is the in-process floor plus a `python -c "import json, sqlite3"` process: the least a
script doing the floor's work starts with.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import interleaved_medians, ratio_line  # noqa: E402

from cardkit import textfold  # noqa: E402
from cardkit.catalogue.store import _load, catalogue_hash, load_game  # noqa: E402
from cardkit.db.build import build_database, catalogue_inputs, refuse_unchecked, table_sql  # noqa: E402
from cardkit.db.rows import catalogue_rows  # noqa: E402
from cardkit.db.search import search_cards  # noqa: E402
from cardkit.games.registry import GAMES  # noqa: E402

COLUMNS = {name: tuple(columns) for name, columns, _, _ in table_sql()}
# The console script beside this interpreter, as a user runs it; `python -m cardkit` where there is none.
SCRIPT = Path(sys.executable).with_name("cardkit")
CARDKIT = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "cardkit"]


def children_cpu() -> float:
    """CPU seconds of the finished child processes of this one."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(args: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(args, env=env, check=True, capture_output=True, timeout=300)


def floor_build(path: Path, schema: list[str], indexes: list[str], inserts: list[tuple[str, list[tuple]]]) -> None:
    """json.loads of every input file, then the same rows with executemany in one transaction."""
    for source in catalogue_inputs():
        json.loads(source.read_bytes())
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    for sql in schema:
        conn.execute(sql)
    for sql, rows in inserts:
        conn.executemany(sql, rows)
    for sql in indexes:
        conn.execute(sql)
    conn.execute("COMMIT")
    conn.close()


def floor_plan(built: Path) -> tuple[list[str], list[str], list[tuple[str, list[tuple]]]]:
    """The built database's own schema, and its rows as (INSERT, tuples) per table."""
    conn = sqlite3.connect(built)
    objects = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid").fetchall()
    schema = [sql for kind, _, sql in objects if kind == "table"]
    indexes = [sql for kind, _, sql in objects if kind == "index"]
    inserts = []
    for kind, name, _ in objects:
        if kind != "table":
            continue
        cursor = conn.execute(f'SELECT * FROM "{name}"')
        columns = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
        inserts.append((f'INSERT INTO "{name}" ({", ".join(chr(34) + c + chr(34) for c in columns)}) '
                        f'VALUES ({", ".join("?" * len(columns))})', rows))
    conn.close()
    return schema, indexes, inserts


def orm_row_by_row(path: Path) -> None:
    """The same catalogue check and rows, one ORM object and one `session.add` each."""
    from sqlmodel import Session, create_engine

    from cardkit.db.models import MODELS

    rows = catalogue_rows(COLUMNS, documents=refuse_unchecked())
    path.unlink(missing_ok=True)
    engine = create_engine(f"sqlite:///{path}")
    by_table = {m.__tablename__: m for m in MODELS}  # type: ignore[attr-defined]
    for model in MODELS:
        model.__table__.create(engine)  # type: ignore[attr-defined]
    with Session(engine) as session:
        for table, batch in rows.tables.items():
            for row in batch:
                session.add(by_table[table](**dict(zip(COLUMNS[table], row))))
        session.commit()
    engine.dispose()


def forget() -> None:
    """Empty what a process remembers (parsed files, folded words), so every timed build starts as a new
    process would, less its imports."""
    _load.cache_clear()
    textfold._word_keys.cache_clear()
    textfold._fold_remembered.cache_clear()


def flatten(documents: dict[Path, object]) -> None:
    """The rows of every table from catalogue files already parsed (as the build has them after its check)."""
    catalogue_rows(COLUMNS, documents=documents)


def cold_build(path: Path) -> None:
    forget()
    build_database(path)


def load_all_cold() -> None:
    forget()
    for game in GAMES:
        load_game(game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        build_database(folder / "warm.db")  # imports, and the schema check of content new to this machine
        plan = floor_plan(folder / "warm.db")
        cards = sum(len(load_game(g).cards) for g in GAMES)
        documents = refuse_unchecked()
        cpu = time.process_time
        medians = interleaved_medians({
            "build": lambda: cold_build(folder / "cardkit.db"),
            "floor": lambda: floor_build(folder / "floor.db", *plan),
        }, repeat, cpu)
        fast, floor = medians["build"], medians["floor"]
        orm = interleaved_medians({"orm": lambda: orm_row_by_row(folder / "orm.db")}, max(3, repeat // 2), cpu)["orm"]
        parts = interleaved_medians({"check": lambda: (forget(), refuse_unchecked()), "rows": lambda: flatten(documents),
                                     "hash": catalogue_hash}, repeat, cpu)
        print(f"whole-catalogue build ({cards} cards, {len(catalogue_inputs())} files; CPU time, median of {repeat}, "
              f"pid {os.getpid()}):")
        print(f"  cardkit build                                 {fast * 1000:8.1f} ms")
        print(f"    of which the check, parsing included        {parts['check'] * 1000:8.1f} ms   (content seen before)")
        print(f"    of which flattening the cards into rows     {parts['rows'] * 1000:8.1f} ms")
        print(f"    of which hashing the files (staleness)      {parts['hash'] * 1000:8.1f} ms")
        print(f"  floor: json.loads + executemany, one commit   {floor * 1000:8.1f} ms")
        print(f"  a first version: ORM session.add row by row   {orm * 1000:8.1f} ms   ({orm / fast:.1f}x the build)")
        print(ratio_line("build, whole catalogue", fast, floor, "json.loads + executemany", goal=3))

        command = [*CARDKIT, "build", "--out", str(folder / "command.db")]
        bare = [sys.executable, "-c", "import json, sqlite3"]
        run(command)  # bytecode caches, and the table statements remembered
        run(bare)
        started = interleaved_medians({"command": lambda: run(command), "bare": lambda: run(bare)}, repeat, children_cpu)
        floor_command = started["bare"] + floor
        print(f"the command as a process (CPU time of the child, median of {repeat}):")
        print(f"  cardkit build --out X                         {started['command'] * 1000:8.1f} ms")
        print(f"  floor: python -c 'import json, sqlite3'       {started['bare'] * 1000:8.1f} ms   "
              f"+ the floor above = {floor_command * 1000:.1f} ms")
        print(ratio_line("cardkit build --out X, as a process", started["command"], floor_command,
                         "python start + json.loads + executemany", goal=3))

        db = folder / "cardkit.db"
        query = "element:forest elite:yes cost>=5"
        searched = interleaved_medians({"search": lambda: search_cards(query, db=db), "load": load_all_cold}, repeat * 3)
        print(f"search {query!r} (median of {repeat * 3}):")
        print(f"  on SQLite, staleness hash included          {searched['search'] * 1000:8.1f} ms")
        print(f"  baseline: loading the JSON of all games     {searched['load'] * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
