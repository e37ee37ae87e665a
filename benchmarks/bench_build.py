"""Time the whole-catalogue SQLite build against row-by-row ORM inserts, and search against in-memory loading.

    python benchmarks/bench_build.py [--repeat N]

Prints medians of N runs. The baseline builds the same tables from the same
rows with one `session.add` per row, the way an ORM tutorial would.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from cardkit import GAMES
from cardkit.catalogue.store import _load, catalogue_hash, load_game
from cardkit.db.build import build_database, refuse_unchecked
from cardkit.db.rows import catalogue_rows
from cardkit.db.search import search_cards


def median_seconds(job: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def orm_row_by_row(path: Path) -> None:
    """Baseline: the same catalogue check and rows, one ORM object and one `session.add` each."""
    from sqlmodel import Session, create_engine

    from cardkit.db.models import MODELS

    refuse_unchecked()  # the build checks the catalogue first; so does the baseline, doing the same job
    rows = catalogue_rows()
    path.unlink(missing_ok=True)
    engine = create_engine(f"sqlite:///{path}")
    by_table = {m.__tablename__: m for m in MODELS}  # type: ignore[attr-defined]
    for model in MODELS:
        model.__table__.create(engine)  # type: ignore[attr-defined]
    with Session(engine) as session:
        for table, batch in rows.tables.items():
            for row in batch:
                session.add(by_table[table](**row))
        session.commit()
    engine.dispose()


def load_all_cold() -> None:
    _load.cache_clear()
    for game in GAMES:
        load_game(game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        build_database(folder / "warm.db")  # imports sqlalchemy once, outside the timings
        fast = median_seconds(lambda: build_database(folder / "cardkit.db"), repeat)
        slow = median_seconds(lambda: orm_row_by_row(folder / "orm.db"), repeat)
        cards = sum(len(load_game(g).cards) for g in GAMES)
        print(f"whole-catalogue build ({cards} cards, median of {repeat}):")
        print(f"  cardkit build (executemany, one transaction) {fast * 1000:8.1f} ms")
        print(f"  baseline: ORM session.add row by row          {slow * 1000:8.1f} ms   ({slow / fast:.1f}x slower)")
        flatten = median_seconds(catalogue_rows, repeat)
        print(f"  of which reading + flattening the JSON       {flatten * 1000:8.1f} ms")
        checking = median_seconds(refuse_unchecked, repeat)
        print(f"  of which the catalogue check                 {checking * 1000:8.1f} ms")

        db = folder / "cardkit.db"
        query = "element:forest elite:yes cost>=5"
        search = median_seconds(lambda: search_cards(query, db=db), repeat * 3)
        print(f"search {query!r} (median of {repeat * 3}):")
        print(f"  on SQLite, staleness hash included          {search * 1000:8.1f} ms")
        print(f"    of which hashing the catalogue            {median_seconds(catalogue_hash, repeat * 3) * 1000:8.1f} ms")
        print(f"  baseline: loading the JSON of all games     {median_seconds(load_all_cold, repeat * 3) * 1000:8.1f} ms")
        print(f"  baseline: reading + flattening every card   {flatten * 1000:8.1f} ms  (what in memory would redo per run)")


if __name__ == "__main__":
    main()
