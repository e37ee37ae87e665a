"""Where the bundled data lives and where built artefacts go."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

# The package is installed editable from the repository, so the data folders
# sit beside it; CARDKIT_HOME points elsewhere (tests use it for broken copies).
ROOT: Path = Path(os.environ.get("CARDKIT_HOME", Path(__file__).resolve().parent.parent))
DATA_DIR: Path = ROOT / "data"
CARDS_DIR: Path = DATA_DIR / "cards"
FORMATS_DIR: Path = DATA_DIR / "formats"
SCHEMAS_DIR: Path = ROOT / "schemas"
DECKS_DIR: Path = ROOT / "decks"


def default_db_path() -> Path:
    """`$CARDKIT_DB`, else `build/cardkit.db` in the repository."""
    env = os.environ.get("CARDKIT_DB")
    return Path(env) if env else ROOT / "build" / "cardkit.db"


@lru_cache(maxsize=64)
def resolved(folder: Path) -> Path:
    """`folder.resolve()`, asked of the file system once: every deck of a batch loads its catalogue and format."""
    return folder.resolve()
