"""What the served queries' bounded functions cost cardkit's own searches (`cardkit/web/querylimits.py`).

    python benchmarks/bench_serve_query_limits.py [--repeat 30]

The server's connections answer `instr`, `replace` and `printf` with Python functions that refuse
or avoid the one-step work SQLite's time limit can't reach (`instr` of two long strings took 15 s).
The table search and the ranked search call `instr` once per card and word, so each search is
timed on a connection with them (as served) and on one without (the floor), interleaved.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _timing import interleaved_medians, ratio_line  # noqa: E402

SEARCHES = ("koch", "guts", "e:forest elite:yes", "c:red lv<=2")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    from cardkit.db.build import ensure_database
    from cardkit.db.search import search_connection
    from cardkit.web.plugin import prepare_connection as with_fold
    from cardkit.web.querylimits import prepare_connection as with_limits

    db = ensure_database()
    plain, bounded = sqlite3.connect(db), sqlite3.connect(db)
    with_fold(plain)
    with_fold(bounded)
    with_limits(bounded)

    def searches(conn: sqlite3.Connection) -> None:
        for text in SEARCHES:
            search_connection(conn, text, limit=100)

    medians = interleaved_medians({"bounded": lambda: searches(bounded), "plain": lambda: searches(plain)},
                                  args.repeat)
    print(f"{len(SEARCHES)} searches: {medians['bounded'] * 1000:.2f} ms with the bounded functions, "
          f"{medians['plain'] * 1000:.2f} ms with SQLite's own")
    print(ratio_line("served searches with the bounded SQL functions", medians["bounded"], medians["plain"],
                     "SQLite's own functions", goal=3))


if __name__ == "__main__":
    main()
