"""`cardkit --version`: the version, and which catalogue and database a run would use."""

from __future__ import annotations

import os
import platform

from cardkit import __version__, paths


def version_lines() -> list[str]:
    """`cardkit X.Y.Z`, then the catalogue's folder and the database file, each with where it comes from."""
    db = paths.default_db_path()
    db_from = "$CARDKIT_DB" if os.environ.get("CARDKIT_DB") else "default"
    built = "" if db.is_file() else ", not built yet"
    return [
        f"cardkit {__version__} (Python {platform.python_version()})",
        f"catalogue  {paths.DATA_DIR} ({paths.SOURCE})",
        f"database   {db} ({db_from}{built})",
    ]
