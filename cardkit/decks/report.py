"""Validating many deck files at once, each reported on its own even when another can't be read."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cardkit.errors import CardkitError, CatalogueError, UnknownFormat, UnreadableInput
from cardkit.jsonio import input_name
from cardkit.problems import Problem, error


@dataclass
class DeckReport:
    """The verdict on one deck file; `failure` is set when the file couldn't be read as a deck."""

    path: str
    game: str | None = None
    format: str | None = None
    player: str | None = None
    counts: dict[str, int] = field(default_factory=lambda: {"main": 0, "side": 0})
    problems: list[Problem] = field(default_factory=list)
    failure: str | None = None
    # The terminal's advice for the failure (a command line, an option), which the web deck page leaves out.
    failure_hint: str | None = None

    @property
    def legal(self) -> bool:
        return self.failure is None and not any(p.is_error for p in self.problems)

    @property
    def all_problems(self) -> list[Problem]:
        """The problems, or for a file that couldn't be read, its reason as one `UNREADABLE` problem."""
        if self.failure is not None:
            return [error("UNREADABLE", self.failure, file=self.path)]
        return self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "game": self.game, "format": self.format, "player": self.player,
                "legal": self.legal, "counts": dict(self.counts), "problems": [p.to_dict() for p in self.all_problems]}


def validate_file(path: str | os.PathLike[str], format_name: str | None = None) -> DeckReport:
    """Read and validate one deck; a file that can't be read becomes a report with `failure`.

    An unknown `format_name` is the caller's mistake and a broken catalogue is cardkit's, not
    the file's, so both are raised (`UnknownFormat`, `CatalogueError`).
    """
    from cardkit.decks import read_deck, validate_deck

    try:
        deck = read_deck(path, format_name)
    except (UnknownFormat, CatalogueError):
        # Neither is the deck's fault: a broken catalogue would make every deck "unreadable" alike.
        raise
    except CardkitError as exc:
        return DeckReport(path=input_name(path), failure=exc.message, failure_hint=exc.hint)
    return DeckReport(path=input_name(path), game=deck.game, format=deck.format, player=deck.player,
                      counts={"main": deck.size("main"), "side": deck.size("side")},
                      problems=validate_deck(deck))


def validate_text(text: str, name: str, format_name: str | None = None) -> DeckReport:
    """`validate_file` for a deck held in memory (a pasted list), reported under `name`."""
    return validate_bytes(text.encode("utf-8", "surrogatepass"), name, format_name)


def validate_bytes(data: bytes, name: str, format_name: str | None = None) -> DeckReport:
    """`validate_file` for a deck file's bytes held in memory (an uploaded file), reported under `name`."""
    from cardkit.decks import validate_deck
    from cardkit.decks.read import parse_deck
    from cardkit.jsonio import MAX_INPUT_BYTES, decode_text

    try:
        if len(data) > MAX_INPUT_BYTES:
            # Worded as the file reader words it, so an uploaded file's report is the command's.
            raise UnreadableInput(name, f"file is over {MAX_INPUT_BYTES} bytes; the limit is {MAX_INPUT_BYTES}")
        # The same text rules as a file's (no NUL, UTF-8, LF line ends), so a pasted list reads as its file would.
        text = decode_text(name, data)
        deck = parse_deck(text, path=name, format_name=format_name, json_hint=name.lower().endswith(".json"))
    except UnknownFormat:
        raise
    except CardkitError as exc:
        return DeckReport(path=name, failure=exc.message, failure_hint=exc.hint)
    return DeckReport(path=name, game=deck.game, format=deck.format, player=deck.player,
                      counts={"main": deck.size("main"), "side": deck.size("side")},
                      problems=validate_deck(deck))


def validate_files(paths: Iterable[str | os.PathLike[str]], format_name: str | None = None) -> list[DeckReport]:
    """One report per path, in order."""
    return [validate_file(p, format_name) for p in paths]
