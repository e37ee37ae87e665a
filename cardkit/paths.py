"""Where the bundled data lives and where built artefacts go.

`data/` and `schemas/` sit at the repository's top level. A wheel carries a copy
of both as `cardkit/_bundled/` (setup.py maps them there at build time), so one
lookup from the package's folder serves a checkout and an installed package
alike: the package's `_bundled/` folder when it has one, else the checkout the
package was imported from. `$CARDKIT_HOME` overrides both (tests use it for
broken copies).

What cardkit builds (the SQLite database, the note that the bundled formats
passed their schema) goes to `build/` beside the data in a checkout, as it
always has, and to the user's cache folder when cardkit is installed.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path


def _data_root() -> tuple[Path, str]:
    """The folder holding `data/` and `schemas/`, and what it is: `$CARDKIT_HOME`, `bundled` or `checkout`."""
    home = os.environ.get("CARDKIT_HOME")
    if home:
        return Path(home), "$CARDKIT_HOME"
    # cardkit is installed as files (it scans folders and hands paths to SQLite), so its folder is the one
    # importlib.resources would name; asking it loaded zipfile and a dozen modules into every command.
    package = Path(os.path.abspath(__file__)).parent
    bundled = package / "_bundled"
    if bundled.is_dir():
        return bundled, "bundled"
    return package.parent, "checkout"


ROOT, SOURCE = _data_root()
BUNDLED: bool = SOURCE == "bundled"
DATA_DIR: Path = ROOT / "data"
CARDS_DIR: Path = DATA_DIR / "cards"
FORMATS_DIR: Path = DATA_DIR / "formats"
SCHEMAS_DIR: Path = ROOT / "schemas"


def cache_dir() -> Path:
    """Where cardkit keeps what it builds: `$CARDKIT_CACHE_DIR`, else `build/` in a checkout, the user's cache folder when installed."""
    env = os.environ.get("CARDKIT_CACHE_DIR")
    if env:
        # The test suite points this into pytest's temporary folder, so no test writes into the checkout.
        return Path(env)
    if not BUNDLED:
        return ROOT / "build"
    from platformdirs import user_cache_path

    return user_cache_path("cardkit", appauthor=False)


def default_db_path() -> Path:
    """`$CARDKIT_DB`, else `cardkit.db` in `cache_dir()`."""
    env = os.environ.get("CARDKIT_DB")
    return Path(env) if env else cache_dir() / "cardkit.db"


@lru_cache(maxsize=64)
def resolved(folder: Path) -> Path:
    """`folder.resolve()`, asked of the file system once: every deck of a batch loads its catalogue and format."""
    return folder.resolve()
