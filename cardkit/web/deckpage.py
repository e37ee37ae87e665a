"""The deck page's check: a pasted or uploaded deck list validated as `cardkit validate` would, nothing kept.

The text is written to a private temporary folder only because the deck reader takes files;
the folder is gone before the answer is sent.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from cardkit.decks.report import DeckReport, validate_file

# Upload names are the user's: only a plain file name with a known suffix is kept.
DEFAULT_NAME = "pasted.deck"
SUFFIXES = (".deck", ".json", ".txt")


def deck_name(filename: str | None) -> str:
    """The name the deck is reported under: the uploaded file's own name when it is plain, else `pasted.deck`."""
    name = Path((filename or "").replace("\\", "/")).name
    if not name or name.startswith(".") or not name.lower().endswith(SUFFIXES):
        return DEFAULT_NAME
    return name


def check_deck_text(text: str, filename: str | None = None) -> DeckReport:
    """The report `cardkit validate` gives for a file holding `text`, under the file's own name."""
    name = deck_name(filename)
    with tempfile.TemporaryDirectory(prefix="cardkit-deck-") as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")
        report = validate_file(path)
    report.path = name
    return report
