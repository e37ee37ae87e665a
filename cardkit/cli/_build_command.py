"""What `cardkit build` does, without typer: typer's command (cardkit/cli/build.py) and the fast path
(cardkit/cli/_fast.py) both run this, so the two print the same bytes by construction."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

from cardkit.cli._exits import EXIT_OK
from cardkit.cli._output import Echo, json_text


def build(out: Optional[Path], as_json: bool, echo: Echo) -> int:
    """Build the catalogue database at `out` (the default database when None) and report it; the exit code."""
    from cardkit.db.build import build_database

    start = time.perf_counter()
    result = build_database(out)
    seconds = time.perf_counter() - start
    if as_json:
        echo(json_text({**result.to_dict(), "seconds": round(seconds, 3)}))
        return EXIT_OK
    echo(f"built {result.path} in {seconds:.2f} s")
    for table, n in result.counts.items():
        echo(f"  {table:16} {n:5} rows")
    echo(f"  catalogue hash   {result.meta['catalogue_hash'][:16]}")
    return EXIT_OK
