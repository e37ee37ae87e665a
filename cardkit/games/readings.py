"""Where a rule text is open, the reading cardkit chose, kept as data beside the sentence it rests on.

`data/rules/GAME.json` holds `{"game", "readings": [{"id", "value", "rests_on", "reading"}]}`;
engines ask for a reading's `value` by id, so changing a reading is a data edit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardkit import paths
from cardkit.errors import CatalogueError


@dataclass(frozen=True)
class Reading:
    """One choice: its `value`, the sentence of the rule text it rests on, and the reading in words."""

    id: str
    value: Any
    rests_on: str
    reading: str


@lru_cache(maxsize=8)
def load_readings(game: str) -> dict[str, Reading]:
    """Every reading of `game`'s rule text, by id; `CatalogueError` when the file is missing or malformed."""
    path = paths.DATA_DIR / "rules" / f"{game}.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return {r["id"]: Reading(r["id"], r["value"], r["rests_on"], r["reading"]) for r in doc["readings"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CatalogueError(f"rule readings {path}: {exc}") from None


def reading(game: str, rid: str) -> Any:
    """The value of one reading."""
    return load_readings(game)[rid].value
