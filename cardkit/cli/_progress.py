"""One progress bar for long commands: on stderr, only on a terminal, never with --json."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def show_progress(as_json: bool) -> bool:
    """A bar only for people: on a terminal, never with --json (its stdout is for programs)."""
    return not as_json and sys.stderr.isatty()


class Bar:
    """A running bar: `advance(n)` after n more items, or `update(done, total)` when the total is learnt late."""

    def __init__(self, progress: Any, task: Any) -> None:
        self._progress, self._task = progress, task

    def advance(self, n: int) -> None:
        self._progress.advance(self._task, n)

    def update(self, done: int, total: int | None) -> None:
        self._progress.update(self._task, completed=done, total=total)

    def phase(self, label: str) -> None:
        """A new step of the command: the label changes and the bar pulses until `update` gives a total."""
        self._progress.update(self._task, description=label, completed=0, total=None)


@contextmanager
def progress_bar(label: str, enabled: bool, total: int | None = None) -> Iterator[Bar | None]:
    """A transient rich bar labelled `label` while the block runs when `enabled`; else None (nothing shown)."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        yield Bar(progress, progress.add_task(label, total=total))


FIRST_BUILD = "building the card database, once…"


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def announce_first_build(db: str | os.PathLike[str] | None = None) -> None:
    """Say on stderr that the command first builds the database, so its pause is no mystery to the
    person waiting; like the progress bar, only on a terminal (a log or a script gets only the result)."""
    from pathlib import Path

    import typer

    from cardkit.db.build import first_build_pending

    if stderr_is_terminal() and first_build_pending(Path(db) if db else None):
        typer.echo(FIRST_BUILD, err=True)
